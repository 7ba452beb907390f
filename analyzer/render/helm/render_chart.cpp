#include "analyzer/render/helm/render_chart.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>

#include "analyzer/render/helm/context.h"
#include "analyzer/render/helm/helm_surface.h"
#include "analyzer/render/helm/unvendored.h"
#include "analyzer/support/strings.h"

namespace sbr::render::helm {

namespace {

struct Unit {
  std::string name;  // template name as helm prints it
  std::string base;  // "<chart path>/templates"
  const SourceFile* file = nullptr;
  const Chart* chart = nullptr;
  std::shared_ptr<ParsedFile> parsed;
  bool render = false;  // false: partials, tests, library charts, disabled subcharts
};

void collect(const Chart& chart, const std::string& prefix, bool enabled, bool tests,
             std::vector<Unit>& out, int depth) {
  if (depth > 10 || !enabled) return;  // a disabled subchart's defines do not exist either
  for (const SourceFile* f : chart.templates) {
    std::string rel = f->path.substr(chart.dir.empty() ? 0 : chart.dir.size() + 1);
    bool partial = base_name(rel)[0] == '_' || (!tests && rel.rfind("templates/tests/", 0) == 0);
    out.push_back({prefix + "/" + rel, prefix + "/templates", f, &chart, nullptr,
                   !partial && chart.type != "library"});
  }
  for (const Chart& sub : chart.subcharts)
    collect(sub, prefix + "/charts/" + sub.name, sub.enabled, tests, out, depth + 1);
}

// Go's parser rejects a call of an unknown function in any template: the whole chart fails.
const Arg* unknown_function(const NodeList& nodes, int depth);

const Arg* unknown_in_pipe(const Pipeline* p, int depth) {
  if (!p || depth > 200) return nullptr;
  for (const Command& c : p->commands) {
    for (const Arg& a : c.args) {
      if (a.type == Arg::Type::Identifier && a.name != "and" && a.name != "or" &&
          !functions().count(a.name))
        return &a;
      if (a.type == Arg::Type::Pipe) {
        if (const Arg* found = unknown_in_pipe(a.pipe.get(), depth + 1)) return found;
      }
    }
  }
  return nullptr;
}

const Arg* unknown_function(const NodeList& nodes, int depth) {
  if (depth > 200) return nullptr;
  for (const Node& n : nodes) {
    if (const Arg* a = unknown_in_pipe(n.pipe.get(), depth + 1)) return a;
    if (n.body) {
      if (const Arg* a = unknown_function(*n.body, depth + 1)) return a;
    }
    if (n.otherwise) {
      if (const Arg* a = unknown_function(*n.otherwise, depth + 1)) return a;
    }
  }
  return nullptr;
}

// The first call of a function sbreview's engine lacks, in the template's body or its defines.
const Arg* first_unknown_function(const ParsedFile& parsed) {
  if (const Arg* a = unknown_function(parsed.body, 0)) return a;
  for (const auto& d : parsed.defines) {
    if (const Arg* a = unknown_function(*d.second, 0)) return a;
  }
  return nullptr;
}

// Why a template set is refused: sbreview's parser stopped, helm lacks the function too (the
// chart's error), or only sbreview lacks it.
struct Refusal {
  std::string why;
  Location at;
  Cause cause = Cause::Analyzer;
};

std::optional<Refusal> refusal(const Unit& u) {
  // A template is a few kilobytes; parsing one of tens of megabytes takes gigabytes.
  if (u.file->bytes.size() > kMaxTemplateFileBytes) {
    return Refusal{
        fmt::format("the template file {} has {} bytes, past sbreview's budget of {} MiB "
                    "for one template",
                    u.name, u.file->bytes.size(), kMaxTemplateFileBytes >> 20),
        Location{u.file->id, 1, 1}};
  }
  ParseError error;
  if (!parse_template(u.file->bytes, u.file->id, *u.parsed, error)) {
    return Refusal{fmt::format("sbreview's template parser stops at {}:{}: {}", u.name,
                               error.at.line, error.message),
                   error.at};
  }
  const Arg* a = first_unknown_function(*u.parsed);
  if (a == nullptr) return std::nullopt;
  if (!helm_defines(a->name)) {
    return Refusal{fmt::format("function \"{}\" is not defined ({}:{}); helm refuses the chart "
                               "too",
                               a->name, u.name, a->at.line),
                   a->at, Cause::Repository};
  }
  return Refusal{fmt::format("sbreview's chart engine does not implement helm's function \"{}\" "
                             "yet ({}:{})",
                             a->name, u.name, a->at.line),
                 a->at};
}

std::string refusal_message(const std::string& chart, const Refusal& r) {
  if (r.cause == Cause::Repository) {
    return fmt::format("chart {} is not rendered: {}; nothing the chart would create is analysed",
                       chart, r.why);
  }
  // Go's parser rejects the whole template set, and sbreview follows it; that the chart does
  // not parse in sbreview is no evidence that it does not in helm.
  return fmt::format(
      "chart {} is not rendered: {}. Nothing the chart would create is known (its "
      "workloads, policies and services are not analysed); a gap of sbreview, "
      "not of the chart",
      chart, r.why);
}

// The dependencies of the template's chart and of the top chart that are not vendored.
std::vector<std::string> missing_near(const Unit& u, const Chart& top) {
  std::vector<std::string> out = top.missing_dependencies;
  if (u.chart != &top) {
    out.insert(out.end(), u.chart->missing_dependencies.begin(),
               u.chart->missing_dependencies.end());
  }
  return out;
}

// Go's words for a field read through a missing value ("nil pointer evaluating interface
// {}.enabled", as helm prints it), followed by what they mean to a chart's reader.
std::string error_in_words(const std::string& what) {
  static constexpr std::string_view kNil = "nil pointer evaluating interface {}.";
  if (!what.starts_with(kNil)) return what;
  return fmt::format("{}: the template reads `.{}` of a value that is not set", what,
                     what.substr(kNil.size()));
}

// A template that stopped while running: the chart's own `fail`/`required` (helm stops there
// too), or a place where sbreview's engine could not follow.
std::string failed_template_message(const std::string& name, const std::string& chart,
                                    const RenderError& e) {
  if (e.cause == Cause::Repository) {
    return fmt::format(
        "template {} of chart {} stops as it would in helm: {} (line {}); its "
        "objects are not analysed, the chart's other templates are",
        name, chart, error_in_words(e.what()), e.at.line);
  }
  return fmt::format(
      "sbreview's chart engine could not render template {} of chart {}: {} "
      "(line {}); what it would create is not known, the chart's other templates "
      "are analysed",
      name, chart, error_in_words(e.what()), e.at.line);
}

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; });
}

