// Path condition atoms as a reader sees them ("when `iptables` is not installed", "when started
// with `--net`"), and the identity of the value each tests, so that atoms about the same value
// can contradict each other (model/condition.cpp).
#include <fmt/format.h>

#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/platform_tests.h"

namespace sbr::bash {

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
