#include "tests/fixture_harness.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/memory_tree_loader.h"

namespace sbr::test {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

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

// Drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the calling thread's effective set while
// alive, so that root meets file permissions like anyone else (a mode-000 file is unreadable).
// Threads started meanwhile (the analysis workers) inherit the lowered set; the permitted set
// is untouched, so the destructor can raise them again.
class DacOverrideDropped {
 public:
  DacOverrideDropped() {
    if (geteuid() != 0) return;
    if (syscall(SYS_capget, &hdr_, saved_) != 0) return;
    __user_cap_data_struct lowered[2] = {saved_[0], saved_[1]};
    lowered[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
    active_ = syscall(SYS_capset, &hdr_, lowered) == 0;
  }
  ~DacOverrideDropped() {
    if (active_) syscall(SYS_capset, &hdr_, saved_);
  }
  DacOverrideDropped(const DacOverrideDropped&) = delete;
  DacOverrideDropped& operator=(const DacOverrideDropped&) = delete;

 private:
  __user_cap_header_struct hdr_{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct saved_[2]{};
  bool active_ = false;
};

void copy_tree(const std::string& from, const std::string& to) {
  DIR* d = opendir(from.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    std::string src = from + "/" + n, dst = to + "/" + n;
    struct stat st {};
    if (lstat(src.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      mkdir(dst.c_str(), 0755);
      copy_tree(src, dst);
    } else if (S_ISLNK(st.st_mode)) {
      char buf[4096];
      ssize_t len = readlink(src.c_str(), buf, sizeof buf - 1);
      if (len > 0 &&
          symlink(std::string(buf, static_cast<size_t>(len)).c_str(), dst.c_str()) != 0) {
        throw std::runtime_error("cannot copy symlink " + src);
      }
    } else if (S_ISREG(st.st_mode)) {
      std::ofstream(dst, std::ios::binary) << read_file(src);
    }
  }
  closedir(d);
}

void remove_tree(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    if (DIR* d = opendir(path.c_str())) {
      std::vector<std::string> names;
      while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n != "." && n != "..") names.push_back(n);
      }
      closedir(d);
      for (const auto& n : names) remove_tree(path + "/" + n);
    }
    rmdir(path.c_str());
  } else {
    unlink(path.c_str());
  }
}

// Applies `.fixture-setup` to a copy of the fixture: conditions git cannot hold, made at test
// time. One instruction a line: `fifo NAME`, `unreadable NAME` (mode 000), `sparse NAME BYTES`
// (a hole-only file of that size: over the size limit without using the disk).
bool apply_setup(const std::string& copy, const std::string& setup_text, bool& unreadable) {
  std::stringstream lines(setup_text);
  std::string line;
  while (std::getline(lines, line)) {
    std::stringstream ss(line);
    std::string op, name;
    if (!(ss >> op) || op[0] == '#') continue;
    if (!(ss >> name) || name.find('/') != std::string::npos) return false;
    std::string path = copy + "/" + name;
    if (op == "fifo") {
      if (mkfifo(path.c_str(), 0644) != 0) return false;
    } else if (op == "unreadable") {
      std::ofstream(path) << "apiVersion: v1\nkind: ConfigMap\n";
      if (chmod(path.c_str(), 0) != 0) return false;
      unreadable = true;
    } else if (op == "sparse") {
      unsigned long long bytes = 0;
      if (!(ss >> bytes)) return false;
      int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) return false;
      bool ok = ftruncate(fd, static_cast<off_t>(bytes)) == 0;
      close(fd);
      if (!ok) return false;
    } else {
      return false;
    }
  }
  return true;
}

