// One simple command's words: the name and arguments expanded, each with the values it has on
// other paths, and the redirects read; then the distinct argument lists those values make
// (INVARIANTS.md: a flag reached only on some path is a conditional finding).
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/unknown_parts.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {

// An assignment's word, one word on every path (`flag="--network=$NET"`): NET's value on
// another path is the variable's value on that path too, not lost at the assignment.
Value Evaluator::joined_value(TSNode n, Ctx& ctx) {
  if (ts_node_is_null(n)) return Value({literal("")});
  const Value v = expand_word(n, ctx, true);
  const bool some_empty =
      std::any_of(v.alts.begin(), v.alts.end(), [](const Alt& a) { return a.elems.empty(); });
  return joined_alternatives(v, some_empty ? prov(n, ctx) : Provenance{});
}

std::optional<Evaluator::CommandWords> Evaluator::command_words(
    TSNode n, Ctx& ctx, const std::vector<TSNode>& outer_redirects) {
  // Words, inline assignments and redirects, in order.
  CommandWords cw;
  std::vector<TSNode> assigns, redirects = outer_redirects;
  std::vector<TSNode>& args = cw.args;
  TSNode name_node = field(n, F::name);
  for (TSNode c : named_children(n)) {
    K k = sym(c);
    if (k == K::variable_assignment)
      assigns.push_back(c);
    else if (k == K::command_name)
      continue;
    else if (k == K::file_redirect || k == K::heredoc_redirect || k == K::herestring_redirect)
      redirects.push_back(c);
    else if (k == K::comment)
      continue;
    else
      args.push_back(c);
  }
  if (ts_node_is_null(name_node)) {
    for (TSNode a : assigns) assign(a, ctx, false, false, false, false, false);
    return std::nullopt;
  }
  for (TSNode c : named_children(name_node)) cw.words.push_back(expand_word(c, ctx));
  for (TSNode a : assigns) prefix_assignment(cw, a, ctx);
  for (std::size_t i = 0; i < args.size(); ++i) cw.words.push_back(expand_adjacent(args, i, ctx));
  redirect_words(cw, redirects, ctx);
  return cw;
}

namespace {

bool parameter_start(std::string_view t) {
  return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) != 0 || t[0] == '_');
}

// The `$` expand_concatenation appended as text, taken back (also from the identity of a word
// that holds an unknown: `$PWD:/home/$`).
void drop_trailing_dollar(Value& v) {
  for (Alt& a : v.alts) {
    if (a.elems.empty()) continue;
    Word& w = a.elems.back().w;
    if (w.text.ends_with('$')) w.text.pop_back();
    std::erase_if(w.unknown_parts, [&](const UnknownPart& p) { return p.at > w.text.size(); });
    if (w.identity.ends_with('$')) w.identity.pop_back();
  }
}

}  // namespace

// tree-sitter-bash ends some words early: `-v "$PWD":/home/$USER/work` comes out as the
// arguments `"$PWD":/home/$` and `USER/work` with no space between them, which bash reads as one
// word `$PWD:/home/` + `$USER/work`. Nodes that touch are joined into one word, a cut-off `$`
// with the word after it; `i` moves to the last of them.
Value Evaluator::expand_adjacent(const std::vector<TSNode>& nodes, std::size_t& i, Ctx& ctx) {
  Value v = expand_word(nodes[i], ctx);
  while (i + 1 < nodes.size() && ts_node_start_byte(nodes[i + 1]) == ts_node_end_byte(nodes[i])) {
    const TSNode dollar = trailing_dollar(nodes[i]);
    ++i;
    std::optional<Value> next;
    if (!ts_node_is_null(dollar) && parameter_start(ctx.tree->slice(nodes[i]))) {
      // The `$` was read as text at the end of the word before: it starts this parameter.
      drop_trailing_dollar(v);
      next = reparsed_text("$" + std::string(ctx.tree->slice(nodes[i])), loc(dollar, ctx.tree), ctx,
                           false);
    }
    bool started = true;
    v = join_values(std::move(v), next ? *next : expand_word(nodes[i], ctx), started, ctx.cond);
  }
  return v;
}

