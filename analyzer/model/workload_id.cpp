#include <string>

#include "analyzer/model/workload.h"

namespace sbr {

std::string identity_key(const WorkloadId& id) {
  std::string key = id.kind;
  auto add = [&](const std::string& part) {
    key += '\x1f';
    key += part;
  };
  if (!id.launch_path.empty()) {
    // A launch's `container` is display text ("launch 3" or its --name); the path replaces it.
    add(id.render_root);
    add(id.name);
    add(id.launch_path);
    return key;
  }
  add(id.render_root);
  add(id.api_group);
  add(id.ns);
  add(id.name);
  add(id.container);
  return key;
}

namespace {

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// The end of `@path:line` after an identity's variable name (at `at`, the '@'), or npos.
std::size_t identity_site_end(std::string_view s, std::size_t at) {
  std::size_t colon = s.find(':', at + 1);
  if (colon == std::string_view::npos || colon == at + 1) return std::string_view::npos;
  if (s.substr(at + 1, colon - at - 1).find_first_of(" $@") != std::string_view::npos)
    return std::string_view::npos;
  std::size_t end = colon + 1;
  while (end < s.size() && digit(s[end])) ++end;
  return end == colon + 1 ? std::string_view::npos : end;
}

}  // namespace

std::string reader_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  std::size_t i = 0;
  while (i < name.size()) {
    if (name[i] != '$') {
      out += name[i++];
      continue;
    }
    std::size_t j = i + 1;
    while (j < name.size() && name_char(name[j])) ++j;
    std::size_t end = j < name.size() && name[j] == '@' && j > i + 1 ? identity_site_end(name, j)
                                                                     : std::string_view::npos;
    if (end == std::string_view::npos) {
      out += name[i++];
      continue;
    }
    out.append(name.substr(i, j - i));
    i = end;
  }
  return out;
}

}  // namespace sbr
