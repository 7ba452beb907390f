// Switches: a boolean value that guards template content (`{{- if .Values.debug.enabled }}`,
// `{{- with .Values.hostNetwork }}`) is rendered once more flipped, one switch at a time, so
// that a chart's consumer learns which values turn a control off. The flipped render's
// streams carry the condition "when `debug.enabled=true`" (a non-default switch); the check
// runner keeps only the findings the default render does not have. Only the templates whose
// output changed are read again, unless one of them holds an object that shapes others (a
// NetworkPolicy, a ServiceAccount...): then the whole chart is. Only the templates that used
// the switch's value (or a map holding it) run again; the others' output is the default's.
#include "analyzer/render/helm/switches.h"

#include "analyzer/render/helm/manifests.h"
#include "analyzer/render/helm/placeholders.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace sbr::render::helm {

namespace {

struct Switch {
  std::string path;  // key path in the chart's top-level values
  bool value = false;
  GuardSeen guard;  // the first guard it decided
  // A string value's case a guard compared it with (`eq .Values.builder "pink"`), and the
  // string it has: rendered as that case instead of flipped.
  std::string alternative, current;
  bool upgrade = false;  // not a value: the release rendered as an upgrade (placeholders.h)

  std::string rendered() const {
    return alternative.empty() ? (value ? "false" : "true") : alternative;
  }
  std::string by_default() const {
    return alternative.empty() ? (value ? "true" : "false") : current;
  }
  std::string described(const std::string& chart) const {
    if (upgrade)
      return fmt::format(
          "on an upgrade of chart {} (`.Release.IsUpgrade=true`, `IsInstall` "
          "false, revision 2)",
          chart);
    return fmt::format("with `{}={}` (a non-default value of chart {})", path, rendered(), chart);
  }
};

// The release rendered as an upgrade, when IsUpgrade, IsInstall or Revision decided a guard.
// It comes first, so that the bound on switches never leaves it out.
const char* const kUpgradePath = ".Release.IsUpgrade";

// The key path under which each chart's own values.yaml is seen from the top: a subchart's
// defaults are its parent's `values.<alias or name>`.
void values_prefixes(const Chart& c, const std::string& prefix, std::map<FileId, std::string>& out,
                     int depth) {
  if (depth > 10) return;
  if (c.values_file != kNoFile) out.emplace(c.values_file, prefix);
  for (const Chart& sub : c.subcharts) {
    std::string key = sub.name;
    for (const Dependency& d : c.dependencies) {
      if (d.name == sub.name && !d.alias.empty()) key = d.alias;
    }
    values_prefixes(sub, prefix.empty() ? key : prefix + "." + key, out, depth + 1);
  }
}

// The top-level path of the value a guard read: values files of the user and --set keys
// are written from the top; a subchart's values.yaml from its place below the parent
// (`global` is shared by every chart).
std::string top_path(const Location& values, const std::string& path,
                     const std::map<FileId, std::string>& prefixes) {
  if (!values.valid()) return path;
  auto p = prefixes.find(values.file);
  if (p == prefixes.end() || p->second.empty()) return path;
  if (path == "global" || path.rfind("global.", 0) == 0) return path;
  return p->second + "." + path;
}

std::vector<Switch> find_switches(const Chart& pristine, const Value& values,
                                  const std::vector<GuardSeen>& guards) {
  std::map<FileId, std::string> prefixes;
  values_prefixes(pristine, "", prefixes, 0);
  std::vector<Switch> found;
  if (upgrade_decides(guards)) found.push_back({kUpgradePath, false, {}, {}, {}, true});
  for (const GuardSeen& g : guards) {
    if (!g.placeholder.empty()) continue;
    std::string path = top_path(g.values, g.path, prefixes);
    if (std::any_of(found.begin(), found.end(), [&](const Switch& s) {
          return s.path == path && s.alternative == g.alternative;
        }))
      continue;
    // `not .Values.x` decides with a boolean whatever x is: only a boolean value flips, and a
    // string only to the cases the chart compares it with.
    const Value* v = find_path(values, path);
    if (!v) continue;
    if (g.alternative.empty() && v->kind == Kind::Bool) found.push_back({path, v->b, g, {}, {}});
    if (!g.alternative.empty() && v->is_string() && v->s != g.alternative)
      found.push_back({path, false, g, g.alternative, v->s});
  }
  return found;
}

Condition switch_condition(const std::string& root, const Switch& s) {
  std::string on = s.rendered();
  CondAtom atom{fmt::format("`{}={}`", s.path, on), fmt::format("`{}={}`", s.path, s.by_default()),
                std::string(kRenderSwitchSubject) + root + " " + s.path, on, ""};
  return Condition::when(std::move(atom), true);
}

// Kinds whose objects shape other objects' workloads (by selector, name or namespace), or
// that hold other objects: a flipped template with one of them re-renders the whole chart.
const char* const kLinking[] = {"NetworkPolicy",
                                "CiliumNetworkPolicy",
                                "CiliumClusterwideNetworkPolicy",
                                "Service",
                                "Ingress",
                                "ServiceAccount",
                                "Role",
                                "ClusterRole",
                                "RoleBinding",
                                "ClusterRoleBinding",
                                "LimitRange",
                                "Namespace",
                                "RuntimeClass",
                                "ValidatingWebhookConfiguration",
                                "MutatingWebhookConfiguration",
                                "CustomResourceDefinition",
                                "List",
                                "Template"};

// Whether a template's text declares only kinds that shape nothing but themselves (workloads,
// ConfigMaps...). A document whose kind cannot be told counts as linking.
bool self_contained(const std::string& text) {
  for (const std::string& doc : split_manifests(text)) {
    std::string kind;
    bool content = false;
    std::size_t k = 0;
    while (k < doc.size()) {
      std::size_t nl = doc.find('\n', k);
      std::string line = doc.substr(k, nl == std::string::npos ? nl : nl - k);
      if (!line.empty() && line[0] != '#') content = true;
      if (line.rfind("kind:", 0) == 0) {
        kind = line.substr(5);
        kind.erase(0, kind.find_first_not_of(" \t\"'"));
        kind.erase(kind.find_last_not_of(" \t\r\"'") + 1);
      }
      if (nl == std::string::npos) break;
      k = nl + 1;
    }
    if (!content) continue;
    if (kind.empty()) return false;
    if (std::find(std::begin(kLinking), std::end(kLinking), kind) != std::end(kLinking))
      return false;
  }
  return true;
}

const std::string* text_of(const ChartRender& r, const std::string& name) {
  for (const RenderedTemplate& t : r.templates) {
    if (t.name == name) return &t.out.text;
  }
  return nullptr;
}

// The templates a flipped render replaces: those whose output changed, or the whole chart
// when a changed one holds an object that shapes other objects. Empty: nothing changed.
std::vector<std::string> replaced_templates(const ChartRender& base, const ChartRender& flipped) {
  std::vector<std::string> all, changed;
  for (const auto* r : {&base, &flipped}) {
    for (const RenderedTemplate& t : r->templates) {
      if (std::find(all.begin(), all.end(), t.name) == all.end()) all.push_back(t.name);
    }
  }
  std::sort(all.begin(), all.end());
  bool whole = false;
  for (const std::string& name : all) {
    const std::string* a = text_of(base, name);
    const std::string* b = text_of(flipped, name);
    if (a && b && *a == *b) continue;
    changed.push_back(name);
    whole = whole || (a && !self_contained(*a)) || (b && !self_contained(*b));
  }
  return whole ? all : changed;
}

// A template that fails only with the switch flipped: what it would produce is not analysed.
void report_new_failures(const ChartRender& base, const ChartRender& flipped, const Switch& s,
                         const Chart& chart, RenderOutput& out) {
  for (const Problem& p : flipped.problems) {
    bool known = std::any_of(base.problems.begin(), base.problems.end(), [&](const Problem& q) {
      return q.at == p.at && q.message == p.message;
    });
    // A dependency that is not vendored fails the default render's templates too, each with its
    // finding; that a guarded one fails the same way adds nothing a reviewer can act on.
    if (known || p.cause == Cause::Environment) continue;
    out.problems.push_back({ProblemKind::SwitchNotRendered,
                            fmt::format("{}, {}; what that render would produce is not analysed",
                                        s.described(chart.name), p.message),
                            p.at});
  }
}

void report_bound(const std::vector<Switch>& switches, unsigned max, const Chart& chart,
                  RenderOutput& out) {
  const Switch& first = switches[max];
  out.problems.push_back(
      {ProblemKind::SwitchNotRendered,
       fmt::format(
           "chart {} has {} switches (boolean values, cases of string values) that guard its "
           "templates; only the first "
           "{} were rendered flipped: `{}` and {} more were not, so findings that need "
           "them are not reported; check with --helm-set {}={} to review that case",
           chart.name, switches.size(), max, first.path, switches.size() - max - 1, first.path,
           first.rendered()),
       first.guard.at.valid() ? first.guard.at : Location{chart.chart_file->id, 1, 1}});
}

// The templates whose output may change with `path` flipped: those that used it, or a map
// or list that holds it (`toYaml .Values.debug`), or a whole .Values.
std::vector<std::string> readers_of(const std::string& path, const ChartRender& base,
                                    const std::map<FileId, std::string>& prefixes) {
  std::vector<std::string> names;
  for (const auto& [name, reads] : base.reads) {
    bool uses = std::any_of(reads.begin(), reads.end(), [&](const ValueRead& r) {
      if (r.whole) return true;
      std::string top = top_path(r.values, r.path, prefixes);
      return top == path || path.rfind(top + ".", 0) == 0;
    });
    if (uses) names.push_back(name);
  }
  return names;
}

Value switched_values(const Value& values, const Switch& s) {
  Value flipped = deep_copy(values);
  Value v = *find_path(values, s.path);
  v.b = !v.b;
  if (!s.alternative.empty()) v.s = s.alternative;
  set_path(flipped, s.path, v);
  return flipped;
}

}  // namespace

