#include "tests/fixture_harness.h"

#include <dirent.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"

namespace sbr::test {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void list_files(const std::string& dir, const std::string& rel, std::vector<std::string>& out) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
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
  closedir(d);
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

}  // namespace

std::string source_dir() {
  return SBR_SOURCE_DIR;
}

std::string FixtureResult::describe() const {
  std::ostringstream os;
  for (const auto& k : expected) {
    if (!reported.count(k)) {
      os << "  missing:    " << std::get<0>(k) << ":" << std::get<1>(k) << " " << std::get<2>(k)
         << "\n";
    }
  }
  for (const auto& k : reported) {
    if (!expected.count(k)) {
      os << "  unexpected: " << std::get<0>(k) << ":" << std::get<1>(k) << " " << std::get<2>(k)
         << "\n";
    }
  }
  for (const auto& k : forbidden_hit) {
    os << "  ok-but-hit: " << std::get<0>(k) << ":" << std::get<1>(k) << " " << std::get<2>(k)
       << "\n";
  }
  for (const auto& f : findings) {
    os << "    (reported " << f.rule_id << " line " << f.at.line << ": " << f.message << ")\n";
  }
  return os.str();
}

FixtureResult run_fixture_dir(const std::string& dir, const std::set<std::string>& scope_in,
                              bool closed) {
  FixtureResult r;
  std::set<std::string> scope = scope_in;
  std::set<Key> ok_marks;
  std::vector<std::string> files;
  list_files(dir, "", files);
  for (const auto& rel : files) {
    if (rel.size() > 7 && rel.substr(rel.size() - 7) == ".expect") {
      std::string target = rel.substr(0, rel.size() - 7);
      std::stringstream ss(read_all(dir + "/" + rel));
      unsigned line;
      std::string rule;
      while (ss >> line >> rule) {
        r.expected.insert({target, line, rule});
        scope.insert(rule);
      }
      continue;
    }
    std::stringstream ss(read_all(dir + "/" + rel));
    std::string text;
    unsigned n = 0;
    std::vector<std::pair<std::string, std::string>> pending;  // kind, id
    while (std::getline(ss, text)) {
      ++n;
      std::string kind;
      std::vector<std::string> ids;
      if (parse_annotation(text, kind, ids)) {
        for (auto& id : ids) pending.emplace_back(kind, id);
        continue;
      }
      for (auto& [kind2, id] : pending) {
        scope.insert(id);
        (kind2 == "ruleid" ? r.expected : ok_marks).insert({rel, n, id});
      }
      pending.clear();
    }
  }

  Config config;
  std::string cfg = dir + "/.sbreview.yaml";
  std::ifstream probe(cfg);
  if (probe) {
    auto parsed = parse_config(read_all(cfg), cfg, kNoFile);
    if (parsed) config = *parsed;
  }
  AnalyzeOptions ao;
  ao.jobs = 2;
  Analysis a = analyze({dir}, config, ao);
  if (probe) {
    FileId id = a.model.files.add(".sbreview.yaml");
    auto parsed = parse_config(read_all(cfg), ".sbreview.yaml", id);
    if (parsed) config = *parsed;
  }
  RunOptions ro;
  ro.today = "2026-06-15";
  r.findings = run_checks(a.model, Catalog::embedded(), config, ro);
  for (const auto& f : r.findings) {
    Key k{a.model.files.path(f.at.file), f.at.line, f.rule_id};
    if (ok_marks.count(k)) r.forbidden_hit.insert(k);
    if (closed || scope.count(f.rule_id)) r.reported.insert(k);
  }
  return r;
}

}  // namespace sbr::test
