// Builtins that change the evaluator's state rather than run anything: set, umask, trap,
// source, read/mapfile, shift, exit, return, break, eval.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

bool pure_builtin(const std::string& n) {
  static const char* names[] = {
      "set",   "shopt",  "trap",  "source",   ".",       "read",   "mapfile", "readarray", "shift",
      "exit",  "return", "break", "continue", "cd",      "pushd",  "popd",    "umask",     "true",
      "false", ":",      "wait",  "unset",    "alias",   "hash",   "type",    "getopts",   "let",
      "test",  "[",      "local", "declare",  "typeset", "export", "readonly"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* x) { return n == x; });
}

}  // namespace

// Returns true when `bname` was a builtin this evaluator handles (nothing is recorded then).
bool Evaluator::builtin(const std::string& bname, const std::vector<EWord>& cmd, TSNode n, Ctx& ctx,
                        const std::vector<EWord>& stdin_words, const std::string& stdin_file,
                        const std::optional<std::string>& ifs) {
  if (bname == "set") {
    bool positional = false;
    std::vector<EWord> pos;
    for (size_t k = 1; k < cmd.size(); ++k) {
      const std::string& o = cmd[k].w.text;
      if (positional) {
        pos.push_back(cmd[k]);
        continue;
      }
      if (o == "--") {
        positional = true;
        continue;
      }
      if (o == "-o" || o == "+o") {
        bool on = o[0] == '-';
        std::string opt = k + 1 < cmd.size() ? cmd[++k].w.text : "";
        if (opt == "errexit") st_.opts.errexit = on;
        if (opt == "nounset") st_.opts.nounset = on;
        if (opt == "pipefail") st_.opts.pipefail = on;
        if (opt == "xtrace") {
          st_.opts.xtrace = on;
          st_.opts.xtrace_at = cmd[k].w.from.at;
        }
        continue;
      }
      if ((o[0] == '-' || o[0] == '+') && o.size() > 1) {
        bool on = o[0] == '-';
        for (char ch : o.substr(1)) {
          if (ch == 'e') st_.opts.errexit = on;
          if (ch == 'u') st_.opts.nounset = on;
          if (ch == 'x') {
            st_.opts.xtrace = on;
            st_.opts.xtrace_at = cmd[k].w.from.at;
          }
          if (ch == 'o' && k + 1 < cmd.size()) {
            std::string opt = cmd[++k].w.text;
            if (opt == "pipefail") st_.opts.pipefail = on;
            if (opt == "errexit") st_.opts.errexit = on;
            if (opt == "nounset") st_.opts.nounset = on;
            if (opt == "xtrace") {
              st_.opts.xtrace = on;
              st_.opts.xtrace_at = cmd[k].w.from.at;
            }
          }
        }
      }
    }
    if (positional) {
      st_.positional = pos;
      st_.positional_unknown = false;
    }
    return true;
  }
  if (bname == "umask") {
    if (cmd.size() > 1) {
      const std::string& m = cmd[1].w.text;
      st_.opts.umask_strict = m == "077" || m == "0077" || m == "177" || m == "0177" ||
                              m == "u=rwx,g=,o=" || m == "u=rw,g=,o=";
    }
    return true;
  }
  if (bname == "trap") {
    if (cmd.size() < 2) return true;
    std::string handler = cmd[1].w.text;
    if (handler == "-p" || handler == "-l") return true;
    Trap t;
    t.handler = handler;
    t.at = cmd[0].w.from.at;
    for (size_t k = 2; k < cmd.size(); ++k) {
      std::string s = cmd[k].w.text;
      if (starts(s, "SIG")) s = s.substr(3);
      if (s == "0") s = "EXIT";
      t.signals.push_back(s);
    }
    if (cmd.size() == 2) {  // `trap - ` alone is rare; `trap cmd` with no signal does nothing
      return true;
    }
    // Remove these signals from earlier traps.
    for (Trap& old : st_.traps) {
      old.signals.erase(std::remove_if(old.signals.begin(), old.signals.end(),
                                       [&](const std::string& s) {
                                         return std::find(t.signals.begin(), t.signals.end(), s) !=
                                                t.signals.end();
                                       }),
                        old.signals.end());
    }
    st_.traps.erase(std::remove_if(st_.traps.begin(), st_.traps.end(),
                                   [](const Trap& x) { return x.signals.empty(); }),
                    st_.traps.end());
    if (handler == "-" || handler.empty()) return true;
    // The handler is code: parse it again so the functions it calls count as what it does.
    auto ht = parse_bash(handler);
    t.expanded = handler;
    std::function<void(TSNode, int)> walk = [&](TSNode x, int d) {
      if (d > 6) return;
      if (is(x, K::command)) {
        std::string cn(ht->slice(field(x, F::name)));
        auto f = st_.functions.find(cn);
        if (f != st_.functions.end())
          t.expanded += "\n" + std::string(f->second.second->slice(f->second.first));
      }
      for (TSNode c : named_children(x)) walk(c, d + 1);
    };
    walk(ht->root(), 0);
    trees_.push_back(std::move(ht));
    st_.traps.push_back(t);
    all_traps_.push_back(t);
    return true;
  }
  if (bname == "source" || bname == ".") {
    if (cmd.size() < 2) return true;
    if (++depth_ > static_cast<int>(limits_.max_call_depth)) {
      abort_budget("`source` nested too deeply", loc(n, ctx.tree));
    }
    const SyntaxTree* t = tree_for_source(cmd[1].w.text, loc(n, ctx.tree));
    if (t != nullptr) {
      Ctx sc = ctx;
      sc.tree = t;
      call_path_.push_back("source " + base_name(cmd[1].w.text));
      statements(t->root(), sc);
      call_path_.pop_back();
      st_.returning = false;
    } else {
      note_unresolved_source(n, ctx, cmd[1]);
    }
    --depth_;
    return true;
  }
  if (bname == "read" || bname == "mapfile" || bname == "readarray") {
    std::string array_name;
    std::vector<std::string> names;
    bool is_map = bname != "read";
    bool raw = false;  // `read -r`: backslashes are text
    for (size_t k = 1; k < cmd.size(); ++k) {
      const std::string& o = cmd[k].w.text;
      if (starts(o, "-") && !starts(o, "--") && o.find('r') != std::string::npos) raw = true;
      if (o == "-a") {
        if (k + 1 < cmd.size()) array_name = cmd[++k].w.text;
        continue;
      }
      if (o == "-p" || (o == "-t" && !is_map) || o == "-d" || o == "-n" || o == "-N" || o == "-u" ||
          o == "-i" || o == "-C" || o == "-c" || (o == "-s" && is_map)) {
        ++k;
        continue;
      }
      if (starts(o, "-")) continue;
      names.push_back(o);
    }
    if (is_map && !names.empty()) {
      array_name = names.back();
      names.clear();
    }
    EWord src;
    const std::vector<EWord>* input = &stdin_words;
    if (auto it = substituted_files_.find(stdin_file);
        stdin_words.empty() && it != substituted_files_.end())
      input = &it->second;
    if (!input->empty()) {
      src = EWord{};
      for (auto& w : *input) {
        if (!src.w.symbolic && w.w.symbolic) src.w.origin = w.w.origin;
        src.w.text += w.w.text;
        src.w.symbolic = src.w.symbolic || w.w.symbolic;
        if (w.w.tainted && !src.w.tainted) {
          src.w.tainted = true;
          src.taint_var = w.taint_var;
          src.taint_at = w.taint_at;
          src.taint_source = w.taint_source;
        }
      }
      if (!src.w.symbolic) {
        src.w.tainted = src.w.tainted;
      }
    } else {
      src.w.symbolic = true;
      src.w.origin = stdin_file.empty() ? "read from stdin" : "read from " + stdin_file;
      src.w.tainted = true;
      src.taint_var = src.w.origin;
      src.taint_at = loc(n, ctx.tree);
      src.taint_source = ValueSource::StdinRead;
      src.default_known = false;
    }
    src.w.from = prov(n, ctx);
    src.keep_from = true;
    std::string seps = ifs && !ifs->empty() ? *ifs : " \t\n";
    if (!array_name.empty()) {
      Var& v = assign_slot(array_name, false);
      v = Var{};
      v.array = true;
      if (src.w.symbolic) {
        EWord e = src;
        e.w.origin = fmt::format("{} split on '{}'", src.w.origin, seps == " \t\n" ? " " : seps);
        v.elems.push_back(e);
      } else {
        std::string s = src.w.text;
        while (!s.empty() && s.back() == '\n') s.pop_back();
        size_t p = 0;
        while (p <= s.size()) {
          size_t e = s.find_first_of(seps, p);
          if (e == std::string::npos) e = s.size();
          EWord part = src;
          part.w.text = s.substr(p, e - p);
          if (!(seps == " \t\n" && part.w.text.empty())) v.elems.push_back(part);
          p = e + 1;
        }
      }
      return true;
    }
    if (names.empty()) names.push_back("REPLY");
    if (!src.w.symbolic && (raw || src.w.text.find('\\') == std::string::npos)) {
      read_known_line(src, names, ifs);
      return true;
    }
    for (const auto& nm : names) {
      Var& v = assign_slot(nm, false);
      v = Var{};
      EWord e = src;
      if (!e.w.symbolic) {
        e.w.symbolic = true;
        e.w.origin = "read";
      }
      v.elems.push_back(e);
    }
    return true;
  }
  if (bname == "shift") {
    size_t k = 1;
    if (cmd.size() > 1) {
      try {
        k = std::stoul(cmd[1].w.text);
      } catch (...) {
      }
    }
    if (!st_.positional_unknown)
      st_.positional.erase(
          st_.positional.begin(),
          st_.positional.begin() + static_cast<long>(std::min(k, st_.positional.size())));
    return true;
  }
  if (bname == "exit") {
    if (!ctx.background && !ctx.in_pipeline_not_last) st_.dead = true;
    return true;
  }
  if (bname == "return") {
    st_.returning = true;
    return true;
  }
  if (bname == "break") {
    int k = 1;
    if (cmd.size() > 1) {
      try {
        k = std::stoi(cmd[1].w.text);
      } catch (...) {
      }
    }
    st_.breaking = std::max(1, k);
    return true;
  }
  if (bname == "eval") {
    EWord code;
    for (size_t k = 1; k < cmd.size(); ++k) {
      if (k > 1) code.w.text += ' ';
      code.w.text += cmd[k].w.text;
    }
    Invocation e;
    for (auto& w : cmd) e.argv.push_back(w.w);
    e.from = prov(n, ctx);
    note_splices(e, cmd, stdin_words, "", ctx);
    auto t = parse_bash(code.w.text);
    Location at = cmd.size() > 1 ? cmd[1].w.from.at : loc(n, ctx.tree);
    t->file_id = at.file;
    t->line0 = at.line - 1;
    t->column0 = at.column - 1;
    const SyntaxTree* tp = t.get();
    trees_.push_back(std::move(t));
    Ctx ec = ctx;
    ec.tree = tp;
    statements(tp->root(), ec);
    return true;
  }
  return pure_builtin(bname);
}

