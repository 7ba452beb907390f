// values.schema.json: the chart's JSON Schema checked against the values it is rendered
// with, as Helm checks it before rendering. Local `$ref`s only (nothing is fetched).
#pragma once

#include <string>
#include <vector>

#include "analyzer/render/helm/value.h"

namespace sbr::render::helm {

struct SchemaError {
  std::string pointer;  // JSON pointer of the value ("/image/tag"; "" the whole values)
  std::string message;  // "got string, want integer"
  Location at;          // the value's line in a values file, or invalid
};

// Validates `values` against the schema text; false with `parse_error` when the schema is not
// JSON. `errors` lists every violation found (bounded), in document order.
bool validate_schema(const std::string& schema_text, const Value& values,
                     std::vector<SchemaError>& errors, std::string& parse_error);

}  // namespace sbr::render::helm