// How a fixture's files get into the pipeline. A plain fixture is read into memory and
// analysed through the in-memory tree. One with a `.fixture-setup` needs what only a disk
// holds (a FIFO, a mode-000 file, a sparse file): it is analysed from a temporary copy that
// the setup completes. Paths in findings are relative to the root either way.
Analysis analyse_files(const std::string& dir, const Config& config) {
  AnalyzeOptions ao;
  ao.jobs = 2;
  std::string setup = read_file(dir + "/.fixture-setup");
  if (setup.empty()) {
    // The fixture is the repository: evidence its `exclude:` leaves out is still found.
    MemoryTree tree = load_memory_tree(dir);
    RepositoryLookup repository(tree, "");
    ao.repository = &repository;
    return analyze(tree, config, ao);
  }
  char tmpl[] = "/tmp/sbr-fixture-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  std::string root = tmpl;
  copy_tree(dir, root);
  unlink((root + "/.fixture-setup").c_str());
  bool unreadable = false;
  if (!apply_setup(root, setup, unreadable)) {
    remove_tree(root);
    throw std::runtime_error("bad .fixture-setup in " + dir);
  }
  Analysis a = [&] {
    if (!unreadable) return analyze({root}, config, ao);
    DacOverrideDropped guard;
    return analyze({root}, config, ao);
  }();
  remove_tree(root);
  return a;
}

struct Reported {
  std::string path;  // relative to the analysed directory
  Finding finding;
};

// The whole pipeline on one directory, with its own .sbreview.yaml when present and without
// the subdirectories in `skip`.
std::vector<Reported> analyse_tree(const std::string& dir, const std::vector<std::string>& skip) {
  Config config;
  std::string cfg = dir + "/.sbreview.yaml";
  std::ifstream probe(cfg);
  if (probe) {
    auto parsed = parse_config(read_file(cfg), cfg, kNoFile);
    if (parsed) config = *parsed;
  }
  auto with_skips = [&](Config c) {
    c.exclude.insert(c.exclude.end(), skip.begin(), skip.end());
    return c;
  };
  Analysis a = analyse_files(dir, with_skips(config));
  if (probe) {
    FileId id = a.model.files.add(".sbreview.yaml");
    auto parsed = parse_config(read_file(cfg), ".sbreview.yaml", id);
    if (parsed) config = *parsed;
  }
  RunOptions ro;
  ro.today = "2026-06-15";
  std::vector<Reported> out;
  for (auto& f : run_checks(a.model, Catalog::embedded(), config, ro)) {
    out.push_back({a.model.files.path(f.at.file), std::move(f)});
  }
  return out;
}

}  // namespace

std::string source_dir() {
  return SBR_SOURCE_DIR;
}

std::string FixtureResult::describe() const {
  auto name = [](const Key& k) {
    return std::get<0>(k) + ":" + std::to_string(std::get<1>(k)) + " " + std::get<2>(k);
  };
  std::ostringstream os;
  for (const auto& k : expected) {
    if (!reported.count(k)) os << "  missing:    " << name(k) << "\n";
  }
  for (const auto& u : unannotated()) os << "  unexpected: " << u << "\n";
  for (const auto& k : forbidden_hit) os << "  ok-but-hit: " << name(k) << "\n";
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
    out.push_back(std::get<0>(k) + ":" + std::to_string(std::get<1>(k)) + " " + std::get<2>(k) +
                  " " + message);
  }
  return out;
}

FixtureResult run_fixture_dir(const std::string& dir, const std::set<std::string>& scope,
                              bool closed) {
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
  record(analyse_tree(dir, separate), "");
  for (const auto& sub : separate) record(analyse_tree(dir + "/" + sub, {}), sub + "/");
  return r;
}

}  // namespace sbr::test

#include <catch2/catch.hpp>

#include "analyzer/report/report.h"

namespace sbr::test {

std::string model_dump_of(const std::string& rel_dir) {
  Config config;
  AnalyzeOptions ao;
  ao.jobs = 2;
  Analysis a = analyze(load_memory_tree(source_dir() + "/" + rel_dir), config, ao);
  std::ostringstream os;
  write_model_dump(a.model, os);
  return os.str();
}

void check_golden_dump(const std::string& rel_dir, const std::string& golden) {
  std::string actual = model_dump_of(rel_dir);
  std::string path = source_dir() + "/" + golden;
  if (std::getenv("SBR_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << actual;
  INFO("golden " << path << " (regenerate with SBR_UPDATE_GOLDEN=1 and review the diff)");
  CHECK(actual == read_file(path));
}

}  // namespace sbr::test
