#include "analyzer/cli/rule_tests.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "analyzer/check/runner.h"

namespace sbr::ruletest {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_dir(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void list_files(const std::string& dir, const std::string& rel, std::vector<std::string>& out) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    std::string p = dir + "/" + n;
    std::string r = rel.empty() ? n : rel + "/" + n;
    struct stat st {};
    if (lstat(p.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      list_files(p, r, out);
    } else if (S_ISREG(st.st_mode)) {
      out.push_back(r);
    }
  }
}

// Parses "ruleid: A, B" / "ok: A" out of a comment line. Returns false when not an annotation.
bool parse_annotation(const std::string& line, std::string& kind, std::vector<std::string>& ids) {
  size_t start = line.find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  std::string s = line.substr(start);
  for (const char* lead : {"#", "//", "<!--"}) {
    if (s.rfind(lead, 0) == 0) {
      s = s.substr(std::string(lead).size());
      break;
    }
  }
  if (size_t end = s.find("-->"); end != std::string::npos) s = s.substr(0, end);
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return false;
  s = s.substr(b);
  for (const char* k : {"ruleid:", "ok:"}) {
    if (s.rfind(k, 0) == 0) {
      kind = std::string(k, std::string(k).size() - 1);
      std::stringstream ss(s.substr(std::string(k).size()));
      std::string id;
      while (std::getline(ss, id, ',')) {
        size_t x = id.find_first_not_of(" \t"), y = id.find_last_not_of(" \t\r");
        if (x != std::string::npos) ids.push_back(id.substr(x, y - x + 1));
      }
      return !ids.empty();
    }
  }
  return false;
}

struct Reported {
  std::string path;  // relative to the analysed directory
  Finding finding;
};

// The whole pipeline on one directory, with its own .sbreview.yaml when present and without
// the subdirectories in `skip`.
std::vector<Reported> analyse_tree(const std::string& dir, const std::vector<std::string>& skip,
                                   const FixtureRun& run) {
  Config config;
  std::string cfg = dir + "/.sbreview.yaml";
  std::string cfg_text = read_file(cfg);
  bool has_config = std::ifstream(cfg).good();
  if (has_config) {
    auto parsed = parse_config(cfg_text, cfg, kNoFile);
    if (parsed) config = *parsed;
  }
  Config walk = config;
  walk.exclude.insert(walk.exclude.end(), skip.begin(), skip.end());
  Analysis a = run.analyse(dir, walk);
  if (has_config) {
    FileId id = a.model.files.add(".sbreview.yaml");
    auto parsed = parse_config(cfg_text, ".sbreview.yaml", id);
    if (parsed) config = *parsed;
  }
  RunOptions ro;
  ro.today = run.today;
  std::vector<Reported> out;
  for (auto& f : run_checks(a.model, *run.catalog, config, ro)) {
    out.push_back({a.model.files.path(f.at.file), std::move(f)});
  }
  return out;
}

std::string key_text(const Key& k) {
  return std::get<0>(k) + ":" + std::to_string(std::get<1>(k)) + " " + std::get<2>(k);
}

}  // namespace

std::string FixtureResult::describe() const {
  std::ostringstream os;
  for (const auto& k : expected) {
    if (!reported.count(k)) os << "  missing:    " << key_text(k) << "\n";
  }
  for (const auto& u : unannotated()) os << "  unexpected: " << u << "\n";
  for (const auto& k : forbidden_hit) os << "  ok-but-hit: " << key_text(k) << "\n";
  for (const auto& f : findings) {
    os << "    (reported " << f.rule_id << " line " << f.at.line << ": " << f.message << ")\n";
  }
  return os.str();
}

void collect_annotations(const std::string& rel, const std::string& text, Annotations& into) {
  if (rel.size() > 7 && rel.substr(rel.size() - 7) == ".expect") {
    std::string target = rel.substr(0, rel.size() - 7);
    std::stringstream ss(text);
    unsigned line;
    std::string rule;
    while (ss >> line >> rule) {
      into.expected.insert({target, line, rule});
      into.rules.insert(rule);
    }
    return;
  }
  std::stringstream ss(text);
  std::string line_text;
  unsigned n = 0;
  std::vector<std::pair<std::string, std::string>> pending;  // kind, id
  while (std::getline(ss, line_text)) {
    ++n;
    std::string kind;
    std::vector<std::string> ids;
    if (parse_annotation(line_text, kind, ids)) {
      for (auto& id : ids) pending.emplace_back(kind, id);
      continue;
    }
    for (auto& [kind2, id] : pending) {
      into.rules.insert(id);
      (kind2 == "ruleid" ? into.expected : into.ok).insert({rel, n, id});
    }
    pending.clear();
  }
}

void collect_tree_expectations(const std::string& text, Annotations& into) {
  std::stringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::stringstream ss(line);
    std::string path, rule;
    unsigned n;
    if (!(ss >> path) || path[0] == '#' || !(ss >> n >> rule)) continue;
    into.expected.insert({path, n, rule});
    into.rules.insert(rule);
  }
}