std::vector<std::string> switch_readers(const Chart& pristine, const ChartRender& base,
                                        const std::string& path) {
  std::map<FileId, std::string> prefixes;
  values_prefixes(pristine, "", prefixes, 0);
  return readers_of(path, base, prefixes);
}

void flip_switches(const Chart& pristine, const Value& values, const Rendering& base,
                   const ChartSettings& settings, unsigned max_switches, RenderOutput& out) {
  std::vector<Switch> switches = find_switches(pristine, values, base.render.guards);
  report_placeholder_guards(pristine.name, base.render.guards, out);
  if (switches.size() > max_switches) report_bound(switches, max_switches, pristine, out);
  std::map<FileId, std::string> prefixes;
  values_prefixes(pristine, "", prefixes, 0);
  ChartSettings quiet = settings;
  quiet.record_guards = false;
  quiet.reuse = &base.render;
  for (std::size_t k = 0; k < switches.size() && k < max_switches; ++k) {
    const Switch& s = switches[k];
    Value flipped = s.upgrade ? values : switched_values(values, s);
    std::vector<std::string> rerun = readers_of(s.path, base.render, prefixes);
    // Which templates read .Release is not recorded: an upgrade runs them all again.
    quiet.rerun = s.upgrade ? nullptr : &rerun;
    quiet.release.upgrade = s.upgrade;
    if (s.upgrade) quiet.release.revision = 2;
    Rendering r = render_values(pristine, flipped, quiet);
    report_new_failures(base.render, r.render, s, pristine, out);
    std::vector<std::string> replaced = replaced_templates(base.render, r.render);
    if (replaced.empty()) continue;
    push_streams(r, switch_condition(pristine.dir, s), out, &replaced);
  }
}

}  // namespace sbr::render::helm
