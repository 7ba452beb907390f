// Function output as words: inside `$(...)` and `<(...)` the evaluator collects what `echo` and
// `printf` print (with each statement's place), so `flags=($(hardening))` or
// `mapfile -t f < <(hardening)` get the words the function prints. Anything else that writes to
// the captured stdout (an external command) makes the output unknown, and the substitution stays
// symbolic as before.
#include <fmt/format.h>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

// echo's output, or nullopt for an option it has that changes it in ways not modelled (-e).
std::optional<std::string> echo_output(const std::vector<EWord>& cmd) {
  std::size_t i = 1;
  bool newline = true;
  for (; i < cmd.size(); ++i) {
    const std::string& o = cmd[i].w.text;
    if (o == "-n") {
      newline = false;
    } else if (o == "-E") {
      continue;
    } else if (o == "-e" || o == "-ne" || o == "-en") {
      return std::nullopt;
    } else {
      break;
    }
  }
  std::string out;
  for (std::size_t j = i; j < cmd.size(); ++j) out += (j > i ? " " : "") + cmd[j].w.text;
  return newline ? out + "\n" : out;
}

}  // namespace

std::optional<std::string> printf_output(const std::vector<EWord>& cmd) {
  std::size_t f = 1;
  if (f < cmd.size() && cmd[f].w.text == "--") ++f;
  if (f >= cmd.size() || cmd[f].w.text == "-v") return std::nullopt;
  const std::string& fmt_text = cmd[f].w.text;
  std::size_t arg = f + 1;
  std::string out;
  do {
    bool used = false;
    for (std::size_t k = 0; k < fmt_text.size(); ++k) {
      char c = fmt_text[k];
      char next = k + 1 < fmt_text.size() ? fmt_text[k + 1] : '\0';
      if (c == '\\') {
        if (next != 'n' && next != 't' && next != '\\') return std::nullopt;
        out += next == 'n' ? '\n' : next == 't' ? '\t' : '\\';
        ++k;
      } else if (c == '%') {
        if (next == '%') {
          out += '%';
        } else if (next == 's' || next == 'd') {
          if (arg < cmd.size()) out += cmd[arg++].w.text;
          used = true;
        } else {
          return std::nullopt;
        }
        ++k;
      } else {
        out += c;
      }
    }
    if (!used) break;
  } while (arg < cmd.size());
  return out;
}

void Evaluator::capture_output(const std::vector<EWord>& cmd, bool stdout_redirected,
                               const Ctx& ctx, const Provenance& at) {
  if (captures_.empty() || stdout_redirected || ctx.in_pipeline_not_last) return;
  Capture& c = captures_.back();
  std::string b = cmd[0].w.symbolic ? "" : base_name(cmd[0].w.text);
  bool concrete = std::none_of(cmd.begin(), cmd.end(),
                               [](const EWord& w) { return w.w.symbolic || w.w.tainted; });
  std::optional<std::string> text;
  if (concrete && b == "echo") text = echo_output(cmd);
  if (concrete && b == "printf") text = printf_output(cmd);
  if (!concrete && b == "printf" && capture_lines(c, cmd, ctx, at)) return;
  if (!text) {
    c.known = false;
    const SourceFile* file = repository_text_file(cmd);
    if (file == nullptr) c.other_output = true;
    if (c.repository_text == nullptr) c.repository_text = file;
    // Unknown, but known to come from the host's network: read by this command, by the
    // pipeline it ends, or printed from a value that was (`echo "${gw%.*}.0/24"`).
    std::vector<std::string> words;
    words.reserve(cmd.size());
    for (const EWord& w : cmd) words.push_back(w.w.text);
    std::string host = host_network_source(words);
    if (host.empty()) host = ctx.pipe_host_network;
    for (std::size_t i = 1; i < cmd.size() && host.empty(); ++i) host = cmd[i].w.host_network;
    if (c.host_network.empty()) c.host_network = host;
    return;
  }
  EWord piece = literal(std::move(*text));
  piece.w.from = at;
  capture_piece(c, std::move(piece), ctx);
}

