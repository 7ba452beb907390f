// `sbreview diff BASE..HEAD`: both revisions are read through libgit2 (no checkout) and fully
// analysed with BASE's configuration; a HEAD finding is new when one of its fingerprints (its
// own, its shared workloads', its folded reasons') is not among BASE's. What the change does to
// the gate itself is judged too: HEAD is analysed again with HEAD's configuration when it
// differs, and every finding that configuration hides, and every finding whose severity the
// change lowers, is an SB0014 finding at the severity it had (INVARIANTS.md, gate integrity).
#include "analyzer/cli/diff.h"

#include <fmt/format.h>

#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "analyzer/check/catalog.h"
#include "analyzer/check/fingerprint.h"
#include "analyzer/check/runner.h"
#include "analyzer/cli/command.h"
#include "analyzer/cli/diff_renames.h"
#include "analyzer/cli/render_command.h"
#include "analyzer/cli/repository.h"
#include "analyzer/cli/user_rules.h"
#include "analyzer/report/report_util.h"
#include "generated/rule_ids.h"

namespace sbr {
namespace {

// One side of the comparison: a revision, or the working tree (`rev` empty).
struct Side {
  std::optional<RevisionInput> rev;
  Analysis analysis;
  Config config;
  std::vector<Finding> findings;
};

// Working-tree PATHs of `o`, relative to -C DIR when given.
std::vector<std::string> working_paths(const Options& o) {
  if (!o.repo_dir) return o.paths;
  std::vector<std::string> out;
  for (const auto& p : o.paths) out.push_back(p.front() == '/' ? p : *o.repo_dir + "/" + p);
  return out;
}

Result<std::optional<RevisionInput>> open_side(const Options& o, const std::string& rev) {
  if (rev.empty()) return std::optional<RevisionInput>();
  auto r = open_revision(o.repo_dir.value_or("."), rev, o.paths);
  if (!r) {
    return Error{r.error().message +
                 " (a shallow clone lacks the base: fetch it, e.g. actions/checkout with "
                 "fetch-depth: 0, or git fetch --deepen)"};
  }
  return std::optional<RevisionInput>(std::move(*r));
}

// Analyses `side` with the configuration `text` (or `config`, read from it, when given).
void analyse(const Options& o, const std::optional<ConfigText>& text, const Catalog& catalog,
             Side& side, const Config* config = nullptr) {
  AnalyzeOptions ao;
  ao.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  ao.render = render_options(o);
  RunRepository repository =
      side.rev ? revision_repository(*side.rev) : working_repository(working_paths(o));
  ao.repository = repository.get();
  side.config = config ? *config : *read_config(text);
  side.analysis = side.rev ? analyze(side.rev->roots, side.config, ao)
                           : analyze(working_paths(o), side.config, ao);
  give_config_a_file(text, side.analysis, side.config);
  RunOptions ro;
  ro.today = o.today.empty() ? today_utc() : o.today;
  side.findings = run_checks(side.analysis.model, catalog, side.config, ro);
}

Result<std::optional<ConfigText>> side_config(const Options& o, const Side& side) {
  if (o.config || !side.rev) {
    Options disk = o;
    if (!o.config && o.repo_dir) disk.paths = working_paths(o);
    return config_text(disk, nullptr);
  }
  return revision_config(*side.rev->tree);
}

// Where a hidden finding is reported: the entry of HEAD's configuration that hides it when
// there is one for its rule, else the configuration file.
Location hiding_entry(const Finding& hidden, const Config& head_config, FileId config_file) {
  for (const Acceptance& a : head_config.acceptances) {
    // The entry's line in HEAD's configuration, in the file table of the report.
    if (a.rule == hidden.rule_id.str()) return Location{config_file, a.at.line, a.at.column};
  }
  if (auto it = head_config.rules.find(std::string(hidden.rule_id.str()));
      it != head_config.rules.end()) {
    return Location{config_file, it->second.at.line, it->second.at.column};
  }
  return Location{config_file, 1, 1};
}

Finding integrity_finding(const Finding& was, std::string why, Location at) {
  Finding f;
  f.rule_id = rule::gate_weakened_by_change;
  f.message = fmt::format("the change {} {} on {} (it was {}: {})", why, was.rule_id.str(),
                          was.subject, severity_name(was.severity), was.message);
  f.at = at;
  f.subject = was.subject;
  f.identity = was.identity;
  f.fact_path = "hides:" + was.fingerprint;
  f.engine = was.engine;
  f.severity = was.severity;
  f.invariant = 0;
  f.cause = Cause::Repository;  // the change under review weakens its own gate
  f.fingerprint = fingerprint(f);
  return f;
}

// Copies of BASE's findings with their locations in HEAD's file table, for the reports.
std::vector<Finding> relocated(const std::vector<const Finding*>& findings, const Model& from,
                               Model& to) {
  std::map<FileId, FileId> ids;
  auto move = [&](Location& at) {
    if (!at.valid()) return;
    auto [it, fresh] = ids.emplace(at.file, kNoFile);
    if (fresh) it->second = to.files.add(from.files.path(at.file));
    at.file = it->second;
  };
  std::vector<Finding> out;
  for (const Finding* f : findings) {
    Finding c = *f;
    move(c.at);
    for (Related& r : c.related) move(r.at);
    if (!c.via().empty()) {
      for (Step& s : c.edit_via()) move(s.at);
    }
    out.push_back(std::move(c));
  }
  return out;
}

// Each finding by its own fingerprint: the sides are matched by lookup, not by a scan per
// finding (a diff over thousands of manifests compares thousands of findings).
std::map<std::string, const Finding*> by_fingerprint(const std::vector<Finding>& findings) {
  std::map<std::string, const Finding*> out;
  for (const Finding& f : findings) out.emplace(f.fingerprint, &f);
  return out;
}

// Findings of HEAD under BASE's configuration that HEAD's configuration no longer reports, or
// reports accepted or lower.
std::vector<Finding> hidden_by_config(const Side& head, const Side& head_own, FileId config_file) {
  std::vector<Finding> out;
  const auto now_by = by_fingerprint(head_own.findings);
  for (const Finding& f : head.findings) {
    if (f.severity == Severity::Note || !f.accepted_reason.empty()) continue;
    auto it = now_by.find(f.fingerprint);
    const Finding* now = it == now_by.end() ? nullptr : it->second;
    Location at = hiding_entry(f, head_own.config, config_file);
    if (now == nullptr) {
      out.push_back(integrity_finding(f, "configures away", at));
    } else if (!now->accepted_reason.empty() || now->severity < f.severity) {
      out.push_back(integrity_finding(f, "lowers, through its configuration,", at));
    }
  }
  return out;
}

// HEAD's findings that a suppression in HEAD's own files accepts, where BASE reported them
// unsuppressed or not at all: the change asks the gate to stop seeing them.
std::vector<Finding> suppressed_by_change(const Side& base, const Side& head) {
  std::vector<Finding> out;
  const auto base_by = by_fingerprint(base.findings);
  for (const Finding& f : head.findings) {
    if (f.suppression_kind != "inSource") continue;
    auto it = base_by.find(f.fingerprint);
    if (it != base_by.end() && it->second->suppression_kind == "inSource") continue;
    Finding was = f;
    was.severity = f.severity_before;
    out.push_back(
        integrity_finding(was, "suppresses in the source (`" + f.accepted_reason + "`)", f.at));
  }
  return out;
}

// Findings BASE and HEAD share whose severity HEAD lowers (a weaker inferred threat class).
std::vector<Finding> lowered(const Side& base, const Side& head) {
  std::vector<Finding> out;
  const auto base_by = by_fingerprint(base.findings);
  for (const Finding& f : head.findings) {
    auto it = base_by.find(f.fingerprint);
    if (it == base_by.end()) continue;
    const Finding& b = *it->second;
    if (f.suppression_kind == "inSource") continue;  // suppressed_by_change reports it
    if (f.severity < b.severity && b.accepted_reason.empty()) {
      out.push_back(integrity_finding(b,
                                      fmt::format("lowers (threat class now {}: {})",
                                                  threat_class_name(f.threat), f.threat_reason),
                                      f.at));
    }
  }
  return out;
}

// BASE..HEAD or BASE: false (after saying why) for three dots or an empty side.
bool split_range(const std::string& range, std::string& base, std::string& head,
                 std::ostream& err) {
  base = range;
  size_t dots = range.find("..");
  if (dots == std::string::npos) return true;
  if (range.compare(dots, 3, "...") == 0) {
    err << "sbreview: diff takes BASE..HEAD (two dots) or BASE\n";
    return false;
  }
  base = range.substr(0, dots);
  head = range.substr(dots + 2);
  if (base.empty() || head.empty()) {
    err << "sbreview: diff takes BASE..HEAD or BASE\n";
    return false;
  }
  return true;
}

// What the change does to the gate through HEAD's files: renames (BASE's findings follow
// them), renames out of reach, suppressions it adds, threat classes it lowers.
std::vector<Finding> weakened_in_files(Side& base, Side& head) {
  const Renames renames = renames_between(*base.rev, head.rev);
  follow_renames(base.findings, renames);
  std::vector<Finding> out = lowered(base, head);
  for (const MovedOut& m :
       moved_out_of_reach(base.findings, base.analysis, head.analysis, renames)) {
    Location at{head.analysis.model.files.add(m.path), 1, 1};
    out.push_back(integrity_finding(
        *m.was,
        fmt::format("renames {} to {}, which sbreview does not read, and so hides",
                    base.analysis.model.files.path(m.was->at.file), m.path),
        at));
  }
  for (Finding& f : suppressed_by_change(base, head)) out.push_back(std::move(f));
  return out;
}

// What the change adds where BASE's configuration keeps sbreview from reading (`exclude:`): a
// pull request can put a privileged pod there, and `kubectl apply -R` applies it all the same.
// Both sides are analysed again, those paths only; each finding of HEAD there that BASE does not
// have is reported at its own severity, as a change that hides it.
std::vector<Finding> hidden_by_exclusion(const Options& o, const std::optional<ConfigText>& text,
                                         const Catalog& catalog,
                                         const std::pair<std::string, std::string>& revs,
                                         Model& head_model) {
  Config only = *read_config(text);
  if (only.exclude.empty()) return {};
  only.include = only.exclude;
  only.exclude.clear();
  Side base, head;
  for (auto [side, rev] : {std::pair{&base, revs.first}, {&head, revs.second}}) {
    auto r = open_side(o, rev);  // opened once already: a failure is a real error
    if (!r) return {};
    side->rev = std::move(*r);
    analyse(o, text, catalog, *side, &only);
  }
  const std::set<std::string> base_keys = finding_keys(base.findings);
  std::vector<const Finding*> added;
  for (const Finding& f : head.findings) {
    if (!known_by(f, base_keys)) added.push_back(&f);
  }
  std::vector<Finding> out;
  for (const Finding& f : relocated(added, head.analysis.model, head_model)) {
    out.push_back(integrity_finding(
        f, "adds, in a path the configuration excludes from review (`exclude:`),", f.at));
  }
  return out;
}

// HEAD's findings as reported (integrity findings first, all new), their baseline states, and
// BASE's findings that HEAD no longer has.
struct Compared {
  std::vector<Finding> reported;
  std::vector<std::string> states;
  size_t unchanged = 0;
  std::vector<const Finding*> fixed;
};

Compared compare(const Side& base, const Side& head, std::vector<Finding> integrity,
                 bool keep_unchanged) {
  Compared c;
  for (Finding& f : integrity) {
    c.reported.push_back(std::move(f));
    c.states.emplace_back("new");
  }
  const std::set<std::string> base_keys = finding_keys(base.findings);
  for (const Finding& f : head.findings) {
    bool is_new = !known_by(f, base_keys);
    c.unchanged += is_new ? 0 : 1;
    if (is_new || keep_unchanged) {
      c.reported.push_back(f);
      c.states.emplace_back(is_new ? "new" : "unchanged");
    }
  }
  const std::set<std::string> head_keys = finding_keys(head.findings);
  for (const Finding& f : base.findings) {
    bool gone = true;
    for (const auto& k : finding_keys(f)) gone = gone && !head_keys.count(k);
    if (gone) c.fixed.push_back(&f);
  }
  return c;
}

}  // namespace

int run_diff(const Options& o, std::ostream& out, std::ostream& err, const Catalog& builtin) {
  std::string base_rev, head_rev;
  if (!split_range(o.range, base_rev, head_rev, err)) return 2;
  Side base, head, head_own;
  for (auto [side, rev] : {std::pair{&base, base_rev}, {&head, head_rev}}) {
    auto r = open_side(o, rev);
    if (!r) {
      err << "sbreview: " << report::one_line_safe(r.error().message) << "\n";
      return 2;
    }
    side->rev = std::move(*r);
  }
  auto base_text = side_config(o, base);
  auto head_text = side_config(o, head);
  for (const auto* t : {&base_text, &head_text}) {
    if (!*t) {
      err << "sbreview: " << report::one_line_safe(t->error().message) << "\n";
      return 2;
    }
    if (**t) {
      if (auto parsed = read_config(**t); !parsed) {
        err << "sbreview: " << report::one_line_safe(parsed.error().message) << "\n";
        return 2;
      }
    }
  }
  // User rules are the base's, like its configuration: a change cannot rewrite the rules that
  // judge it.
  Config base_config = *read_config(*base_text);
  Options base_paths = o;
  if (o.repo_dir) base_paths.paths = working_paths(o);
  auto with_user = run_catalog(builtin, o, base.rev ? base.rev->tree.get() : nullptr,
                               repository_top(base_paths), base_config);
  if (!with_user) {
    err << "sbreview: " << report::one_line_safe(with_user.error().message) << "\n";
    return 2;
  }
  const Catalog& catalog = *with_user;
  analyse(o, *base_text, catalog, base);
  analyse(o, *base_text, catalog, head);  // the gate is the base's
  std::vector<Finding> integrity = weakened_in_files(base, head);
  for (Finding& f :
       hidden_by_exclusion(o, *base_text, catalog, {base_rev, head_rev}, head.analysis.model)) {
    integrity.push_back(std::move(f));
  }
  const bool config_changed =
      (*base_text ? (*base_text)->text : "") != (*head_text ? (*head_text)->text : "");
  if (config_changed && !o.config) {
    auto again = open_side(o, head_rev);  // opened once already: a failure is a real error
    if (!again) {
      err << "sbreview: " << report::one_line_safe(again.error().message) << "\n";
      return 2;
    }
    head_own.rev = std::move(*again);
    analyse(o, *head_text, catalog, head_own);
    FileId config_file = head.config.file;
    if (config_file == kNoFile && *head_text) {
      config_file = head.analysis.model.files.add((*head_text)->path);
    }
    for (Finding& f : hidden_by_config(head, head_own, config_file)) {
      integrity.push_back(std::move(f));
    }
  }
  // SARIF carries the unchanged findings too (baselineState), so code scanning keeps them
  // open; the summary formats (markdown, github) show the new ones only, so they leave SARIF
  // its unchanged ones as well.
  const bool keeps_unchanged =
      std::all_of(o.outputs.begin(), o.outputs.end(), [](const OutputSpec& s) {
        return s.format == "sarif" || s.format == "markdown" || s.format == "github";
      });
  Compared c = compare(base, head, std::move(integrity), keeps_unchanged);

  ReportContext ctx{head.analysis.model, head.analysis.sources, catalog, c.reported};
  ctx.baseline_states = c.states;
  if (o.show_fixed) ctx.fixed = relocated(c.fixed, base.analysis.model, head.analysis.model);
  ctx.diff_range = base_rev + ".." + (head_rev.empty() ? "working tree" : head_rev);
  if (head.rev) {
    set_revision_report_roots(*head.rev, ctx);
  } else {
    set_report_roots(working_paths(o), ctx);
  }
  if (!write_reports(o, ctx, out, err)) return 2;
  err << fmt::format("diff {}..{}: {} new, {} fixed, {} unchanged\n", base_rev,
                     head_rev.empty() ? "working tree" : head_rev,
                     c.reported.size() - (keeps_unchanged ? c.unchanged : 0), c.fixed.size(),
                     c.unchanged);
  if (o.show_fixed) {
    for (const Finding* f : c.fixed) {
      err << fmt::format("fixed: {}:{}:{} [{}] {}\n",
                         report::one_line_safe(base.analysis.model.files.path(f->at.file)),
                         f->at.line, f->at.column, f->rule_id.str(),
                         report::one_line_safe(f->message.str()));
    }
  }
  std::string level = o.fail_on ? *o.fail_on : base.config.fail_on ? *base.config.fail_on : "high";
  std::vector<Finding> judged;
  for (size_t i = 0; i < c.reported.size(); ++i) {
    if (c.states[i] == "new") judged.push_back(c.reported[i]);
  }
  return should_fail(judged, level) ? 1 : 0;
}

}  // namespace sbr
