// A chart's `.helmignore`, as helm's pkg/ignore reads it while loading a chart directory:
// gitignore-like lines, matched with Go's path.Match against the path (a pattern with a `/`) or
// the base name (one without). A file helm ignores is not part of the chart: not a template,
// not in .Files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbr::render::helm {

class HelmIgnore {
 public:
  // The file's rules (none without one), then helm's default: `templates/.?*` (dotfiles).
  explicit HelmIgnore(std::string_view text = {});
  // Whether helm skips `rel` (a file's path below the chart), or a folder on its way.
  bool ignored(const std::string& rel) const;

 private:
  struct Rule {
    std::string pattern;
    bool negate = false, dir_only = false, has_slash = false;
  };
  void add(std::string line);
  bool ignores(const std::string& path, bool is_dir) const;
  std::vector<Rule> rules_;
};

}  // namespace sbr::render::helm