// `NAME=value cmd`: the value on every path, as the command's environment words and as the
// variable a function called here sees.
void Evaluator::prefix_assignment(CommandWords& cw, TSNode a, Ctx& ctx) {
  const std::string name(ctx.tree->slice(field(a, F::name)));
  const TSNode value = field(a, F::value);
  Value v = joined_value(value, ctx);
  if (name == "IFS") cw.ifs = v.words().front().w.text;
  Value env = v;
  const Provenance at = prov(a, ctx);
  for (Alt& alt : env.alts) {
    alt.paths = word_paths(alt);
    EWord& e = alt.elems.front();
    e.w.text = name + "=" + e.w.text;
    for (UnknownPart& p : e.w.unknown_parts) p.at += static_cast<std::uint32_t>(name.size() + 1);
    e.w.from = at;
  }
  cw.env_prefix.push_back(env.words().front());
  cw.env_values.push_back(std::move(env));
  for (Alt& alt : v.alts)
    alt.elems.front() = assigned_word(std::move(alt.elems.front()), a, value, name, ctx);
  cw.env_vars.emplace_back(name, std::move(v));
}

namespace {

// `<<-EOF`: the tabs that begin each line are not part of the body.
void strip_leading_tabs(std::string& t) {
  std::string s;
  bool bol = true;
  for (char ch : t) {
    if (bol && ch == '\t') continue;
    bol = ch == '\n';
    s += ch;
  }
  t = std::move(s);
}

}  // namespace

// Redirects: stdin bodies (heredocs, herestrings, `< file`) and the files stdout writes.
void Evaluator::redirect_words(CommandWords& cw, std::vector<TSNode> redirects, Ctx& ctx) {
  std::vector<EWord>& stdin_words = cw.stdin_words;
  Provenance& stdin_from = cw.stdin_from;
  auto& writes = cw.writes;
  auto& write_vars = cw.write_vars;
  auto& write_temp = cw.write_temp;
  std::string& stdin_file = cw.stdin_file;
  for (TSNode r : redirects) {
    if (is(r, K::heredoc_redirect)) {
      TSNode start{}, body{};
      bool dash = false;
      for (TSNode c : children(r)) {
        if (is(c, K::heredoc_start))
          start = c;
        else if (is(c, K::heredoc_body))
          body = c;
        else if (is(c, K::heredoc_dash))
          dash = true;
        else if (is(c, K::file_redirect))
          redirects.push_back(c);
      }
      std::string_view st = ctx.tree->slice(start);
      bool quoted = st.find_first_of("'\"\\") != std::string_view::npos;
      if (!ts_node_is_null(body)) {
        cw.stdin_value = expand_heredoc(body, ctx, quoted);
        if (dash) {
          for (Alt& a : cw.stdin_value.alts)
            for (EWord& w : a.elems) strip_leading_tabs(w.w.text);
        }
        stdin_words = cw.stdin_value.words();
        stdin_from = prov(body, ctx);
      }
    } else if (is(r, K::herestring_redirect)) {
      for (TSNode c : named_children(r)) {
        cw.stdin_value = joined_value(c, ctx);
        stdin_words = cw.stdin_value.words();
        stdin_from = prov(c, ctx);
        break;
      }
    }
  }
  bool& stdout_redirected = cw.stdout_redirected;
  for (size_t ri = 0; ri < redirects.size(); ++ri) {
    TSNode r = redirects[ri];
    if (!is(r, K::file_redirect)) continue;
    std::string op;
    for (TSNode c : children(r))
      if (!ts_node_is_named(c)) {
        op = std::string(kind(c));
        break;
      }
    TSNode dest = field(r, F::destination);
    if (ts_node_is_null(dest)) continue;
    EWord d = expand_joined(dest, ctx);
    if (op == "<") {
      stdin_file = d.w.text;
      continue;
    }
    if (op == ">" || op == ">>" || op == "&>" || op == "&>>" || op == ">|" || op == ">&") {
      TSNode fd = field(r, F::descriptor);
      stdout_redirected = stdout_redirected || ts_node_is_null(fd) || ctx.tree->slice(fd) == "1";
    }
    if (op == ">" || op == ">>" || op == "&>" || op == "&>>" || op == ">|") {
      TSNode fd = field(r, F::descriptor);
      if (!ts_node_is_null(fd) && ctx.tree->slice(fd) != "1") continue;
      if (d.w.text == "/dev/null" || starts(d.w.text, "/dev/std") || starts(d.w.text, "/dev/fd"))
        continue;
      writes.push_back({d.w.text, loc(dest, ctx.tree)});
      write_vars.push_back(var_in(ctx.tree->slice(dest)));
      write_temp.push_back(d.temp_file);
      cw.write_shown.push_back(show_unknown(d.w.text, unknown_parts_of(d)));
    }
  }
}

