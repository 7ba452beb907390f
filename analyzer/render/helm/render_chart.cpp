#include "analyzer/render/helm/render_chart.h"

#include <fmt/format.h>

#include <algorithm>

#include "analyzer/render/helm/context.h"

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

std::string base_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

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

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; });
}

Value dot_for(const Unit& u, const Value& values, const Value& release, const Value& caps) {
  return Value::new_map({{"Values", values},
                         {"Release", release},
                         {"Chart", u.chart->metadata},
                         {"Capabilities", caps},
                         {"Files", files_object(u.chart->files)},
                         {"Template", Value::new_map({{"Name", Value::string(u.name)},
                                                      {"BasePath", Value::string(u.base)}})}});
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
        for (const auto& d : u->parsed->defines) set.named[d.first] = d.second;
        continue;
      }
    }
    u->parsed = std::make_shared<ParsedFile>();
    ParseError error;
    std::string message;
    if (!parse_template(u->file->bytes, u->file->id, *u->parsed, error)) {
      message = error.message;
    } else if (const Arg* a = unknown_function(u->parsed->body, 0)) {
      error.at = a->at;
      message = fmt::format("function \"{}\" is not supported by sbreview's chart engine", a->name);
    } else {
      for (const auto& d : u->parsed->defines) {
        if (const Arg* bad = unknown_function(*d.second, 0)) {
          error.at = bad->at;
          message =
              fmt::format("function \"{}\" is not supported by sbreview's chart engine", bad->name);
          break;
        }
      }
    }
    if (!message.empty()) {
      result.problems.push_back(
          {ProblemKind::RenderFailed,
           fmt::format("chart {} is not rendered: {} ({}:{}); its objects are "
                       "not analysed: fix the template or render it yourself "
                       "and check the output",
                       chart.name, message, u->name, error.at.line),
           error.at});
      return false;
    }
    for (const auto& d : u->parsed->defines) set.named[d.first] = d.second;
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
  Value release = release_object(settings.release);
  Value caps = capabilities_object(settings.release);
  std::vector<const Map*> roots = values_roots(units, chart, values);
  for (const Unit& u : units) {
    if (!u.render) continue;
    bool skip = false;
    if (const RenderedTemplate* same = reused(u, settings, skip)) result.templates.push_back(*same);
    if (skip) continue;
    const Value& scoped = u.chart == &chart ? values : u.chart->values;
    Exec exec(set, dot_for(u, scoped, release, caps));
    if (settings.record_guards) {
      exec.record_guards(&result.guards);
      exec.record_reads(&result.reads[u.name], &roots);
    }
    struct SharedNote {  // kept when the template fails too
      const Exec& exec;
      bool& into;
      ~SharedNote() { into = into || exec.touched_shared_state(); }
    } note{exec, result.shared_state};
    RenderedTemplate t{u.name, u.file, {}};
    try {
      exec.run(u.parsed->body, exec.root(), t.out);
    } catch (const RenderError& e) {
      result.problems.push_back(
          {ProblemKind::RenderFailed,
           fmt::format("template {} of chart {} is not rendered: {} (line {}); "
                       "its objects are not analysed, the chart's other "
                       "templates are",
                       u.name, chart.name, e.what(), e.at.line),
           e.at.valid() ? e.at : Location{u.file->id, 1, 1}});
      continue;
    }
    if (!blank(t.out.text)) result.templates.push_back(std::move(t));
  }
  return result;
}

}  // namespace sbr::render::helm
