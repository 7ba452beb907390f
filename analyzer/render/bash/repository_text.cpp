// Files of the analysed tree as a script names them, and commands that print their text. A test
// that extracts a function from the product's entrypoint with awk and evals it
// (`eval "$(extract_func setup_rtk)"`, agentbox's docker-entrypoint_test.sh) runs the
// repository's own code, as `source lib.sh` does: the text is what the review reads, not input
// from outside.
#include <string>
#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/path_idioms.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {

// A relative path as the script means it: from the script's directory, or from the root (a
// path built on the script-directory idioms already is); never outside the root.
const SourceFile* Evaluator::repository_file(const std::string& path) const {
  if (sources_ == nullptr || path.empty() || path[0] == '/' || path[0] == '$' || path[0] == '~')
    return nullptr;
  const std::string dir = script_dir();
  std::vector<std::string> candidates;
  if (starts(path, dir + "/") || dir == ".") candidates.push_back(path);
  candidates.push_back(dir == "." ? path : dir + "/" + path);
  candidates.push_back(path);
  for (const std::string& c : candidates) {
    auto n = normalise_repo_path(c);
    if (!n) continue;
    for (const SourceFile& f : sources_->files)
      if (f.path == *n && f.readable) return &f;
  }
  return nullptr;
}

namespace {

// The text tools whose output is lines of the files they are given, and whether the first
// operand is their program or pattern rather than a file.
bool text_tool(const std::string& b, bool& program_first) {
  program_first = b == "awk" || b == "gawk" || b == "mawk" || b == "sed" || b == "grep";
  return program_first || b == "cat" || b == "head" || b == "tail" || b == "cut";
}

// Options that take the next word (awk -F SEP, -v VAR=x; sed/grep -e PROGRAM; head -n N...).
bool takes_value(const std::string& b, const std::string& o) {
  if (o == "-e") return true;
  if (b == "awk" || b == "gawk" || b == "mawk") return o == "-F" || o == "-v";
  if (b == "head" || b == "tail") return o == "-n" || o == "-c";
  if (b == "cut") return o == "-d" || o == "-f" || o == "-c" || o == "-b";
  return false;
}

}  // namespace

// The repository file `cmd` prints the text of, or nullptr: a text tool whose program is
// written (not tainted), with no program file (`-f`), reading one or more files that are all
// files of the tree.
const SourceFile* Evaluator::repository_text_file(const std::vector<EWord>& cmd) const {
  if (cmd.empty() || cmd[0].w.symbolic) return nullptr;
  const std::string b = base_name(cmd[0].w.text);
  bool program_first = false;
  if (!text_tool(b, program_first)) return nullptr;
  const SourceFile* first = nullptr;
  bool program = !program_first;  // whether the program is already given
  for (std::size_t i = 1; i < cmd.size(); ++i) {
    const EWord& w = cmd[i];
    if (w.w.tainted) return nullptr;
    if (!w.w.symbolic && w.w.text.size() > 1 && w.w.text[0] == '-') {
      if (w.w.text == "-f") return nullptr;  // the program is a file's
      if (w.w.text == "-e") program = true;
      if (takes_value(b, w.w.text)) ++i;
      continue;
    }
    if (!program) {
      program = true;
      continue;
    }
    const SourceFile* f = w.w.symbolic ? nullptr : repository_file(w.w.text);
    if (f == nullptr) return nullptr;
    if (first == nullptr) first = f;
  }
  return first;
}

}  // namespace sbr::bash
