#include "analyzer/frontends/markdown/claims_extract.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>

#include "analyzer/frontends/markdown/prose.h"
#include "analyzer/frontends/markdown/vocabulary.h"
#include "analyzer/support/strings.h"

namespace sbr::md {
namespace {

// A control found in a clause, before the words around it are read. Offsets are in the clause.
struct Candidate {
  Claim claim;
  std::size_t begin = 0, end = 0;
  bool from_span = false;
  bool weakness = false;     // names a weakness: a claim only when negated
  std::size_t value_at = 0;  // where a phrase names its value (PhraseHit::value_at)
  std::string names;         // "`agent` implements layer 4: ...": the invocation or service
};

// The last code span before `at` (clause offsets) that names something other than a control:
// `bin/agentbox`, the `agent` service.
std::string named_before(const Flat& f, const Clause& c, std::size_t at) {
  std::string found;
  for (const CodeSpan& s : f.codes) {
    if (s.begin < c.begin || s.end > c.begin + at) continue;
    if (!classify_span(s.literal)) found = s.literal;
  }
  return found;
}

// The claim's words as the document has them, at most 80 bytes, never half a character.
std::string claim_words(std::string_view s) {
  return std::string(head_chars(trim(s), 80));
}

// An odd number of double quotes (straight or curly) before `at`, outside code spans.
bool inside_quotes(std::string_view before) {
  int quotes = 0;
  bool code = false;
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (before[i] == '`') code = !code;
    if (code) continue;
    if (before[i] == '"') ++quotes;
    // U+201C and U+201D, the curly quotes, are E2 80 9C / E2 80 9D in UTF-8.
    if (before.substr(i, 3) == "\xE2\x80\x9C" || before.substr(i, 3) == "\xE2\x80\x9D") ++quotes;
  }
  return quotes % 2 == 1;
}

// "`overlays/gvisor/`: ...", "`deploy/` - ...": the span is followed by a colon or a dash.
bool sets_apart(std::string_view text, std::size_t after) {
  std::string_view rest = text.substr(after);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return rest.empty() || rest.front() == ':' || rest.front() == '-' ||
         rest.rfind("\xE2\x80\x94", 0) == 0 || rest.rfind("\xE2\x80\x93", 0) == 0;
}

// `~/.agents`, `/var/run`, `$HOME/x`: a path on the host, not one in the repository.
bool is_host_path(std::string_view p) {
  return !p.empty() && (p[0] == '~' || p[0] == '/' || p[0] == '$');
}

// The clause's code spans that name a path, except the block's subject.
std::vector<const CodeSpan*> path_spans(const Flat& f, const Clause& c, const CodeSpan* subject) {
  std::vector<const CodeSpan*> out;
  for (const CodeSpan& s : f.codes) {
    if (s.begin >= c.begin && s.end <= c.end && &s != subject && looks_like_path(s.literal))
      out.push_back(&s);
  }
  return out;
}

void span_candidates(const Flat& f, const Clause& c, ClaimOrigin origin,
                     std::vector<Candidate>& out) {
  for (const CodeSpan& s : f.codes) {
    if (s.begin < c.begin || s.end > c.end) continue;
    std::optional<SpanControl> ctl = classify_span(s.literal);
    if (!ctl) continue;
    // A flag the vocabulary does not know is a claim only in a control column: in prose it is
    // as likely a command's option as a control.
    if (ctl->form == ClaimForm::Unknown && origin != ClaimOrigin::Table) continue;
    Candidate cand;
    cand.begin = s.begin - c.begin;
    cand.end = s.end - c.begin;
    cand.from_span = true;
    cand.weakness = ctl->weakness;
    Claim& cl = cand.claim;
    cl.form = ctl->form;
    cl.family = ctl->family;
    cl.control = s.literal;
    cl.literal = true;
    cl.value = ctl->value;
    cl.tokens = {ctl->token};
    if (!ctl->mount_path.empty()) {
      cl.arguments = {ctl->mount_path};
      cl.tokens = {ctl->mount_path, ":ro"};
    }
    cl.at.line = s.line;
    cl.at.column = s.column;
    out.push_back(std::move(cand));
  }
}

// Whether a path at `at` is what a "not mounted" phrase speaks of: after "cannot access", up to
// the next statement ("because", "but"...); before "is not mounted".
bool names_object(std::string_view clause, const PhraseHit& h, std::size_t at) {
  std::string first = lower(clause.substr(h.begin, 4));
  bool passive = first.starts_with("is ") || first.starts_with("are ");
  if (passive || at < h.begin) return passive && at < h.begin;
  static const auto kStop =
      compile_ci(R"(\b(?:because|but|while|since|so|as|which|where|when|whereas|though)\b)");
  return !RE2::PartialMatch(clause.substr(h.end, at - std::min(at, h.end)), *kStop);
}

void phrase_candidates(const Flat& f, const Clause& c, const CodeSpan* subject,
                       std::vector<Candidate>& out) {
  std::string_view text = std::string_view(f.text).substr(c.begin, c.end - c.begin);
  for (const PhraseHit& h : find_phrases(text)) {
    // A phrase in double quotes is quoted, not claimed.
    if (inside_quotes(text.substr(0, h.begin))) continue;
    // A phrase inside a code span is that span's business (`no-new-privileges`).
    if (const CodeSpan* s = f.code_at(c.begin + h.begin);
        s != nullptr && s->begin != c.begin + h.begin)
      continue;
    Candidate cand;
    cand.begin = h.begin;
    cand.end = h.end;
    cand.value_at = h.value_at;
    // "bind `127.0.0.1` by default": a phrase that ends inside a code span takes all of it.
    if (const CodeSpan* s = f.code_at(c.begin + h.end - 1); s != nullptr)
      cand.end = std::max(cand.end, s->end - c.begin);
    Claim& cl = cand.claim;
    cl.form = h.form;
    cl.control = claim_words(text.substr(cand.begin, cand.end - cand.begin));
    cl.value = h.value;
    cl.writable_only = h.writable_only;
    cl.tokens = form_tokens(h.form);
    if (h.layer) {
      cand.names = named_before(f, c, h.begin);
      if (!cl.value.empty()) cl.tokens.push_back(cl.value);
    }
    if (h.form == ClaimForm::OnlyMounts && !h.workspace_only) {
      for (const CodeSpan* p : path_spans(f, c, subject)) cl.arguments.push_back(p->literal);
    }
    // "cannot access `~/.ssh`": about the host paths the clause names; without one, "cannot"
    // is not about a mount at all.
    if (h.form == ClaimForm::NotMounted) {
      for (const CodeSpan* p : path_spans(f, c, subject)) {
        if (is_host_path(p->literal) && names_object(text, h, p->begin - c.begin))
          cl.arguments.push_back(p->literal);
      }
      if (cl.arguments.empty()) continue;
      cl.control = claim_words(text.substr(cand.begin, cand.end - cand.begin)) + " " +
                   fmt::format("`{}`", fmt::join(cl.arguments, "`, `"));
      cl.tokens = cl.arguments;
    }
    auto [line, column] = f.position(c.begin + h.begin);
    cl.at.line = line;
    cl.at.column = column;
    out.push_back(std::move(cand));
  }
}

// "`~/.agents` is mounted, but read-only": a path whose nearest access word is "read-only". A
// subject that is a host path ("`~/.agents`: read-only") is a mount like any other; one in the
// repository (`overlays/dev/`) names the workloads, not a mount.
void mount_candidates(const Flat& f, const Clause& c, const CodeSpan* subject,
                      const std::vector<Candidate>& found, std::vector<Candidate>& out) {
  if (subject != nullptr && is_host_path(subject->literal)) subject = nullptr;
  for (const Candidate& k : found) {
    // Their paths are their arguments.
    if (k.claim.form == ClaimForm::OnlyMounts || k.claim.form == ClaimForm::NotMounted) return;
  }
  std::string_view text = std::string_view(f.text).substr(c.begin, c.end - c.begin);
  std::vector<AccessWord> words = access_words(text);
  // "read-only root" is the root file system's claim, not a mount's; the `:ro` of a mount spec
  // is that span's own claim.
  std::erase_if(words, [&](const AccessWord& w) {
    return f.code_at(c.begin + w.at) != nullptr ||
           std::any_of(found.begin(), found.end(), [&](const Candidate& k) {
             return !k.from_span && w.at >= k.begin && w.at < k.end;
           });
  });
  if (words.empty()) return;
  for (const CodeSpan* p : path_spans(f, c, subject)) {
    std::size_t at = p->begin - c.begin;
    if (std::any_of(found.begin(), found.end(),
                    [&](const Candidate& k) { return k.from_span && k.begin == at; })) {
      continue;
    }
    const AccessWord* nearest = nullptr;
    std::size_t best = std::string::npos;
    for (const AccessWord& w : words) {
      std::size_t d = w.at > at ? w.at - at : at - w.at;
      if (d < best) best = d, nearest = &w;
    }
    if (nearest == nullptr || !nearest->read_only) continue;
    Candidate cand;
    cand.begin = at;
    cand.end = p->end - c.begin;
    cand.from_span = true;
    Claim& cl = cand.claim;
    cl.form = ClaimForm::MountReadOnly;
    cl.control = p->literal + " read-only";
    cl.arguments = {p->literal};
    cl.tokens = {p->literal, ":ro", "readOnly"};
    cl.at.line = p->line;
    cl.at.column = p->column;
    out.push_back(std::move(cand));
  }
}

// One claim of a form per clause: the literal control wins over the phrase that describes it,
// and the first phrase over a later one that says the same ("Ephemeral containers: destroyed
// after each use").
void drop_duplicates(std::vector<Candidate>& c) {
  std::vector<Candidate> kept;
  for (Candidate& x : c) {
    bool dup = std::any_of(c.begin(), c.end(), [&](const Candidate& y) {
      if (&x == &y || x.from_span || x.claim.form != y.claim.form) return false;
      return y.from_span || (y.begin < x.begin && x.claim.arguments.empty() &&
                             y.claim.arguments.empty() && x.claim.value == y.claim.value);
    });
    if (!dup) kept.push_back(std::move(x));
  }
  c = std::move(kept);
}

// How the words around the control read: negated, advice, hedged, conditional or asserted.
bool read_mood(std::string_view clause, ClaimOrigin origin, Candidate& cand) {
  Claim& cl = cand.claim;
  std::string_view before = clause.substr(0, cand.begin);
  std::string_view after = clause.substr(cand.end);
  // A weakness is claimed absent by a negation that may stand further off ("No container is
  // ever started with `--privileged`") than one that unmakes a claim.
  std::string neg = negation_before(before, cand.weakness ? 8 : 4);
  if (neg.empty() && cand.from_span) neg = negation_after(after);
  if (neg.empty() && cand.value_at > cand.begin)
    neg = negation_before(clause.substr(0, cand.value_at));
  if (cand.weakness) {
    // "never `--privileged`" claims its absence; a plain mention of a weakness claims nothing.
    if (neg.empty()) return false;
    cl.marker = neg;
  } else if (!neg.empty()) {
    cl.mood = ClaimMood::Negated;
    cl.marker = neg;
    return true;
  }
  std::string_view near_before = before.substr(before.size() > 40 ? before.size() - 40 : 0);
  std::string window = std::string(near_before) + " " + std::string(after.substr(0, 30));
  // "outbound traffic must traverse Squid": a modal inside the phrase is the claim's own
  // wording, not advice.
  std::string unphrased(clause);
  if (!cand.from_span)
    unphrased.replace(cand.begin, cand.end - cand.begin, cand.end - cand.begin, ' ');
  if (std::string m = planned_marker(clause); !m.empty()) {
    cl.mood = ClaimMood::Planned;
    cl.marker = m;
  } else if (std::string m = advice_marker(unphrased, origin == ClaimOrigin::Prose); !m.empty()) {
    cl.mood = ClaimMood::Advice;
    cl.marker = m;
  } else if (std::string h = hedge_marker(window); !h.empty()) {
    cl.mood = ClaimMood::Hedged;
    cl.marker = h;
  } else if (std::string k = condition_marker(before);
             !k.empty() && cl.form != ClaimForm::FailClosed) {
    // A fail-closed claim is conditional by nature ("refuses to start if the gate fails").
    cl.mood = ClaimMood::Conditional;
    cl.marker = k;
  } else if (std::string p = platform_marker(clause); !p.empty()) {
    // "on Linux": judged on the launcher's paths that run there (its platform tests).
    cl.platform = marker_platform(p);
    if (cl.platform.empty()) cl.mood = ClaimMood::Conditional;
    cl.marker = p;
  }
  cl.unless = exception_text(clause);
  if (says_every_path(clause)) cl.paths = ClaimPaths::Every;
  return true;
}

// "`KERNEL_MEMORY_LIMIT` - MEMORY Limit", "`AGENT_CPUS`: CPU limit of the session": a block that
// documents an environment variable. Its words say what the variable sets, not what the
// configuration has; a control it writes in a code span is still read.
bool defines_variable(const Flat& f) {
  if (f.codes.empty() || !trim(std::string_view(f.text).substr(0, f.codes.front().begin)).empty())
    return false;
  static const RE2 kVariable("[A-Z][A-Z0-9]*_[A-Z0-9_]+");  // case-sensitive: upper case
  return RE2::FullMatch(f.codes.front().literal, kVariable) &&
         sets_apart(f.text, f.codes.front().end);
}

}  // namespace

