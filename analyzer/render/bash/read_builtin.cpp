// `read`, `mapfile` and `readarray`: the input (a heredoc, a here-string, `< <(fn)`) given to
// variables as bash does. A known input is split into its values; each element of `mapfile`
// keeps the place of the line it came from (the statement that printed it, the heredoc body).
// An unknown input leaves symbolic values that say where they were read from.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

struct ReadArgs {
  std::string array;               // `read -a NAME`, `mapfile NAME`
  std::vector<std::string> names;  // `read a b rest`
  bool raw = false;                // `read -r`: backslashes are text
  bool whole = false;              // `read -d ''`: the record ends at a NUL, so it is the input
};

ReadArgs read_args(const std::vector<EWord>& cmd, bool is_map) {
  ReadArgs a;
  for (size_t k = 1; k < cmd.size(); ++k) {
    const std::string& o = cmd[k].w.text;
    if (starts(o, "-") && !starts(o, "--") && o.find('r') != std::string::npos) a.raw = true;
    // `-a NAME`, also at the end of a cluster (`read -ra NAME`).
    if (o == "-a" || (!is_map && starts(o, "-") && !starts(o, "--") && o.back() == 'a')) {
      if (k + 1 < cmd.size()) a.array = cmd[++k].w.text;
      continue;
    }
    if (o == "-d" && !is_map && k + 1 < cmd.size())
      a.whole = cmd[k + 1].w.text.empty() && !cmd[k + 1].w.symbolic;
    if (o == "-p" || (o == "-t" && !is_map) || o == "-d" || o == "-n" || o == "-N" || o == "-u" ||
        o == "-i" || o == "-C" || o == "-c" || (o == "-s" && is_map)) {
      ++k;
      continue;
    }
    if (starts(o, "-")) continue;
    a.names.push_back(o);
  }
  if (is_map) {
    a.array = a.names.empty() ? "MAPFILE" : a.names.back();
    a.names.clear();
  }
  return a;
}

bool all_known(const std::vector<EWord>& input) {
  if (input.empty()) return false;
  for (const EWord& w : input)
    if (w.w.symbolic) return false;
  return true;
}

// Lines whose unknown values each fill a line of their own (`printf '%s\n' "$HOME/.x"`,
// capture.cpp): where each line ends is known, what is on it may not be.
bool lines_known(const std::vector<EWord>& input) {
  return !input.empty() && std::all_of(input.begin(), input.end(), shows_its_text);
}

}  // namespace

// The words the command reads on every path: its heredoc or here-string, or the lines a
// `<(...)` printed.
const Value& Evaluator::read_words(const BuiltinCall& c) {
  if (c.stdin_words.empty()) {
    if (auto it = substituted_files_.find(c.stdin_file); it != substituted_files_.end())
      return it->second;
  }
  return c.stdin_value;
}

// One path's input as one word: concrete when every part is, tainted as its parts are; unknown
// (read from the script's stdin or a file) when there is no known input.
EWord Evaluator::read_input(const BuiltinCall& c, const std::vector<EWord>& input) {
  EWord src;
  if (!input.empty()) {
    for (const EWord& w : input) {
      if (!src.w.symbolic && w.w.symbolic) src.w.origin = w.w.origin;
      src.w.text += w.w.text;
      src.w.symbolic = src.w.symbolic || w.w.symbolic;
      if (w.w.tainted && !src.w.tainted) {
        src.w.tainted = true;
        src.taint_var = w.taint_var;
        src.taint_at = w.taint_at;
        src.taint_source = w.taint_source;
      }
      if (src.w.host_network.empty()) src.w.host_network = w.w.host_network;
    }
  } else {
    src.w.symbolic = true;
    src.w.origin = c.stdin_file.empty() ? "read from stdin" : "read from " + c.stdin_file;
    src.w.tainted = true;
    src.taint_var = src.w.origin;
    src.taint_at = loc(c.n, c.ctx.tree);
    src.taint_source = ValueSource::StdinRead;
    src.default_known = false;
  }
  src.w.from = prov(c.n, c.ctx);
  src.keep_from = true;
  return src;
}