// What helm's recAllTpls gives a chart's templates, one object per chart: its metadata with
// IsRoot, its files, its values, and under .Subcharts the same object of each enabled
// subchart (`.Subcharts.db.Values.port`). `objects` receives every chart's.
using ChartObjects = std::map<const Chart*, Value>;
Value chart_object(const Chart& c, bool root, const Value& values, const Value& release,
                   const Value& caps, ChartObjects& objects, int depth) {
  Map meta = c.metadata.is_map() ? *c.metadata.map : Map{};
  meta["IsRoot"] = Value::boolean(root);
  Map subcharts;
  for (const Chart& sub : c.subcharts) {
    if (sub.enabled && depth < 10)
      subcharts[sub.name] = chart_object(sub, false, sub.values, release, caps, objects, depth + 1);
  }
  Value object = Value::new_map({{"Values", values},
                                 {"Release", release},
                                 {"Chart", Value::new_map(std::move(meta))},
                                 {"Capabilities", caps},
                                 {"Files", files_object(c.files)},
                                 {"Subcharts", Value::new_map(std::move(subcharts))}});
  objects[&c] = object;
  return object;
}

// A template's dot: its chart's object and the template's name.
Value dot_for(const Unit& u, const ChartObjects& objects) {
  Map dot = *objects.at(u.chart).map;
  dot["Template"] =
      Value::new_map({{"Name", Value::string(u.name)}, {"BasePath", Value::string(u.base)}});
  return Value::new_map(std::move(dot));
}

// A file's defines, and the file itself under its path (`agent/templates/config.yaml`): helm
// registers every template file by name, so `include (print $.Template.BasePath
// "/config.yaml") . | sha256sum`, the checksum-annotation idiom, renders the file.
void register_named(const Unit& u, TemplateSet& set) {
  for (const auto& d : u.parsed->defines) set.named[d.first] = d.second;
  set.named.emplace(u.name, std::shared_ptr<NodeList>(u.parsed, &u.parsed->body));
}

// Parses every template; Helm parses deeper paths first, so a parent's define wins.
bool parse_all(std::vector<Unit>& units, TemplateSet& set, ChartRender& result, const Chart& chart,
               const ChartRender* reuse) {
  std::vector<Unit*> order;
  order.reserve(units.size());
  for (Unit& u : units) order.push_back(&u);
  std::stable_sort(order.begin(), order.end(), [](const Unit* a, const Unit* b) {
    auto depth = [](const std::string& s) { return std::count(s.begin(), s.end(), '/'); };
    if (depth(a->name) != depth(b->name)) return depth(a->name) > depth(b->name);
    return a->name < b->name;
  });
  for (Unit* u : order) {
    if (reuse) {
      auto done = reuse->parsed.find(u->file);
      if (done != reuse->parsed.end()) {  // parsed and accepted by an earlier render
        u->parsed = done->second;
        result.parsed.emplace(u->file, u->parsed);
        register_named(*u, set);
        continue;
      }
    }
    u->parsed = std::make_shared<ParsedFile>();
    if (auto r = refusal(*u)) {
      result.problems.push_back(
          {ProblemKind::RenderFailed, refusal_message(chart.name, *r), r->at, r->cause});
      return false;
    }
    register_named(*u, set);
    result.parsed.emplace(u->file, u->parsed);
  }
  return true;
}