namespace {

std::string argv_key(const std::vector<EWord>& argv) {
  std::string k;
  for (const EWord& w : argv) {
    k += w.w.symbolic ? "\x01" : "\x02";
    k += w.w.text;
    k += '\0';
  }
  return k;
}

}  // namespace

namespace {

// One combination of the words' values (`pick[i]` of word i) as an argument list, or nothing
// when no path has it. Its path is the conjunction of its values' paths and of the paths that
// set each other value's words (an alternative's own condition may be the outer one only); a
// value whose words were set on a path that contradicts it is not part of it, and the same
// variable read by two words takes the same value in both.
std::optional<Evaluator::ArgvVariant> combination(const std::vector<const Value*>& words,
                                                  const std::vector<std::size_t>& pick,
                                                  const Condition& path, bool is_default) {
  Evaluator::ArgvVariant v;
  std::vector<Condition> paths;
  std::vector<Pick> picks;
  bool possible = true;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const Alt& a = words[i]->alts[pick[i]];
    paths.push_back(word_paths(a));
    v.cond = join(v.cond, a.cond);
    if (pick[i] != 0) v.cond = join(v.cond, other_value_paths(words[i]->alts.front(), a));
    possible = possible && picks_agree(picks, a.picks);
    add_picks(picks, a.picks);
    v.argv.insert(v.argv.end(), a.elems.begin(), a.elems.end());
  }
  if (is_default) return v;
  possible = possible && !path.contradicts(v.cond);
  for (const Condition& c : paths) possible = possible && !v.cond.contradicts(c);
  if (!possible) return std::nullopt;
  return v;
}

}  // namespace

// The product of the words' values, default values first: each combination whose words'
// paths agree is one argument list, and equal lists are one. A combination of values from
// branches that exclude each other (`NET=host` from the `then`, `--cap-drop=ALL` from the
// `else`) is no path at all and is dropped.
std::vector<Evaluator::ArgvVariant> Evaluator::argv_variants(const CommandWords& cw,
                                                             const Ctx& ctx) const {
  std::vector<ArgvVariant> out;
  std::set<std::string> seen;
  // The environment words (`NET=$net cmd`, one word each) first, then the command's.
  std::vector<const Value*> words;
  for (const Value& v : cw.env_values) words.push_back(&v);
  for (const Value& v : cw.words) words.push_back(&v);
  const auto env_count = static_cast<long>(cw.env_values.size());
  std::vector<std::size_t> pick(words.size(), 0);
  for (std::size_t tried = 0; tried < kMaxCombinations && out.size() < kMaxArgvVariants; ++tried) {
    std::optional<ArgvVariant> v = combination(words, pick, ctx.cond, out.empty());
    if (v && seen.insert(argv_key(v->argv)).second) {
      v->env.assign(v->argv.begin(), v->argv.begin() + env_count);
      v->argv.erase(v->argv.begin(), v->argv.begin() + env_count);
      out.push_back(std::move(*v));
    }
    // The next combination, the last word varying fastest.
    std::size_t i = words.size();
    while (i > 0 && ++pick[i - 1] == words[i - 1]->alts.size()) pick[--i] = 0;
    if (i == 0) break;
  }
  return out;
}

}  // namespace sbr::bash