// `printf '%s\n' "${paths[@]}"` prints each argument on a line of its own, so a value that is
// not known (`$HOME/.gemini`) is still one line: a reader that splits on newlines only
// (`IFS=$'\n' read -d '' -a`, `mapfile`) gets it as one element. An unknown with no text to
// show, or one that may hold a newline, leaves the output unknown.
bool Evaluator::capture_lines(Capture& c, const std::vector<EWord>& cmd, const Ctx& ctx,
                              const Provenance& at) {
  std::size_t f = 1;
  if (f < cmd.size() && cmd[f].w.text == "--" && !cmd[f].w.symbolic) ++f;
  if (f + 1 >= cmd.size() || cmd[f].w.symbolic || cmd[f].w.text != "%s\\n") return false;
  for (std::size_t k = f + 1; k < cmd.size(); ++k) {
    const EWord& w = cmd[k];
    if (!shows_its_text(w) || w.w.text.find('\n') != std::string::npos) return false;
  }
  for (std::size_t k = f + 1; k < cmd.size(); ++k) {
    EWord line = cmd[k];
    line.w.from = at;
    capture_piece(c, std::move(line), ctx);
    EWord end = literal("\n");
    end.w.from = at;
    capture_piece(c, std::move(end), ctx);
  }
  c.lines_only = true;
  return true;
}

// A printed piece joins the output of every path; printed by another argument list of its
// command (`echo "--network $net"` where net is `host` on another path), it is that path's
// instead of the default list's piece: in the outputs of that path, or in a new one.
void Evaluator::capture_piece(Capture& c, EWord piece, const Ctx& ctx) {
  std::vector<Alt>& outs = c.out.alts;
  if (ctx.printed_on == nullptr) {
    for (Alt& a : outs) a.elems.push_back(piece);
    return;
  }
  const Condition& on = *ctx.printed_on;
  auto printed_here = [&](const Alt& a) {
    return !a.elems.empty() && a.elems.back().w.from.at == piece.w.from.at;
  };
  bool placed = false;
  for (std::size_t i = 1; i < outs.size(); ++i) {
    if (!outs[i].cond.implies(on) || !printed_here(outs[i])) continue;
    outs[i].elems.back() = piece;
    placed = true;
  }
  if (placed || outs.size() >= kMaxValueAlts) return;
  Alt other{outs.front().elems, on};
  if (printed_here(other)) other.elems.pop_back();
  other.elems.push_back(std::move(piece));
  outs.push_back(std::move(other));
}

namespace {

// One path's output as words: one word when quoted, else split on blanks. Each field keeps the
// place of the statement that printed its first byte.
std::vector<EWord> output_words(const std::vector<EWord>& pieces, bool quoted) {
  std::string all;
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    all += pieces[i].w.text;
    owner.resize(all.size(), i);
  }
  while (!all.empty() && all.back() == '\n') all.pop_back();
  auto word = [&](std::string text, std::size_t first_byte) {
    EWord w;
    w.w.text = std::move(text);
    if (!pieces.empty()) w.w.from = pieces[owner.empty() ? 0 : owner[first_byte]].w.from;
    mark_site(w, StepRole::Output, "");
    return w;
  };
  std::vector<EWord> out;
  if (quoted) {
    out.push_back(word(all, 0));
    return out;
  }
  std::size_t p = 0;
  while (p < all.size()) {
    std::size_t s = all.find_first_not_of(" \t\n", p);
    if (s == std::string::npos) break;
    std::size_t e = all.find_first_of(" \t\n", s);
    if (e == std::string::npos) e = all.size();
    out.push_back(word(all.substr(s, e - s), s));
    p = e;
  }
  return out;
}

}  // namespace

// The captured output as words, on every path it was printed on.
std::optional<Value> Evaluator::captured_words(const Capture& c, bool quoted) {
  if (!c.known || c.lines_only || c.out.words().empty()) return std::nullopt;
  Value v = c.out;
  for (Alt& a : v.alts) a.elems = output_words(a.elems, quoted);
  return v;
}

// The captured output as read from a file (`mapfile < <(fn)`, `while read ... < <(fn)`): each
// printed piece as it was printed, with its statement's place, so the lines keep theirs.
std::optional<Value> Evaluator::captured_pieces(const Capture& c) {
  if (!c.known || c.out.words().empty()) return std::nullopt;
  Value v = c.out;
  for (Alt& a : v.alts)
    for (EWord& w : a.elems) mark_site(w, StepRole::Output, "");
  return v;
}

}  // namespace sbr::bash
