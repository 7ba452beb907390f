#include "analyzer/model/invocation.h"

#include <algorithm>

namespace sbr {

std::string show_unknown(std::string_view text, const std::vector<UnknownPart>& parts) {
  // Offsets past the end say the text was cut after the parts were placed: show it as it is
  // rather than a name in the wrong place.
  if (parts.empty() || std::any_of(parts.begin(), parts.end(),
                                   [&](const UnknownPart& p) { return p.at > text.size(); })) {
    return std::string(text);
  }
  std::string out;
  std::size_t done = 0;
  for (const UnknownPart& p : parts) {
    if (p.at < done) continue;  // out of order: not placed by concatenation
    out.append(text.substr(done, p.at - done));
    out += "<unknown: " + p.name + ">";
    done = p.at;
  }
  out.append(text.substr(done));
  return out;
}

std::vector<UnknownPart> unknown_parts_in(const std::vector<UnknownPart>& parts, std::size_t begin,
                                          std::size_t end) {
  std::vector<UnknownPart> out;
  for (const UnknownPart& p : parts) {
    if (p.at < begin || p.at > end) continue;
    out.push_back({static_cast<std::uint32_t>(p.at - begin), p.name});
  }
  return out;
}

}  // namespace sbr
