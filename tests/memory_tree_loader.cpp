#include "tests/memory_tree_loader.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sbr::test {
namespace {

void load_dir(const std::string& abs, const std::string& rel, MemoryTree& out) {
  DIR* d = opendir(abs.c_str());
  if (d == nullptr) throw std::runtime_error("cannot list " + abs);
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    std::string p = abs + "/" + n;
    std::string r = rel.empty() ? n : rel + "/" + n;
    struct stat st {};
    if (lstat(p.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      out.add_directory(r);
      load_dir(p, r, out);
    } else if (S_ISREG(st.st_mode)) {
      std::ifstream in(p, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      out.add_file(r, ss.str());
    } else if (S_ISLNK(st.st_mode)) {
      char buf[4096];
      ssize_t len = readlink(p.c_str(), buf, sizeof buf);
      if (len < 0) throw std::runtime_error("cannot read link " + p);
      out.add_symlink(r, std::string(buf, static_cast<size_t>(len)));
    } else {
      out.add_special(r);
    }
  }
  closedir(d);
}

}  // namespace

MemoryTree load_memory_tree(const std::string& dir) {
  MemoryTree out;
  load_dir(dir, "", out);
  return out;
}

}  // namespace sbr::test