void compare_finding(const Annotations& marks, const std::set<std::string>& scope, bool closed,
                     const std::string& path, const Finding& f, FixtureResult& r) {
  // A reason folded into the finding (check/group.h) is still reported at its line: the
  // annotation names every rule that judged the fact, folded or not.
  std::vector<std::pair<std::string, std::string>> rules{{std::string(f.rule_id.str()), f.message}};
  for (const Reason& reason : f.reasons)
    rules.emplace_back(std::string(reason.rule_id.str()), reason.message);
  for (const auto& [rule, message] : rules) {
    Key k{path, f.at.line, rule};
    if (marks.ok.count(k)) r.forbidden_hit.insert(k);
    if (closed || scope.count(rule) || marks.rules.count(rule)) {
      r.reported.insert(k);
      r.texts.emplace(k, message);
    }
  }
  r.findings.push_back(f);
}

std::vector<std::string> FixtureResult::unannotated() const {
  std::vector<std::string> out;
  for (const auto& [k, message] : texts) {
    if (expected.count(k)) continue;
    out.push_back(key_text(k) + " " + message);
  }
  return out;
}

FixtureResult run_fixture_dir(const std::string& dir, const std::set<std::string>& scope,
                              bool closed, const FixtureRun& run) {
  FixtureResult r;
  Annotations marks;
  std::vector<std::string> files;
  list_files(dir, "", files);
  for (const auto& rel : files) {
    if (rel != ".fixture-setup") collect_annotations(rel, read_file(dir + "/" + rel), marks);
  }
  std::string tree = dir;
  while (tree.size() > 1 && tree.back() == '/') tree.pop_back();
  collect_tree_expectations(read_file(tree + ".expect"), marks);
  r.expected = marks.expected;

  // A direct subdirectory with its own .sbreview.yaml is a separate run with that
  // configuration (a good case that needs a declared cluster fact, say); the rest of the
  // directory is analysed without it.
  std::vector<std::string> separate;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      struct stat st {};
      if (n != "." && n != ".." && stat((dir + "/" + n + "/.sbreview.yaml").c_str(), &st) == 0) {
        separate.push_back(n);
      }
    }
    closedir(d);
  }
  std::sort(separate.begin(), separate.end());
  auto record = [&](const std::vector<Reported>& found, const std::string& prefix) {
    for (const auto& [path, f] : found) compare_finding(marks, scope, closed, prefix + path, f, r);
  };
  record(analyse_tree(dir, separate, run), "");
  for (const auto& sub : separate) record(analyse_tree(dir + "/" + sub, {}, run), sub + "/");
  return r;
}

std::vector<std::string> test_rule(const Rule& rule, const std::string& fixtures, bool closed,
                                   const FixtureRun& run) {
  std::vector<std::string> out;
  std::string dir = fixtures;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::vector<std::string> files;
  list_files(dir, "", files);
  bool bad = false, good = false;
  for (const auto& f : files) {
    bad = bad || f.rfind("bad", 0) == 0;
    good = good || f.rfind("good", 0) == 0;
  }
  if (!bad || !good) {
    out.push_back(dir + ": " + rule.id + " needs a `bad*` and a `good*` fixture");
    return out;
  }
  FixtureResult r = run_fixture_dir(dir, {rule.id}, closed, run);
  auto where = [&](const Key& k) {
    return dir + "/" + std::get<0>(k) + ":" + std::to_string(std::get<1>(k)) + ": " +
           std::get<2>(k);
  };
  for (const Key& k : r.expected) {
    if (!r.reported.count(k)) out.push_back(where(k) + " annotated but not reported");
  }
  for (const auto& [k, message] : r.texts) {
    if (!r.expected.count(k)) out.push_back(where(k) + " reported but not annotated: " + message);
  }
  for (const Key& k : r.forbidden_hit) out.push_back(where(k) + " reported on an `ok:` line");
  bool annotated = false;
  for (const Key& k : r.expected) {
    if (std::get<2>(k) != rule.id) continue;
    if (std::get<0>(k).rfind("good", 0) == 0) {
      out.push_back(where(k) +
                    " is annotated in a good file: a good fixture must not report "
                    "its own rule");
    } else {
      annotated = true;
    }
  }
  if (!annotated) out.push_back(dir + ": no bad file annotates `ruleid: " + rule.id + "`");
  return out;
}

std::string fixtures_for(const std::string& rules_dir, const Rule& rule) {
  // Named after the rule's file (`SB1001-privileged-container.yaml`, `ACME-registry.yaml`).
  std::string name = rule.file.substr(rule.file.rfind('/') + 1);
  name = name.substr(0, name.rfind('.'));
  std::string beside = rules_dir + "/" + name;
  if (is_dir(beside)) return beside;
  std::string project = rules_dir + "/../fixtures/rules/" + name;
  if (is_dir(project)) return project;
  return "";
}

}  // namespace sbr::ruletest
