#include "analyzer/frontends/launch/dockerfile_text.h"

#include <cctype>

#include "analyzer/frontends/launch/specs.h"

namespace sbr::launch::dockerfile {
namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string chomp(std::string l) {
  if (!l.empty() && l.back() == '\r') l.pop_back();
  return l;
}

// The heredoc words an instruction opens, in order: `<<EOF`, `<<-EOF`, `<<"EOF"`, `<<'EOF'`.
// `<<<` is a here-string, not a heredoc.
std::vector<std::pair<std::string, bool>> heredoc_words(const std::string& args) {
  std::vector<std::pair<std::string, bool>> out;
  for (std::size_t i = args.find("<<"); i != std::string::npos; i = args.find("<<", i)) {
    std::size_t j = i + 2;
    if (j < args.size() && args[j] == '<') {
      i = j + 1;
      continue;
    }
    bool strip_tabs = j < args.size() && args[j] == '-';
    if (strip_tabs) ++j;
    bool quoted = j < args.size() && (args[j] == '"' || args[j] == '\'');
    if (quoted) ++j;
    std::size_t k = j;
    while (k < args.size() && name_char(args[k])) ++k;
    if (k > j) out.emplace_back(args.substr(j, k - j), strip_tabs);
    i = k;
  }
  return out;
}

}  // namespace

std::vector<Instruction> instructions(std::string_view text) {
  std::vector<Instruction> out;
  std::vector<std::string> lines = split(text, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string l = chomp(lines[i]);
    std::size_t b = l.find_first_not_of(" \t");
    if (b == std::string::npos || l[b] == '#') continue;
    Instruction ins;
    ins.line = static_cast<std::uint32_t>(i + 1);
    std::size_t e = l.find_first_of(" \t", b);
    ins.keyword = l.substr(b, e == std::string::npos ? std::string::npos : e - b);
    for (auto& c : ins.keyword) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::size_t a = e == std::string::npos ? l.size() : l.find_first_not_of(" \t", e);
    if (a == std::string::npos) a = l.size();
    ins.args_column = static_cast<std::uint32_t>(a + 1);
    std::string args = l.substr(a);
    // Backslash continuations; comment lines inside a continued instruction are skipped.
    while (!args.empty() && args.back() == '\\' && i + 1 < lines.size()) {
      args.pop_back();
      std::string next = chomp(lines[++i]);
      std::size_t nb = next.find_first_not_of(" \t");
      if (nb != std::string::npos && next[nb] == '#') {
        args.push_back('\\');
        continue;
      }
      args += " " + (nb == std::string::npos ? "" : next.substr(nb));
    }
    // Heredoc bodies follow the instruction line, one after the other: they are part of the
    // instruction, never instructions of their own.
    for (const auto& [word, strip_tabs] : heredoc_words(args)) {
      Heredoc h;
      h.word = word;
      h.first_line = static_cast<std::uint32_t>(i + 2);
      while (i + 1 < lines.size()) {
        std::string body = chomp(lines[++i]);
        std::string cmp = body;
        if (strip_tabs) cmp.erase(0, cmp.find_first_not_of('\t'));
        if (cmp == word) break;
        h.body += body + "\n";
      }
      ins.heredocs.push_back(std::move(h));
    }
    ins.args = args;
    out.push_back(std::move(ins));
  }
  return out;
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::vector<std::string> quoted_words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < s.size()) {
        cur.push_back(s[++i]);
      } else {
        cur.push_back(c);
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < s.size()) {
      cur.push_back(s[++i]);
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) out.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur.push_back(c);
      in_word = true;
    }
  }
  if (in_word) out.push_back(cur);
  return out;
}

namespace {

// One `$...` reference at s[i]: its name, the default after `:-`/`-`, and where it ends.
struct Reference {
  std::string name;
  std::optional<std::string> fallback;
  std::size_t end = 0;  // one past the reference
};

std::optional<Reference> reference_at(const std::string& s, std::size_t i) {
  bool brace = i + 1 < s.size() && s[i + 1] == '{';
  std::size_t j = i + (brace ? 2 : 1), k = j;
  while (k < s.size() && name_char(s[k])) ++k;
  if (k == j) return std::nullopt;
  Reference r;
  r.name = s.substr(j, k - j);
  if (!brace) {
    r.end = k;
    return r;
  }
  std::size_t close = s.find('}', k);
  if (close == std::string::npos) return std::nullopt;
  std::string rest = s.substr(k, close - k);
  if (rest.rfind(":-", 0) == 0) {
    r.fallback = rest.substr(2);
  } else if (rest.rfind('-', 0) == 0) {
    r.fallback = rest.substr(1);
  } else if (!rest.empty()) {
    return std::nullopt;  // ${A:+x}, ${A#p}...: not a default, left to the shell
  }
  r.end = close + 1;
  return r;
}

}  // namespace

std::string expand_all(const std::string& s, const std::map<std::string, std::string>& vars) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '$') {
      out.push_back(s[i]);
      continue;
    }
    auto r = reference_at(s, i);
    if (!r) return "";
    auto it = vars.find(r->name);
    if (it != vars.end() && !it->second.empty()) {
      out += it->second;
    } else if (r->fallback) {
      out += *r->fallback;
    } else if (it == vars.end()) {
      return "";  // unresolved: the value cannot be judged
    }
    i = r->end - 1;
  }
  return out;
}

std::string expand_known(const std::string& s, const std::map<std::string, std::string>& vars) {
  std::string out;
  bool single = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\'') single = !single;
    auto r = !single && c == '$' ? reference_at(s, i) : std::nullopt;
    auto it = r ? vars.find(r->name) : vars.end();
    if (it == vars.end()) {
      out.push_back(c);
      continue;
    }
    out += it->second.empty() && r->fallback ? *r->fallback : it->second;
    i = r->end - 1;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> env_pairs(const std::string& args) {
  std::vector<std::pair<std::string, std::string>> out;
  auto ws = words(args);
  if (ws.empty()) return out;
  if (ws[0].find('=') == std::string::npos) {
    std::size_t sp = args.find_first_of(" \t");
    std::string v = sp == std::string::npos ? "" : args.substr(args.find_first_not_of(" \t", sp));
    out.emplace_back(ws[0], v);
    return out;
  }
  for (const auto& w : quoted_words(args)) {
    std::size_t eq = w.find('=');
    if (eq == std::string::npos) continue;
    out.emplace_back(w.substr(0, eq), w.substr(eq + 1));
  }
  return out;
}

}  // namespace sbr::launch::dockerfile