void claims_in_block(const Inline& block, ClaimOrigin origin, FileId file,
                     std::vector<Claim>& out) {
  Flat f = flatten(block);
  // "`overlays/gvisor/`: runs under gVisor": the block is about what its first span names.
  // The span must be set apart like a term of a definition list (a colon or a dash after it):
  // "`~/.agents` and `~/.gitconfig` are mounted read-only" starts with a path it is not about.
  const CodeSpan* subject = nullptr;
  if (origin == ClaimOrigin::Prose && !f.codes.empty() &&
      trim(std::string_view(f.text).substr(0, f.codes.front().begin)).empty() &&
      looks_like_path(f.codes.front().literal) && sets_apart(f.text, f.codes.front().end)) {
    subject = &f.codes.front();
  }
  const bool defines = defines_variable(f);
  const std::string inner = inner_sandbox_named(f.text);
  for (const Clause& c : split_clauses(f)) {
    std::vector<Candidate> cands;
    span_candidates(f, c, origin, cands);
    if (!defines) phrase_candidates(f, c, subject, cands);
    std::vector<Candidate> mounts;
    mount_candidates(f, c, subject, cands, mounts);
    std::move(mounts.begin(), mounts.end(), std::back_inserter(cands));
    drop_duplicates(cands);
    std::sort(cands.begin(), cands.end(),
              [](const Candidate& a, const Candidate& b) { return a.begin < b.begin; });
    std::string_view text = std::string_view(f.text).substr(c.begin, c.end - c.begin);
    for (Candidate& cand : cands) {
      if (!read_mood(text, origin, cand)) continue;
      cand.claim.origin = origin;
      cand.claim.at.file = file;
      if (subject != nullptr) cand.claim.subject = subject->literal;
      if (!cand.names.empty()) cand.claim.subject = cand.names;
      if (cand.claim.inner_sandbox.empty()) cand.claim.inner_sandbox = inner;
      out.push_back(std::move(cand.claim));
    }
  }
}

}  // namespace sbr::md
