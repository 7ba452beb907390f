// values.schema.json, checked as Helm's ValidateAgainstSchema checks it: each chart's schema
// against its own (scoped) values, subcharts included. Helm refuses to render on a violation;
// sbreview reports each one at the value's line and still analyses the render.
#include <fmt/format.h>

#include "analyzer/render/helm/chart_streams.h"
#include "analyzer/render/helm/schema.h"

namespace sbr::render::helm {

namespace {

void validate(const Chart& chart, const Value& values, std::vector<Problem>& problems, int depth) {
  if (depth > 10) return;
  if (chart.schema_file) {
    std::vector<SchemaError> errors;
    std::string parse_error;
    Location schema_at{chart.schema_file->id, 1, 1};
    if (!validate_schema(chart.schema_file->bytes, values, errors, parse_error)) {
      problems.push_back(
          {ProblemKind::RenderFailed,
           fmt::format("values.schema.json of chart {} is {}: Helm refuses to render the chart; "
                       "fix the schema",
                       chart.name, parse_error),
           schema_at, Cause::Repository});
    }
    for (const SchemaError& e : errors) {
      Location at = e.at.valid()                   ? e.at
                    : chart.values_file != kNoFile ? Location{chart.values_file, 1, 1}
                                                   : schema_at;
      problems.push_back(
          {ProblemKind::RenderFailed,
           fmt::format("values of chart {} do not meet its values.schema.json: at '{}': {}; "
                       "Helm refuses to render the chart with them: fix the value (or the "
                       "schema)",
                       chart.name, e.pointer, e.message),
           at, Cause::Repository});
    }
  }
  for (const Chart& sub : chart.subcharts) {
    if (sub.enabled) validate(sub, sub.values, problems, depth + 1);
  }
}

}  // namespace

void validate_values(const Rendering& r, std::vector<Problem>& problems) {
  validate(r.chart, r.values, problems, 0);
}

}  // namespace sbr::render::helm
