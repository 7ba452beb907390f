// Takes the origin annotations the private copy turned on back out of kustomize's output, so
// the text that is checked is what `kustomize build` prints for the user's own files.
#include <string_view>
#include <vector>

#include "analyzer/render/kustomize/internal.h"

namespace sbr::render::kz {
namespace {

size_t indent_of(std::string_view line) {
  size_t n = line.find_first_not_of(' ');
  return n == std::string_view::npos ? line.size() : n;
}

bool blank(std::string_view line) {
  return indent_of(line) == line.size();
}

std::string_view trim_value(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '"' || v.front() == '\'')) {
    v.remove_prefix(1);
  }
  while (!v.empty() &&
         (v.back() == ' ' || v.back() == '"' || v.back() == '\'' || v.back() == '\r')) {
    v.remove_suffix(1);
  }
  return v;
}

// In one document's lines [begin, end): drops the origin annotation block (kustomize prints
// `metadata:` at column 1, `annotations:` under it, the origin as a literal block) and
// returns the origin's path (or the kustomization that generated the object).
std::string strip_document(std::vector<std::string_view>& lines, std::vector<bool>& keep,
                           size_t begin, size_t end) {
  size_t meta = end, annotations = end;
  for (size_t i = begin; i < end && annotations == end; ++i) {
    if (lines[i] == "metadata:") meta = i;
    if (meta != end && i > meta && indent_of(lines[i]) == 0 && !blank(lines[i])) break;
    if (meta != end && lines[i] == "  annotations:") annotations = i;
  }
  if (annotations == end) return "";
  std::string origin, configured_in;
  size_t i = annotations + 1;
  for (; i < end && (blank(lines[i]) || indent_of(lines[i]) >= 4); ++i) {
    if (lines[i] != "    config.kubernetes.io/origin: |") continue;
    keep[i] = false;
    size_t j = i + 1;
    for (; j < end && (blank(lines[j]) || indent_of(lines[j]) >= 6); ++j) {
      std::string_view body = lines[j].substr(std::min<size_t>(6, lines[j].size()));
      if (body.starts_with("path:")) origin = trim_value(body.substr(5));
      if (body.starts_with("configuredIn:")) configured_in = trim_value(body.substr(13));
      keep[j] = false;
    }
    i = j - 1;
  }
  bool left = false;
  for (size_t k = annotations + 1; k < i; ++k) left = left || (keep[k] && !blank(lines[k]));
  if (!left) keep[annotations] = false;  // `annotations:` would be left empty
  return origin.empty() ? configured_in : origin;
}

}  // namespace

std::string strip_origins(const std::string& text, std::vector<std::string>& origins) {
  std::vector<std::string_view> lines;
  std::string_view all = text;
  for (size_t start = 0; start < all.size();) {
    size_t end = all.find('\n', start);
    if (end == std::string_view::npos) end = all.size();
    lines.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  std::vector<bool> keep(lines.size(), true);
  size_t begin = 0;
  for (size_t i = 0; i <= lines.size(); ++i) {
    if (i < lines.size() && lines[i] != "---") continue;
    if (i > begin) origins.push_back(strip_document(lines, keep, begin, i));
    begin = i + 1;
  }
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!keep[i]) continue;
    out.append(lines[i]);
    out.push_back('\n');
  }
  return out;
}

}  // namespace sbr::render::kz
