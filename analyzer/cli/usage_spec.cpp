#include "analyzer/cli/usage_spec.h"

#include <algorithm>
#include <sstream>

#include "analyzer/support/strings.h"

namespace sbr {

namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// Paragraphs of consecutive non-blank lines, each joined with single spaces.
void add_paragraphs(const std::vector<std::string>& lines, std::vector<std::string>& out) {
  std::string para;
  for (const std::string& l : lines) {
    std::string t(trim(l));
    if (t.empty()) {
      if (!para.empty()) out.push_back(para);
      para.clear();
      continue;
    }
    para += para.empty() ? t : " " + t;
  }
  if (!para.empty()) out.push_back(para);
}

// "a|b|c" as a list, when every part is a plain word.
std::vector<std::string> choices_of(std::string_view word) {
  if (word.find('|') == std::string_view::npos) return {};
  std::vector<std::string> parts = split(word, '|');
  for (const std::string& p : parts) {
    if (p.empty() || p.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != p.npos) {
      return {};
    }
  }
  return parts;
}

// "  -o, --output FILE   text" or "  --render=on|off   text".
UsageOption option_of(const std::string& line) {
  UsageOption o;
  size_t gap = line.find("  ", 2);
  std::string head(trim(line.substr(0, gap)));
  if (gap != std::string::npos) o.help = trim(line.substr(gap));
  for (std::string word : split(head, ' ')) {
    if (!word.empty() && word.back() == ',') word.pop_back();
    if (word.empty()) continue;
    if (word[0] != '-') {
      o.metavar = word;
      continue;
    }
    if (size_t eq = word.find('='); eq != std::string::npos) {
      o.metavar = word.substr(eq + 1);
      o.choices = choices_of(o.metavar);
      o.written_inline = true;
      word.resize(eq);
    }
    o.names.push_back(word);
  }
  if (o.choices.empty() && !o.metavar.empty()) {
    o.choices = choices_of(o.help.substr(0, o.help.find(' ')));
  }
  return o;
}

}  // namespace

UsageSpec parse_usage(std::string_view text) {
  UsageSpec spec;
  std::vector<std::string> lines = lines_of(text);
  size_t i = 0;
  for (; i < lines.size(); ++i) {
    std::string t(trim(lines[i]));
    if (t.rfind("usage:", 0) == 0) t = std::string(trim(t.substr(6)));
    if (t.rfind("sbreview ", 0) != 0) break;
    spec.synopsis.push_back(t);
    std::string command = split(t, ' ')[1];
    // A command may have several synopsis lines (`render` and `render helm`, `prove` and
    // `prove --self-test`): it is listed once.
    bool listed =
        std::find(spec.commands.begin(), spec.commands.end(), command) != spec.commands.end();
    if (command[0] != '-' && command[0] != '[' && !listed) spec.commands.push_back(command);
  }
  std::vector<std::string> before, after;
  for (; i < lines.size() && trim(lines[i]) != "options:"; ++i) before.push_back(lines[i]);
  add_paragraphs(before, spec.description);
  for (++i; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.rfind("  -", 0) == 0) {
      spec.options.push_back(option_of(l));
    } else if (l.rfind("   ", 0) == 0 && !spec.options.empty()) {
      spec.options.back().help += " " + std::string(trim(l));
    } else if (!trim(l).empty()) {
      break;
    }
  }
  for (; i < lines.size(); ++i) after.push_back(lines[i]);
  add_paragraphs(after, spec.epilogue);
  return spec;
}

}  // namespace sbr