// Whether a flipped render takes `u`'s output from the earlier render instead of running it.
const RenderedTemplate* reused(const Unit& u, const ChartSettings& settings, bool& skip) {
  skip = false;
  const ChartRender* base = settings.reuse;
  if (!base || !settings.rerun || base->shared_state || !base->reads.count(u.name)) return nullptr;
  if (std::find(settings.rerun->begin(), settings.rerun->end(), u.name) != settings.rerun->end())
    return nullptr;
  skip = true;
  for (const RenderedTemplate& t : base->templates) {
    if (t.name == u.name) return &t;
  }
  return nullptr;  // it failed or printed nothing then, and would again
}

// The maps that are a chart's whole .Values in this render (the top chart's, each subchart's).
std::vector<const Map*> values_roots(const std::vector<Unit>& units, const Chart& chart,
                                     const Value& values) {
  std::vector<const Map*> roots{values.map.get()};
  for (const Unit& u : units) {
    if (u.chart != &chart && u.chart->values.is_map()) roots.push_back(u.chart->values.map.get());
  }
  return roots;
}

}  // namespace

ChartRender render_chart(Chart& chart, const Value& values, const ChartSettings& settings) {
  ChartRender result;
  std::vector<Unit> units;
  collect(chart, chart.name, true, settings.render_tests, units, 0);
  TemplateSet set;
  if (!parse_all(units, set, result, chart, settings.reuse)) return result;
  std::sort(units.begin(), units.end(),
            [](const Unit& a, const Unit& b) { return a.name < b.name; });
  ChartObjects objects;
  chart_object(chart, true, values, release_object(settings.release),
               capabilities_object(settings.release), objects, 0);
  std::vector<const Map*> roots = values_roots(units, chart, values);
  std::vector<const Map*> stand_ins = stand_ins_of(chart, values);
  std::vector<BlockedTemplate> blocked;  // stopped by a define a missing dependency has
  for (const Unit& u : units) {
    if (!u.render) continue;
    bool skip = false;
    if (const RenderedTemplate* same = reused(u, settings, skip)) result.templates.push_back(*same);
    if (skip) continue;
    Exec exec(set, dot_for(u, objects));
    if (settings.record_guards) {
      exec.record_guards(&result.guards);
      exec.record_reads(&result.reads[u.name], &roots);
    }
    struct SharedNote {  // kept when the template fails too
      const Exec& exec;
      bool& into;
      ~SharedNote() { into = into || exec.touched_shared_state(); }
    } note{exec, result.shared_state};
    std::optional<StandInRead> stand_in;
    if (!stand_ins.empty()) exec.stand_ins(&stand_ins, &stand_in);
    RenderedTemplate t{u.name, u.file, {}};
    try {
      exec.run(u.parsed->body, exec.root(), t.out);
    } catch (const RenderError& e) {
      Location at = e.at.valid() ? e.at : Location{u.file->id, 1, 1};
      if (!e.missing_define.empty() && !missing_near(u, chart).empty()) {
        blocked.push_back({u.name, e.missing_define, at});
      } else if (const auto& read = stand_in ? stand_in : exec.missing_stand_in_key();
                 read && e.cause != Cause::Repository) {
        // It read a value the unvendored dependency would provide, then stopped: the gap is
        // the dependency's, not the engine's (bitnami's jupyterhub passes
        // `.Values.postgresql.image` to `common.images.image`, which reads `.registry`).
        result.problems.push_back(
            {ProblemKind::RenderFailed,
             stopped_after_stand_in_message(u.name, chart.name, *read, error_in_words(e.what()),
                                            e.at.line, missing_near(u, chart)),
             at, Cause::Environment});
      } else {
        result.problems.push_back({ProblemKind::RenderFailed,
                                   failed_template_message(u.name, chart.name, e), at, e.cause});
      }
      continue;
    }
    // One finding per place: a partial that several templates include reads it for each.
    bool told = stand_in && std::any_of(result.problems.begin(), result.problems.end(),
                                        [&](const Problem& p) { return p.at == stand_in->at; });
    if (stand_in && !told) {
      result.problems.push_back(
          {ProblemKind::RenderFailed,
           stand_in_message(u.name, chart.name, *stand_in, missing_near(u, chart)), stand_in->at,
           Cause::Environment});
    }
    if (!blank(t.out.text)) result.templates.push_back(std::move(t));
  }
  if (!blocked.empty()) {
    std::vector<std::string> missing = chart.missing_dependencies;
    for (const Unit& u : units) {
      for (const std::string& d : missing_near(u, chart)) {
        if (std::find(missing.begin(), missing.end(), d) == missing.end()) missing.push_back(d);
      }
    }
    result.problems.push_back({ProblemKind::RenderFailed,
                               blocked_message(chart.name, blocked, missing), blocked.front().at,
                               Cause::Environment});
  }
  return result;
}

}  // namespace sbr::render::helm
