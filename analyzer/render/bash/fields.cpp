// Word-level helpers of expansion: building and joining words, field splitting, quote and
// ANSI-C unescaping, glob matching for `case` and `${x#pat}`, and environment parameters.
#include "analyzer/render/bash/fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include "analyzer/render/bash/unknown_parts.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

EWord literal(std::string text) {
  EWord w;
  w.w.text = std::move(text);
  return w;
}

namespace {

void add_steps(std::vector<Step>& into, const std::vector<Step>& more) {
  for (const Step& s : more) {
    if (into.size() >= kMaxSteps) return;
    if (std::find(into.begin(), into.end(), s) == into.end()) into.push_back(s);
  }
}

}  // namespace

void move_to_use(EWord& w, const Provenance& use) {
  std::vector<Step> via;
  if (w.site_role && w.w.from.at.valid() && w.w.from.at != use.at) {
    via.push_back(Step{*w.site_role, w.w.from.at, w.site_note});
  }
  add_steps(via, w.w.from.via());
  w.site_role.reset();
  w.site_note.clear();
  Condition c = w.w.from.condition();
  w.w.from = use;
  w.w.from.set_via(std::move(via));
  if (!c.always()) w.w.from.set_condition(join(use.condition(), c));
}

void note_use(EWord& w, const Provenance& use) {
  if (!use.at.valid() || use.at == w.w.from.at) return;
  std::vector<Step>& via = w.w.from.edit_via();
  if (!via.empty() && via.back().role == StepRole::Used && via.back().at.file == use.at.file &&
      via.back().at.line == use.at.line) {
    via.back().at = use.at;  // the enclosing word of the same use
    return;
  }
  // An element names its array ("used flags"); an argument is used under the parameter's name.
  std::string note = w.site_role == StepRole::Element ? w.site_note : "";
  if (via.size() < kMaxSteps) via.push_back(Step{StepRole::Used, use.at, note});
}

void mark_site(EWord& w, StepRole role, const std::string& note) {
  w.site_role = role;
  w.site_note = note;
}

namespace {

// Whether a piece adds no unknown text bash could split: literal, or expanded in quotes.
bool piece_quoted(const EWord& x) {
  return !x.w.symbolic || x.in_quotes || x.open_quoted;
}

}  // namespace

void concat_into(EWord& a, const EWord& b) {
  a.open_quoted = piece_quoted(a) && piece_quoted(b);
  a.split_open = a.split_open || b.split_open;
  // A word built from pieces came through every piece's chain ("--network=$NET").
  if (b.site_role && b.w.from.at.valid()) {
    add_steps(a.w.from.edit_via(), {Step{*b.site_role, b.w.from.at, b.site_note}});
  }
  if (!b.w.from.via().empty()) add_steps(a.w.from.edit_via(), b.w.from.via());
  // A path that starts with a mktemp result is inside the private temporary file/directory.
  a.temp_file = a.temp_file || (a.w.text.empty() && !a.w.symbolic && b.temp_file);
  if (!a.w.symbolic && b.w.symbolic) a.w.origin = b.w.origin;
  // "agent-$NAME@run.sh:4": a word built from text and unknown values has an identity when
  // every unknown piece has one (a piece with a guess, `${X:-agent}`, has none).
  if (a.w.symbolic || b.w.symbolic) {
    auto part = [](const EWord& x) { return x.w.symbolic ? x.w.identity : x.w.text; };
    bool named =
        (!a.w.symbolic || !a.w.identity.empty()) && (!b.w.symbolic || !b.w.identity.empty());
    a.w.identity = named ? part(a) + part(b) : std::string();
  }
  if (a.w.host_network.empty()) a.w.host_network = b.w.host_network;
  join_unknown_parts(a, b);
  a.w.text += b.w.text;
  a.w.symbolic = a.w.symbolic || b.w.symbolic;
  if (!a.w.tainted && b.w.tainted) {
    a.w.tainted = true;
    a.taint_var = b.taint_var;
    a.taint_at = b.taint_at;
    a.taint_source = b.taint_source;
  } else if (!a.w.tainted && a.taint_var.empty() && !b.taint_var.empty()) {
    // A validated value keeps its identity, so a splice of it is observed as validated.
    a.taint_var = b.taint_var;
    a.taint_at = b.taint_at;
    a.taint_source = b.taint_source;
  }
  if (a.secret_var.empty()) a.secret_var = b.secret_var;
  a.default_known = a.default_known && b.default_known;
  a.keep_from = false;
}

void concat_taint(EWord& a, const EWord& b) {
  if (!a.w.tainted && b.w.tainted) {
    a.w.tainted = true;
    a.taint_var = b.taint_var;
    a.taint_at = b.taint_at;
    a.taint_source = b.taint_source;
  }
  if (a.secret_var.empty()) a.secret_var = b.secret_var;
}

// Joins field lists as adjacent text does: the last field of `acc` meets the first of `next`.
void join_fields(std::vector<EWord>& acc, std::vector<EWord> next, bool& started) {
  if (!started) {
    acc = std::move(next);
    started = true;
    return;
  }
  if (next.empty()) return;
  if (acc.empty()) {
    acc = std::move(next);
    return;
  }
  concat_into(acc.back(), next.front());
  acc.insert(acc.end(), std::make_move_iterator(next.begin() + 1),
             std::make_move_iterator(next.end()));
}

