// Go text/template conformance: the semantics Go's exec_test.go and Helm's engine tests pin
// down, as cases of our own.
#include <catch2/catch.hpp>

#include "tests/helm_engine_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_template_test {

using sbr::test::render_template;

namespace {

std::string run(const std::string& text, const std::string& values = "{}",
                const std::string& defines = "") {
  return sbr::test::render_ok(text, values, defines);
}

}  // namespace

TEST_CASE("text, actions and trim markers", "[helm][template]") {
  CHECK(run("a {{ \"b\" }} c") == "a b c");
  CHECK(run("a  {{- \"b\" -}}  \n c") == "abc");
  CHECK(run("x\n{{- /* a comment */ -}}\ny") == "xy");
  CHECK(run("{{/* comment */}}z") == "z");
  CHECK(run("{{-3}}") == "-3");  // `{{-3` is a number, not a trim marker
  // Go's parser ends a pipeline at the delimiter after a trailing `|` (a datadog chart has one).
  CHECK(run("{{ \"a\" | upper | }}|{{ (\"b\" | upper |) }}") == "A|B");
  CHECK(run("a\n  {{- if true }}\n  b\n  {{- end }}\n") == "a\n  b\n");
}

TEST_CASE("fields, missing keys and nil as Helm sets missingkey=zero", "[helm][template]") {
  CHECK(run("{{ .Values.a.b }}", "a: {b: hi}") == "hi");
  CHECK(run("[{{ .Values.missing }}]", "a: 1") == "[]");  // <no value>, which Helm removes
  CHECK(sbr::test::render_error("{{ .Values.missing.deeper }}")
            .find("nil pointer evaluating interface {}.deeper") != std::string::npos);
  CHECK(sbr::test::render_error("{{ .Values.a.b }}", "a: text")
            .find("can't evaluate field b in type string") != std::string::npos);
  // A pipeline's or a variable's nil is Go's invalid value: its fields are empty, no error
  // (cert-manager's `(.Values.cainjector.config.metricsTLSConfig).dynamic` with `config: {}`).
  CHECK(run("[{{ (.Values.config.tls).dynamic }}]", "config: {}") == "[]");
  CHECK(run("[{{ if (.Values.config.tls).dynamic }}on{{ end }}]", "config: {}") == "[]");
  CHECK(run("{{ $v := .Values.config.tls }}[{{ $v.dynamic.deeper }}]", "config: {}") == "[]");
  CHECK(run("[{{ ((.Values.c.d).e).f }}]", "c: {}") == "[]");
  // A map's missing key inside the chain is still a nil interface, as in Go.
  CHECK(sbr::test::render_error("{{ (.Values.config).tls.dynamic }}", "config: {}")
            .find("nil pointer evaluating interface {}.dynamic") != std::string::npos);
  CHECK(run("{{ .Values.n }} {{ .Values.big }} {{ .Values.f }}", "n: 3\nbig: 1e21\nf: 0.5") ==
        "3 1e+21 0.5");
  // Go's hexadecimal floats are float constants (traefik: `mulf ... 0x1p60`).
  CHECK(run("{{ 0x1p4 }} {{ -0x1.8p1 }} {{ 0x10 }}") == "16 -3 16");
}

TEST_CASE("truthiness and control structures", "[helm][template]") {
  const char* t = "{{ if .Values.x }}T{{ else if .Values.y }}Y{{ else }}F{{ end }}";
  CHECK(run(t, "x: 1") == "T");
  CHECK(run(t, "x: 0\ny: [1]") == "Y");
  CHECK(run(t, "x: \"\"\ny: []") == "F");
  CHECK(run(t, "x: {}\ny: false") == "F");
  CHECK(run("{{ with .Values.a }}{{ .b }}{{ else }}none{{ end }}", "a: {b: 2}") == "2");
  CHECK(run("{{ with .Values.a }}{{ .b }}{{ else }}none{{ end }}", "a: {}") == "none");
}

