#include "analyzer/render/helm/helmignore.h"

#include "analyzer/render/helm/manifests.h"
#include "analyzer/support/strings.h"

namespace sbr::render::helm {

HelmIgnore::HelmIgnore(std::string_view text) {
  for (const std::string& line : split(text, '\n')) add(std::string(trim(line)));
  add("templates/.?*");
}

void HelmIgnore::add(std::string line) {
  if (line.empty() || line[0] == '#') return;
  Rule r;
  if (line[0] == '!') {
    r.negate = true;
    line.erase(0, 1);
  }
  if (!line.empty() && line.back() == '/') {
    r.dir_only = true;
    line.pop_back();
  }
  r.has_slash = line.find('/') != std::string::npos;  // a rooted `/x` matches the whole path too
  if (!line.empty() && line[0] == '/') line.erase(0, 1);
  // helm refuses `**` (its loader then fails the chart); such a line matches nothing here.
  if (line.empty() || line.find("**") != std::string::npos) return;
  r.pattern = std::move(line);
  rules_.push_back(std::move(r));
}

// pkg/ignore's Rules.Ignore, rule by rule in order: a negated rule that does not match ignores
// the path (sic), one that matches moves on; a plain rule that matches ignores it.
bool HelmIgnore::ignores(const std::string& path, bool is_dir) const {
  for (const Rule& r : rules_) {
    const std::string name = r.has_slash ? path : base_name(path);
    const bool match = go_path_match(r.pattern, name);
    if (r.negate) {
      if ((r.dir_only && !is_dir) || !match) return true;
      continue;
    }
    if (r.dir_only && !is_dir) continue;
    if (match) return true;
  }
  return false;
}

bool HelmIgnore::ignored(const std::string& rel) const {
  // The loader walks folders first and skips an ignored folder whole.
  for (std::size_t slash = rel.find('/'); slash != std::string::npos;
       slash = rel.find('/', slash + 1)) {
    if (ignores(rel.substr(0, slash), true)) return true;
  }
  return ignores(rel, false);
}

}  // namespace sbr::render::helm
