// Path condition atoms as a reader sees them ("when `iptables` is not installed", "when started
// with `--net`"), and the identity of the value each tests, so that atoms about the same value
// can contradict each other (model/condition.cpp).
#include <fmt/format.h>

#include <cctype>
#include <optional>

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

// `$1`, `$#`, `$@` are the script's arguments at its top level, and inside a function called
// with them as they are (`fn "$@"`); anywhere else the function's own.
std::optional<std::string> Evaluator::positional_owner(const std::string& label,
                                                       const EWord& value) const {
  const bool positional = !label.empty() && (std::isdigit(static_cast<unsigned char>(label[0])) ||
                                             label == "#" || label == "@" || label == "*");
  if (!positional || label == "0") return std::nullopt;
  if (!value.args_of.empty()) return value.args_of;  // an entry point's unknown arguments
  // The script's own: at the top level, or passed on as they are (`fn "$@"`, `fn "$1"`).
  const bool script_args =
      value.taint_source == ValueSource::Argument &&
      (value.w.origin == "script arguments" || value.w.identity.rfind("$" + label, 0) == 0);
  if (call_path_.empty() || script_args) return std::string();
  return call_path_.back();
}

namespace {

// "started with" / "`fn` is called with", and the positional parameter as a noun.
std::string called_with(const std::string& owner) {
  return owner.empty() ? "started with" : "`" + owner + "` is called with";
}
std::string argument_noun(const std::string& owner, const std::string& label) {
  const std::string n = label == "@" || label == "*" ? "arguments" : "argument " + label;
  return owner.empty() ? "the script's " + n : n + " of `" + owner + "`";
}

}  // namespace

// A test of a positional parameter in a reader's words: "when started with `--host-net`", or
// inside a function called with other arguments "when `fn` is called with `--host-net`",
// never "1=--host-net".
void Evaluator::reword_positional(const std::string& label, const std::string& op,
                                  const EWord& value, const EWord& operand, Truth& t) const {
  const std::optional<std::string> owner = positional_owner(label, value);
  if (!owner) return;
  const std::string with = called_with(*owner);
  const std::string without =
      owner->empty() ? "started without" : "`" + *owner + "` is called without";
  if (label == "#") {
    if (t.text == "started with arguments" || t.text == "started without arguments") {
      const bool some = t.text == "started with arguments";
      t.text = (some ? with : without) + " arguments";
      t.negated_text = (some ? without : with) + " arguments";
      return;
    }
  } else if ((op == "==" || op == "=" || op == "!=") && !operand.w.symbolic &&
             operand.w.text.find_first_of("*?[") == std::string::npos) {
    const std::string holds = with + " `" + operand.w.text + "`";
    const std::string fails = "not " + holds;
    const bool equal = op != "!=";
    t.text = equal ? holds : fails;
    t.negated_text = equal ? fails : holds;
    return;
  } else if (op == "-n" || op == "-z") {
    const bool first = label == "1" || label == "@" || label == "*";
    const std::string set =
        first ? with + " arguments" : with + " at least " + label + " arguments";
    const std::string empty =
        first ? without + " arguments" : with + " fewer than " + label + " arguments";
    t.text = op == "-n" ? set : empty;
    t.negated_text = op == "-n" ? empty : set;
    return;
  }
  // Any other test: the parameter named as a noun in place of its label.
  const std::string noun = argument_noun(*owner, label);
  for (std::string* s : {&t.text, &t.negated_text}) {
    if (s->rfind(label, 0) == 0) s->replace(0, label.size(), noun);
    if (s->rfind("not " + label, 0) == 0) s->replace(4, label.size(), noun);
  }
}

CondAtom Evaluator::case_atom(const std::string& label, const std::string& joined,
                              const std::vector<std::string>& patterns, const std::string& subject,
                              const EWord& value) const {
  bool literal_one = patterns.size() == 1 && patterns[0].find_first_of("*?[") == std::string::npos;
  std::string equals = literal_one ? patterns[0] : "";
  if (const std::optional<std::string> owner = positional_owner(label, value)) {
    const std::string with = called_with(*owner);
    std::string shown = joined == "*" ? with + " any other argument" : with + " `" + joined + "`";
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
  // `(( $# ))`, the arithmetic form of `[ $# -gt 0 ]`.
  std::string compact;
  for (char ch : c)
    if (ch != ' ') compact += ch;
  if (compact == "(($#))" || compact == "(($#>0))") {
    const char* with = "started with arguments";
    const char* without = "started without arguments";
    return fails ? CondAtom{without, with, "", "", ""} : CondAtom{with, without, "", "", ""};
  }
  std::string shown = "`" + short_text(command) + "` " + (fails ? "fails" : "succeeds");
  std::string other = "`" + short_text(command) + "` " + (fails ? "succeeds" : "fails");
  std::string platform = command_platform(command);  // `uname -r | grep -qi microsoft`: WSL
  return {shown, other, "", "", fails ? negate_platform(platform) : platform};
}

}  // namespace sbr::bash