TEST_CASE("range over lists, maps in key order, integers, break and continue", "[helm][template]") {
  CHECK(run("{{ range $i, $v := .Values.l }}{{ $i }}={{ $v }};{{ end }}", "l: [a, b]") ==
        "0=a;1=b;");
  CHECK(run("{{ range $k, $v := .Values.m }}{{ $k }}{{ $v }}{{ end }}", "m: {b: 2, a: 1, c: 3}") ==
        "a1b2c3");
  CHECK(run("{{ range .Values.l }}{{ . }}{{ else }}empty{{ end }}", "l: []") == "empty");
  CHECK(run("{{ range 3 }}{{ . }}{{ end }}") == "012");
  CHECK(run("{{ range .Values.l }}{{ if eq . 2.0 }}{{ continue }}{{ end }}{{ if eq . 4.0 }}{{ "
            "break }}{{ end }}{{ . }}{{ end }}",
            "l: [1, 2, 3, 4, 5]") == "13");
  // Go ranges over the keys sorted before the first iteration and looks each one up as it
  // comes: a key removed meanwhile gives no value, one added is not visited (a real chart
  // `unset`s entries of the map it ranges over; this crashed the engine).
  CHECK(run("{{ $m := .Values.m }}{{ range $k, $v := $m }}{{ $_ := unset $m \"b\" }}"
            "{{ $_ := set $m \"z\" 9 }}{{ $k }}={{ $v }};{{ end }}",
            "m: {a: 1, b: 2, c: 3}") == "a=1;b=;c=3;");
}

TEST_CASE("a value that would contain itself or nest past the bound stops the template",
          "[helm][template]") {
  // Go lets `set` make a map contain itself, and then never finishes printing it.
  CHECK(sbr::test::render_error("{{ $d := dict }}{{ $_ := set $d \"a\" $d }}{{ $d }}")
            .find("set would make a dict contain itself") != std::string::npos);
  CHECK(sbr::test::render_error("{{ $d := dict }}{{ $_ := set $d \"a\" (list 1 (dict \"b\" $d)) }}")
            .find("contain itself") != std::string::npos);
  // A sibling that holds the same map twice is no cycle.
  CHECK(run("{{ $d := dict }}{{ $e := dict \"x\" 1 }}{{ $_ := set $d \"a\" $e }}"
            "{{ $_ := set $d \"b\" $e }}{{ len $d }}") == "2");
  // Nested a level per iteration, past kMaxValueDepth: printing stops; freeing it does not
  // overflow the stack either.
  CHECK(sbr::test::render_error(
            "{{ $d := dict }}{{ range until 600 }}{{ $d = dict \"a\" $d }}{{ end }}{{ $d }}")
            .find("nested more than 512 levels") != std::string::npos);
  CHECK(run("{{ $d := dict }}{{ range until 100000 }}{{ $d = dict \"a\" $d }}{{ end }}ok") == "ok");
  // A define that includes itself, 50 ifs deep: the bodies' nesting bound holds first.
  const std::string ifs = [] {
    std::string s;
    for (int k = 0; k < 50; ++k) s += "{{ if true }}";
    return s;
  }();
  const std::string ends = [] {
    std::string s;
    for (int k = 0; k < 50; ++k) s += "{{ end }}";
    return s;
  }();
  auto r =
      render_template("{{ include \"r\" . }}", "{}",
                      "{{ define \"r\" }}" + ifs + "{{ include \"r\" . }}" + ends + "{{ end }}");
  CHECK(r.error.find("nested more than 1000 levels") != std::string::npos);
}

TEST_CASE("variables: declaration, assignment, scope and $", "[helm][template]") {
  CHECK(run("{{ $x := \"a\" }}{{ if true }}{{ $x = \"b\" }}{{ end }}{{ $x }}") == "b");
  CHECK(run("{{ $x := 1 }}{{ if true }}{{ $x := 2 }}{{ end }}{{ $x }}") == "1");
  CHECK(run("{{ with .Values.a }}{{ $.Values.top }}{{ end }}", "a: 1\ntop: root") == "root");
  CHECK(sbr::test::render_error("{{ $nope }}").find("undefined variable") != std::string::npos);
}

TEST_CASE("define, template, block and include", "[helm][template]") {
  const char* defs = "{{ define \"n\" }}name-{{ .Values.x }}{{ end }}";
  CHECK(run("{{ template \"n\" . }}", "x: 1", defs) == "name-1");
  CHECK(run("{{ include \"n\" . | upper }}", "x: why", defs) == "NAME-WHY");
  CHECK(run("{{ block \"b\" . }}default{{ end }}") == "default");
  CHECK(sbr::test::render_error("{{ include \"missing\" . }}").find("no template \"missing\"") !=
        std::string::npos);
}

TEST_CASE("recursion through include stops at the depth bound", "[helm][template]") {
  auto r = render_template(
      "{{ define \"loop\" }}{{ include \"loop\" . }}{{ end }}{{ include \"loop\" . }}");
  CHECK(r.error.find("nested include/template calls") != std::string::npos);
}