// `read a b rest` of a known line: the first line only, split into fields on IFS (leading and
// trailing IFS whitespace dropped), the last name taking the rest of the line, as bash does.
void Evaluator::read_known_line(const EWord& src, const std::vector<std::string>& names,
                                const std::optional<std::string>& ifs_in) {
  std::string line = src.w.text.substr(0, src.w.text.find('\n'));
  const std::string ifs = ifs_in ? *ifs_in : " \t\n";
  auto is_sep = [&](char c) { return ifs.find(c) != std::string::npos; };
  auto trim = [&](std::string s) {
    std::size_t b = 0, e = s.size();
    while (b < e && is_sep(s[b]) && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && is_sep(s[e - 1]) && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
  };
  if (!ifs.empty()) line = trim(line);
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string value;
    if (i + 1 == names.size() || ifs.empty()) {
      value = line;
      line.clear();
    } else {
      std::size_t e = 0;
      while (e < line.size() && !is_sep(line[e])) ++e;
      value = line.substr(0, e);
      line = e < line.size() ? trim(line.substr(e + 1)) : std::string();
    }
    Var& v = assign_slot(names[i], false);
    v = Var{};
    EWord e = src;
    e.w.text = std::move(value);
    v.elems.push_back(std::move(e));
  }
}

}  // namespace sbr::bash