// The targets get a value on every path of the input (`read -ra extra <<< "--network $net"`
// with `net` set by an option): the default path's input gives the default words, each other
// input an alternative under its path's condition.
void Evaluator::builtin_read(const BuiltinCall& c) {
  const bool is_map = base_name(c.cmd[0].w.text) != "read";
  const ReadArgs a = read_args(c.cmd, is_map);
  std::vector<std::string> targets = a.names;
  if (!a.array.empty()) targets = {a.array};
  if (targets.empty()) targets.push_back("REPLY");
  const Value input = read_words(c);
  std::vector<const Alt*> read;
  std::vector<std::vector<std::vector<EWord>>> values(targets.size());  // [target][path]
  for (std::size_t i = 0; i < input.size() && read.size() < kMaxValueAlts; ++i) {
    const Alt& in = input.alts[i];
    if (i > 0 && c.ctx.cond.contradicts(in.cond)) continue;
    read_alternative(c, in.elems);
    read.push_back(&in);
    for (std::size_t t = 0; t < targets.size(); ++t)
      values[t].push_back(lookup(targets[t])->elems());
  }
  if (read.size() < 2) return;
  const std::uint64_t serial = ++assignments_;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    Var* v = lookup_mut(targets[t]);
    v->serial = serial;
    v->elems() = std::move(values[t][0]);  // the last path read is not the default one
    for (std::size_t k = 1; k < read.size(); ++k)
      v->value.alts.push_back(
          Alt{std::move(values[t][k]), read[k]->cond, read[k]->picks, read[k]->paths});
  }
}

// `read`/`mapfile` of one path's input, as bash does it.
void Evaluator::read_alternative(const BuiltinCall& c, const std::vector<EWord>& input) {
  const bool is_map = base_name(c.cmd[0].w.text) != "read";
  ReadArgs a = read_args(c.cmd, is_map);
  EWord src = read_input(c, input);
  std::string seps = c.ifs && !c.ifs->empty() ? *c.ifs : " \t\n";
  if (!a.array.empty()) {
    const Split split = is_map                                            ? Split::Lines
                        : a.whole && seps.find('\n') != std::string::npos ? Split::EveryLine
                                                                          : Split::FirstLine;
    // A line not all known is one element only where nothing but a newline splits it.
    const bool whole_lines = split == Split::Lines || (split == Split::EveryLine && seps == "\n");
    const bool usable = all_known(input) || (whole_lines && lines_known(input));
    read_into_array(a.array, src, usable ? split_lines(input) : std::vector<EWord>{}, seps, split);
    return;
  }
  if (a.names.empty()) a.names.push_back("REPLY");
  if (!src.w.symbolic && (a.raw || src.w.text.find('\\') == std::string::npos)) {
    read_known_line(src, a.names, c.ifs, a.whole);
    return;
  }
  for (const auto& nm : a.names) {
    Var& v = assign_slot(nm, false);
    v = Var{};
    EWord e = src;
    if (!e.w.symbolic) {
      e.w.symbolic = true;
      e.w.origin = "read";
    }
    name_value(e, nm, c.n, c.ctx);
    v.elems().push_back(e);
  }
}

// `mapfile ARR`: one element per line; `read -a ARR`: the first line split on IFS, or every
// line when the record is the whole input (`IFS=$'\n' read -d '' -a ARR`, the idiom that
// reads a function's printed list back into an array). Each value keeps the place of its line;
// an unknown input is one symbolic element.
void Evaluator::read_into_array(const std::string& name, const EWord& src,
                                const std::vector<EWord>& lines, const std::string& seps,
                                Split split) {
  Var& v = assign_slot(name, false);
  v = Var{};
  v.array = true;
  if (lines.empty()) {
    EWord e = src;
    if (src.w.symbolic)
      e.w.origin = fmt::format("{} split on '{}'", src.w.origin, seps == " \t\n" ? " " : seps);
    if (src.w.symbolic || !src.w.text.empty()) v.elems().push_back(e);
    return;
  }
  auto element = [&](const EWord& line, std::string text) {
    EWord e = line;
    e.w.text = std::move(text);
    e.w.tainted = src.w.tainted;
    e.taint_var = src.taint_var;
    e.taint_at = src.taint_at;
    e.taint_source = src.taint_source;
    e.keep_from = true;
    if (!e.site_role) mark_site(e, StepRole::Element, name);
    return e;
  };
  if (split == Split::Lines) {
    for (const EWord& line : lines) v.elems().push_back(element(line, line.w.text));
    return;
  }
  for (const EWord& line : lines) {
    const std::string& s = line.w.text;
    size_t p = 0;
    while (p <= s.size()) {
      size_t e = s.find_first_of(seps, p);
      if (e == std::string::npos) e = s.size();
      std::string part = s.substr(p, e - p);
      // IFS whitespace never makes an empty field; a newline ending the record neither.
      const bool blank = part.empty() && (seps == " \t\n" || split == Split::EveryLine);
      if (!blank) v.elems().push_back(element(line, std::move(part)));
      p = e + 1;
    }
    if (split == Split::FirstLine) return;
  }
}

// `read a b rest` of a known line: the first line only (the whole input with `-d ''`), split into
// fields on IFS (leading and trailing IFS whitespace dropped), the last name taking the rest of the
// line, as bash does.
void Evaluator::read_known_line(const EWord& src, const std::vector<std::string>& names,
                                const std::optional<std::string>& ifs_in, bool whole) {
  std::string line = whole ? src.w.text : src.w.text.substr(0, src.w.text.find('\n'));
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
    v.elems().push_back(std::move(e));
  }
}

}  // namespace sbr::bash