TEST_CASE("and/or short-circuit and return an operand", "[helm][template]") {
  CHECK(run("{{ or .Values.a \"fallback\" }}", "a: \"\"") == "fallback");
  CHECK(run("{{ and 1 0 }}") == "0");
  // The second operand would fail if evaluated.
  CHECK(run("{{ if and .Values.a .Values.a.b }}yes{{ else }}no{{ end }}", "{}") == "no");
  CHECK(run("{{ if or true .Values.a.b }}yes{{ end }}", "{}") == "yes");
}

TEST_CASE("comparisons follow Go's kinds", "[helm][template]") {
  CHECK(run("{{ eq 1 1 }} {{ ne \"a\" \"b\" }} {{ lt 1 2 }} {{ ge 2.5 2.5 }}") ==
        "true true true true");
  CHECK(run("{{ eq .Values.s \"x\" \"zz\" }}", "s: zz") == "true");
  // Values numbers are float64: comparing one with an int literal is Go's error.
  CHECK(sbr::test::render_error("{{ eq .Values.n 3 }}", "n: 3").find("incompatible types") !=
        std::string::npos);
  CHECK(run("{{ eq .Values.missing \"x\" }}", "{}") == "false");
}

TEST_CASE("len, index, slice, print and printf", "[helm][template]") {
  CHECK(run("{{ len .Values.l }} {{ index .Values.l 1 }} {{ index .Values.m \"k\" }}",
            "l: [a, b]\nm: {k: v}") == "2 b v");
  // helm's `slice` is sprig's (a FuncMap entry shadows Go's builtin): lists only.
  CHECK(run("{{ slice .Values.l 1 }}", "l: [a, b, c]") == "[b c]");
  CHECK(render_template("{{ slice \"abcdef\" 1 3 }}").error.find("list should be type of slice") !=
        std::string::npos);
  CHECK(run("{{ print 1 2 \"a\" \"b\" }}") == "1 2ab");
  CHECK(run("{{ printf \"%s-%d-%v-%q\" \"a\" 5 true \"q\" }}") == "a-5-true-\"q\"");
  CHECK(run("{{ printf \"%d\" .Values.port }}", "port: 80") == "%!d(float64=80)");
  CHECK(run("{{ printf \"%05.1f|%-4s|\" 3.14159 \"ab\" }}") == "003.1|ab  |");
  CHECK(run("{{ println \"a\" 1 }}") == "a 1\n");
}

TEST_CASE("parenthesised pipelines and fields of their results", "[helm][template]") {
  CHECK(run("{{ (dict \"a\" (dict \"b\" \"deep\")).a.b }}") == "deep");
  CHECK(run("{{ \"x\" | printf \"%s-%s\" \"y\" }}") == "y-x");
}

TEST_CASE("syntax errors are reported with their position", "[helm][template]") {
  auto r = render_template("line1\n{{ if true }}\nunterminated");
  CHECK(r.error.find("missing {{end}}") != std::string::npos);
  r = render_template("{{ \"open }}");
  CHECK(r.error.find("unterminated") != std::string::npos);
}

TEST_CASE("a runaway loop stops at the step bound", "[helm][template]") {
  auto r = render_template("{{ range 100000000 }}x{{ end }}");
  CHECK_FALSE(r.error.empty());
}

TEST_CASE("hostile templates fail cleanly, never crash", "[helm][template]") {
  std::string deep_parens = "{{ " + std::string(500, '(') + "1" + std::string(500, ')') + " }}";
  std::string deep_ifs;
  for (int k = 0; k < 500; ++k) deep_ifs += "{{ if true }}";
  for (const std::string& text :
       {deep_parens, deep_ifs, std::string("{{ \"\\x\" }}"), std::string("{{ \"\\u12\" }}"),
        std::string("{{ end }}"), std::string("{{ else }}"), std::string("{{ 1 2 }}"),
        std::string("{{ .a.b.c"), std::string("{{ $x := }}"), std::string("{{ 'ab' }}"),
        std::string("{{ index . 1 }}"), std::string("{{ slice \"abc\" 2 1 }}"),
        std::string("{{ printf \"%d %s %\" 1 }}"),
        std::string("{{ range $i, $v := 3 }}{{ end }}")}) {
    auto r = sbr::test::render_template(text);
    CHECK((r.error.empty() || r.error.size() > 3));  // an error message, or a render
  }
  CHECK(run("{{ \"\\x41\\u00e9\" }}") == "A\xc3\xa9");
  CHECK(run("{{ printf \"%d %s\" 1 }}") == "1 %!s(MISSING)");
}

}  // namespace helm_template_test
