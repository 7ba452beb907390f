// `.fixture-setup`: a fixture that needs what git cannot hold (a FIFO, a mode-000 file, a file
// over the size limit) says so in this file, one instruction a line, and is analysed from a
// temporary copy that the instructions complete. Part of the fixture format that `sbreview
// test-rules` and the test binary share (rule_tests.h).
#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "analyzer/cli/rule_tests.h"

namespace sbr::ruletest {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
      std::ofstream(dst, std::ios::binary) << read_all(src);
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

}  // namespace

Analysis analyse_from_disk(const std::string& dir, const Config& config) {
  AnalyzeOptions ao;
  ao.jobs = 1;
  std::string setup = read_all(dir + "/.fixture-setup");
  if (setup.empty()) return analyze(std::vector<std::string>{dir}, config, ao);
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
    if (!unreadable) return analyze(std::vector<std::string>{root}, config, ao);
    DacOverrideDropped guard;
    return analyze(std::vector<std::string>{root}, config, ao);
  }();
  remove_tree(root);
  return a;
}

}  // namespace sbr::ruletest
