// Runs Go-template text through the chart engine for the conformance tests.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"

namespace sbr::test {

struct Rendered {
  std::string text;
  std::string error;  // empty when the template ran
  render::helm::Output out;
};

// Runs `text` with `dot` as its data (`.`); `defines` is parsed first.
inline Rendered render_with_dot(const std::string& text, const render::helm::Value& dot,
                                const std::string& defines = "") {
  using namespace render::helm;
  Rendered r;
  TemplateSet set;
  ParsedFile lib, main;
  ParseError pe;
  if (!defines.empty()) {
    if (!parse_template(defines, 2, lib, pe)) {
      r.error = pe.message;
      return r;
    }
    for (auto& d : lib.defines) set.named[d.first] = d.second;
  }
  if (!parse_template(text, 1, main, pe)) {
    r.error = pe.message;
    return r;
  }
  for (auto& d : main.defines) set.named[d.first] = d.second;
  Exec exec(set, dot);
  try {
    exec.run(main.body, dot, r.out);
  } catch (const RenderError& e) {
    r.error = e.what();
    return r;
  }
  r.text = r.out.text;
  return r;
}

// `values_yaml` becomes `.Values` (file id 9 for locations); `defines` is parsed first.
inline Rendered render_template(const std::string& text, const std::string& values_yaml = "{}",
                                const std::string& defines = "") {
  using namespace render::helm;
  Value values;
  std::string error;
  if (!parse_yaml_value(values_yaml, 9, "", values, error)) {
    Rendered r;
    r.error = "values: " + error;
    return r;
  }
  return render_with_dot(text, Value::new_map({{"Values", values}}), defines);
}

// The output of a template that must run; the test fails with the engine's error otherwise.
inline std::string render_ok(const std::string& text, const std::string& values_yaml = "{}",
                             const std::string& defines = "") {
  Rendered r = render_template(text, values_yaml, defines);
  INFO(r.error);
  REQUIRE(r.error.empty());
  return r.text;
}

// The error of a template that must stop; the test fails with its output otherwise.
inline std::string render_error(const std::string& text, const std::string& values_yaml = "{}") {
  Rendered r = render_template(text, values_yaml);
  INFO(r.text);
  REQUIRE_FALSE(r.error.empty());
  return r.error;
}

}  // namespace sbr::test