namespace {

// A field of a value that is partly unknown: a flag the script wrote (`-f`, `-v`, `--network`,
// with no unknown part and no `$NAME` in it) is what it says; any other field stays open.
bool written_flag(const EWord& field) {
  const std::string& t = field.w.text;
  return t.size() > 1 && t.front() == '-' && field.w.unknown_parts.empty() &&
         t.find('$') == std::string::npos && t.find('=') == std::string::npos;
}

}  // namespace

// A concrete value splits at every IFS character. A partly unknown one
// (`COMPOSE_FILES="-f ./base.yml -f $CACHE/gen.yml"`, `MOUNTS="-v $HOME/.npm:/home/a/.npm"`)
// splits at the blanks the script wrote whatever its unknown parts hold, and they may add more:
// its fields stay split_open and open, except a flag the script wrote. sdlcforge/ai-sandbox's
// compose file list and nano-step/ai-sandbox-wrapper's mount strings were one open word each.
std::vector<EWord> split_fields(const EWord& w, const std::string& ifs) {
  const std::string& s = w.w.text;
  if (w.w.symbolic && s.find_first_of(ifs) == std::string::npos) return {w};
  std::vector<EWord> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t b = s.find_first_not_of(ifs, i);
    if (b == std::string::npos) break;
    size_t e = s.find_first_of(ifs, b);
    if (e == std::string::npos) e = s.size();
    EWord part = w;
    part.w.text = s.substr(b, e - b);
    if (w.w.symbolic) {
      part.w.unknown_parts = unknown_parts_in(w.w.unknown_parts, b, e);
      part.w.identity.clear();  // the whole value's name, not this field's
      part.split_open = true;
      part.w.symbolic = !written_flag(part);
    }
    out.push_back(std::move(part));
    i = e;
  }
  return out;
}

std::vector<EWord> split_lines(const std::vector<EWord>& input) {
  std::vector<EWord> lines;
  EWord cur;
  bool open = false;
  for (const EWord& w : input) {
    for (char ch : w.w.text) {
      if (!open) {
        cur = w;
        cur.w.text.clear();
        cur.w.unknown_parts.clear();  // placed in the whole text, not in a line of it
        open = true;
      }
      if (ch == '\n') {
        lines.push_back(cur);
        open = false;
        continue;
      }
      cur.w.text += ch;
    }
  }
  if (open && !cur.w.text.empty()) lines.push_back(cur);
  return lines;
}

std::string unescape_word(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      if (s[i + 1] == '\n') {
        ++i;
        continue;
      }
      out += s[++i];
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string ansi_c(std::string_view s) {
  // $'...': the common escapes.
  if (s.size() >= 3) s = s.substr(2, s.size() - 3);
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    switch (c) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      default:
        out += '\\';
        out += c;
    }
  }
  return out;
}

bool well_known_env(const std::string& n) {
  return n == "HOME" || n == "PWD" || n == "USER" || n == "TMPDIR" || n == "XDG_CONFIG_HOME" ||
         n == "XDG_DATA_HOME" || n == "XDG_RUNTIME_DIR" || n == "XDG_CACHE_HOME" ||
         n == "SSH_AUTH_SOCK" || n == "UID" || n == "LOGNAME" || n == "SHELL" || n == "PATH";
}

// The value of a parameter as fields: one for a scalar, one per element for `@`/`*`.
std::vector<EWord> env_word(const std::string& name, Location at) {
  EWord w;
  w.w.symbolic = true;
  w.w.origin = "env " + name;
  if (well_known_env(name)) {
    w.w.text = "$" + name;
  } else {
    // One value for the whole run, unless bash makes a new one at every expansion.
    if (!in(name,
            {"RANDOM", "SRANDOM", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME", "LINENO", "BASHPID"}))
      w.w.identity = "$" + name;
    w.w.tainted = true;
    w.taint_var = name;
    w.taint_at = at;
    w.taint_source = ValueSource::Environment;
  }
  return {w};
}

namespace {

// The first unescaped `{` of `s` whose matching `}` encloses a comma at its own level: the
// group's bounds and its alternatives. False when there is none (`{}`, `{a}`, `${x}` are text).
bool brace_group(std::string_view s, size_t& open, size_t& close, std::vector<std::string>& alts) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
      continue;
    }
    if (s[i] != '{' || (i > 0 && s[i - 1] == '$')) continue;
    int depth = 0;
    alts.assign(1, "");
    for (size_t j = i + 1; j < s.size(); ++j) {
      char c = s[j];
      if (c == '\\' && j + 1 < s.size()) {
        alts.back() += s.substr(j, 2);
        ++j;
        continue;
      }
      if (c == '{') ++depth;
      if (c == '}' && depth-- == 0) {
        if (alts.size() < 2) break;
        open = i;
        close = j;
        return true;
      }
      if (c == ',' && depth == 0) {
        alts.emplace_back();
      } else {
        alts.back() += c;
      }
    }
  }
  return false;
}

}  // namespace

std::vector<std::string> brace_expand(std::string_view word, size_t limit) {
  std::vector<std::string> done, todo{std::string(word)};
  while (!todo.empty()) {
    std::string w = std::move(todo.back());
    todo.pop_back();
    size_t open = 0, close = 0;
    std::vector<std::string> alts;
    if (!brace_group(w, open, close, alts)) {
      done.push_back(std::move(w));
    } else {
      for (auto it = alts.rbegin(); it != alts.rend(); ++it)
        todo.push_back(w.substr(0, open) + *it + w.substr(close + 1));
    }
    if (done.size() + todo.size() > limit) return {};
  }
  return done;
}

}  // namespace sbr::bash
