// Path condition atoms as a reader sees them ("when `iptables` is not installed", "when started
// with `--net`"), and the identity of the value each tests, so that atoms about the same value
// can contradict each other (model/condition.cpp).
#include <fmt/format.h>

#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/platform_tests.h"

namespace sbr::bash {

namespace {

// What a file test says, as a reader says it: (holds, does not hold).
struct FileTestWords {
  const char* op;
  const char* holds;
  const char* fails;
};
constexpr FileTestWords kFileTests[] = {
    {"-e", "exists", "does not exist"},
    {"-a", "exists", "does not exist"},
    {"-f", "is a file", "is not a file"},
    {"-d", "is a directory", "is not a directory"},
    {"-S", "is a socket", "is not a socket"},
    {"-L", "is a symbolic link", "is not a symbolic link"},
    {"-h", "is a symbolic link", "is not a symbolic link"},
    {"-p", "is a named pipe", "is not a named pipe"},
    {"-b", "is a block device", "is not a block device"},
    {"-c", "is a character device", "is not a character device"},
    {"-s", "is not empty", "is empty or missing"},
    {"-r", "is readable", "is not readable"},
    {"-w", "is writable", "is not writable"},
    {"-x", "is executable", "is not executable"},
    {"-O", "is owned by the user running the script", "is not owned by the user running it"},
    {"-G", "belongs to the user's group", "does not belong to the user's group"},
    {"-u", "is set-user-ID", "is not set-user-ID"},
    {"-g", "is set-group-ID", "is not set-group-ID"},
    {"-k", "is sticky", "is not sticky"},
    {"-N", "changed since it was last read", "did not change since it was last read"},
};

}  // namespace

// `[ -S /var/run/docker.sock ]` on a path is a fact about the host the script runs on:
// "when `/var/run/docker.sock` is a socket", never the test's own syntax.
std::pair<std::string, std::string> file_test_words(std::string_view op, const std::string& path) {
  const std::string quoted = "`" + path + "`";
  for (const auto& t : kFileTests) {
    if (op == t.op) return {quoted + " " + t.holds, quoted + " " + t.fails};
  }
  if (op == "-t")
    return {"file descriptor " + path + " is a terminal",
            "file descriptor " + path + " is not a terminal"};
  const std::string test = "`" + std::string(op) + " " + path + "`";
  return {"the test " + test + " holds", "the test " + test + " fails"};
}

CondAtom Evaluator::atom(const Truth& t, bool holds) {
  return holds ? CondAtom{t.text, t.negated_text, t.subject, t.equals, t.platform}
               : CondAtom{t.negated_text, t.text, t.subject, t.negated_equals,
                          negate_platform(t.platform)};
}

// An environment variable the script never assigns has one value for the whole run; an
// assigned one has one value per assignment. Positional and special parameters change with
// `shift` and `set --`: not comparable.
std::string Evaluator::subject_of(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return "";
  const Var* v = lookup(name);
  if (v == nullptr) return "env " + name;
  if (v->serial == 0 || v->array) return "";
  return fmt::format("{}#{}", name, v->serial);
}

CondAtom Evaluator::case_atom(const std::string& label, const std::string& joined,
                              const std::vector<std::string>& patterns,
                              const std::string& subject) const {
  bool literal_one = patterns.size() == 1 && patterns[0].find_first_of("*?[") == std::string::npos;
  std::string equals = literal_one ? patterns[0] : "";
  bool script_argument =
      !label.empty() && std::isdigit(static_cast<unsigned char>(label[0])) && st_.frames.empty();
  if (script_argument) {
    std::string shown =
        joined == "*" ? "started with any other argument" : "started with `" + joined + "`";
    return {shown, "not " + shown, "", "", ""};
  }
  return {label + " matches " + joined, label + " does not match " + joined, subject, equals, ""};
}

// `command -v nft`, `which iptables`, `type -p ipset`, `hash nft`: a check for a tool.
CondAtom Evaluator::outcome_atom(std::string_view command, bool fails) {
  std::string c(command);
  for (const char* probe : {"command -v ", "which ", "type -p ", "type -P ", "hash "}) {
    if (c.rfind(probe, 0) != 0) continue;
    std::string tool = c.substr(std::string_view(probe).size());
    tool = tool.substr(0, tool.find_first_of(" >&|;"));
    if (tool.empty()) break;
    std::string present = "`" + tool + "` is installed";
    std::string missing = "`" + tool + "` is not installed";
    return fails ? CondAtom{missing, present, "", "", ""} : CondAtom{present, missing, "", "", ""};
  }
  std::string shown = "`" + short_text(command) + "` " + (fails ? "fails" : "succeeds");
  std::string other = "`" + short_text(command) + "` " + (fails ? "succeeds" : "fails");
  std::string platform = command_platform(command);  // `uname -r | grep -qi microsoft`: WSL
  return {shown, other, "", "", fails ? negate_platform(platform) : platform};
}

}  // namespace sbr::bash
