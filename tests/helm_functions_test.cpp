// Helm's and sprig's functions as charts use them; toYaml prints as Helm (sigs.k8s.io/yaml).
#include <catch2/catch.hpp>

#include "tests/helm_engine_helpers.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_functions_test {

using sbr::test::render_template;

namespace {

std::string run(const std::string& text, const std::string& values = "{}",
                const std::string& defines = "") {
  return sbr::test::render_ok(text, values, defines);
}

}  // namespace

TEST_CASE("toYaml sorts keys, quotes what would read back as another type", "[helm][functions]") {
  const char* values =
      "sc:\n"
      "  runAsUser: 1000\n"
      "  privileged: false\n"
      "  capabilities: {drop: [ALL], add: []}\n"
      "  seLinuxOptions: {}\n"
      "  labels: {a: \"true\", b: \"123\", c: \"yes\", d: \"\", e: \"a: b\", f: \"#x\", g: \"-\", "
      "h: \"1.5\", i: \"2024-01-02\", j: plain}\n";
  CHECK(run("{{ toYaml .Values.sc }}", values) ==
        "capabilities:\n"
        "  add: []\n"
        "  drop:\n"
        "  - ALL\n"
        "labels:\n"
        "  a: \"true\"\n"
        "  b: \"123\"\n"
        "  c: \"yes\"\n"
        "  d: \"\"\n"
        "  e: 'a: b'\n"
        "  f: '#x'\n"
        "  g: '-'\n"
        "  h: \"1.5\"\n"
        "  i: \"2024-01-02\"\n"
        "  j: plain\n"
        "privileged: false\n"
        "runAsUser: 1000\n"
        "seLinuxOptions: {}");
}

TEST_CASE("toYaml: natural key order, lists of maps, multi-line strings", "[helm][functions]") {
  CHECK(run("{{ toYaml .Values }}", "k10: a\nk2: b\nK: c") == "K: c\nk2: b\nk10: a");
  CHECK(run("{{ toYaml .Values.l }}", "l: [{name: a, value: \"1\"}, {name: b}]") ==
        "- name: a\n  value: \"1\"\n- name: b");
  CHECK(run("{{ toYaml .Values }}", "s: \"line1\\nline2\\n\"") == "s: |\n  line1\n  line2");
  // A multi-line string alone is a block scalar one step in, as libyaml writes a root literal
  // (argo-cd's argocd-cm: `{{ $key }}: {{ $fmted | toYaml }}` then `nindent 2`).
  CHECK(run("{{ toYaml .Values.s }}", "s: \"a: 1\\n  b: 2\\n\"") == "|\n  a: 1\n    b: 2");
  CHECK(run("k: {{ toYaml .Values.s }}", "s: \"x\\ny\"") == "k: |-\n  x\n  y");
  CHECK(run("{{ toYaml .Values.missing }}") == "null");
  CHECK(run("{{ toYaml 3.5 }}|{{ toYaml \"x\" }}") == "3.5|x");
}

TEST_CASE("nindent, indent and the securityContext idiom", "[helm][functions]") {
  const char* t = "spec:\n  securityContext:\n    {{- toYaml .Values.sc | nindent 4 }}\n";
  CHECK(run(t, "sc: {runAsNonRoot: true, runAsUser: 10001}") ==
        "spec:\n  securityContext:\n    runAsNonRoot: true\n    runAsUser: 10001\n");
  CHECK(run("{{ \"a\\nb\" | indent 2 }}") == "  a\n  b");
}

TEST_CASE("defaults, emptiness, coalesce and ternary", "[helm][functions]") {
  CHECK(run("{{ default \"d\" .Values.x }}|{{ default \"d\" .Values.y }}", "y: set") == "d|set");
  CHECK(run("{{ default 5 .Values.zero }}", "zero: 0") == "5");
  CHECK(run("{{ empty .Values.l }} {{ empty .Values.m }}", "l: []\nm: {a: 1}") == "true false");
  CHECK(run("{{ coalesce .Values.a .Values.b \"c\" }}", "a: \"\"\nb: bee") == "bee");
  CHECK(run("{{ ternary \"y\" \"n\" true }}{{ ternary \"y\" \"n\" false }}") == "yn");
}

TEST_CASE("dicts are shared as Go maps: set, merge, mergeOverwrite, hasKey, dig",
          "[helm][functions]") {
  CHECK(run("{{ $d := dict \"a\" 1 }}{{ $_ := set $d \"b\" 2 }}{{ keys $d | sortAlpha | join \",\" "
            "}}") == "a,b");
  CHECK(run("{{ $d := dict \"a\" 1 }}{{ hasKey $d \"a\" }} {{ hasKey $d \"z\" }}") == "true false");
  CHECK(run("{{ $m := merge (dict \"a\" 1) (dict \"a\" 2 \"b\" 3) }}{{ $m.a }}{{ $m.b }}") == "13");
  CHECK(
      run("{{ $m := mergeOverwrite (dict \"a\" 1) (dict \"a\" 2 \"b\" 3) }}{{ $m.a }}{{ $m.b }}") ==
      "23");
  // mergo: a false fills nothing under merge, replaces under mergeOverwrite; nil is skipped,
  // or stored with overwrite; a dict that would contain itself stops the template.
  CHECK(run("{{ merge (dict \"a\" false \"b\" true) (dict \"a\" true \"b\" false \"c\" nil) }} "
            "{{ mergeOverwrite (dict \"a\" true \"b\" 1) (dict \"a\" false \"b\" nil) }}") ==
        "map[a:true b:true] map[a:false b:<nil>]");
  CHECK(render_template("{{ $d := dict }}{{ $_ := mergeOverwrite $d (dict \"x\" (list $d)) }}")
            .error.find("contain itself") != std::string::npos);
  CHECK(run("{{ dig \"a\" \"b\" \"none\" .Values }}|{{ dig \"a\" \"x\" \"none\" .Values }}",
            "a: {b: found}") == "found|none");
}

TEST_CASE("strings: quote, trunc, trimSuffix, contains, replace, split, join, regex",
          "[helm][functions]") {
  CHECK(run("{{ quote \"a\\\"b\" }} {{ squote \"x\" }}") == "\"a\\\"b\" 'x'");
  CHECK(run("{{ \"release-name-agent-very-long\" | trunc 12 | trimSuffix \"-\" }}") ==
        "release-name");
  CHECK(run("{{ trunc -3 \"abcdef\" }}") == "def");
  CHECK(run("{{ contains \"cat\" \"concatenate\" }} {{ hasPrefix \"con\" \"concat\" }}") ==
        "true true");
  CHECK(run("{{ replace \"-\" \"_\" \"a-b-c\" }} {{ upper \"x\" }}{{ lower \"Y\" }} {{ title "
            "\"hello world\" }}") == "a_b_c Xy Hello World");
  CHECK(run("{{ splitList \",\" \"a,b\" | join \"+\" }} {{ (split \":\" \"h:p\")._1 }}") ==
        "a+b p");
  CHECK(run("{{ regexMatch \"^v[0-9]+\" \"v12\" }} {{ regexReplaceAll \"([a-z]+)-([0-9]+)\" "
            "\"ab-12\" \"$2.$1\" }}") == "true 12.ab");
}

TEST_CASE("regexReplaceAll and regexSplit match as Go's regexp does", "[helm][functions]") {
  // An empty match right after a match is not replaced; a pattern matching the empty string
  // splits between characters; named groups and `$$` in the template.
  CHECK(run("{{ regexReplaceAll \"a*\" \"baaac\" \"X\" }} {{ regexSplit \"\" \"abc\" -1 }} "
            "{{ regexReplaceAll \"(?P<v>[0-9]+)\" \"a1b22\" \"<${v}>$$\" }}") ==
        "XbXcX [a b c] a<1>$b<22>$");
  CHECK(run("{{ regexReplaceAll \"b\" \"abc\" \"$\" }} {{ regexReplaceAll \"b\" \"abc\" \"${1\" }} "
            "{{ regexSplit \",\" \"a,b,c\" 2 }}") == "a$c a${1c [a b,c]");
}

TEST_CASE("kebabcase splits words as huandu/xstrings does", "[helm][functions]") {
  // xstrings' own samples beyond sprig's test table: a number joins the word before it unless
  // letters follow it.
  CHECK(run("{{ kebabcase \"http2xx\" }} {{ kebabcase \"HTTP20xOK\" }} "
            "{{ kebabcase \"Duration2m3s\" }} {{ kebabcase \"Bld4Floor3rd\" }}") ==
        "http-2xx http-20x-ok duration-2m3s bld4-floor-3rd");
  CHECK(run("{{ kebabcase \"HTTPStatus\" }} {{ kebabcase \"a.b\" }} {{ kebabcase \"\" }}") ==
        "http-status a.b ");
}

TEST_CASE("lists: list, append, has, uniq, first, last, without, compact", "[helm][functions]") {
  CHECK(run("{{ append (list 1 2) 3 | len }}") == "3");
  // sprig takes the list first: piping it into append puts it last, which fails as in Helm.
  CHECK(sbr::test::render_template("{{ list 1 2 | append 3 }}").error.find("append") !=
        std::string::npos);
  CHECK(run("{{ $l := list \"a\" \"b\" \"a\" }}{{ uniq $l | join \",\" }} {{ has \"b\" $l }} {{ "
            "first $l }}{{ last $l }}") == "a,b true aa");
  CHECK(run("{{ without (list 1 2 3) 2 | toJson }} {{ compact (list \"\" \"x\") | toJson }}") ==
        "[1,3] [\"x\"]");
}

TEST_CASE("paths as Go's path package: base, dir, ext, clean, isAbs and the os forms",
          "[helm][functions]") {
  CHECK(run("{{ base \"foo/bar\" }} {{ base \"a/b/\" }} {{ base \"/\" }} {{ base \"\" }}") ==
        "bar b / .");
  CHECK(run("{{ dir \"foo/bar/baz\" }} {{ dir \"a\" }} {{ dir \"/\" }} {{ dir \"a/b/../c/\" }}") ==
        "foo/bar . / a/c");
  CHECK(run("{{ ext \"/foo/bar/baz.txt\" }} {{ ext \"a/b.tar.gz\" }}|{{ ext \"a.b/c\" }}|") ==
        ".txt .gz||");
  CHECK(run("{{ clean \"foo/../../bar\" }} {{ clean \"a//b/./../c\" }} {{ clean \"/../a\" }} "
            "{{ clean \"\" }}") == "../bar a/c /a .");
  CHECK(run("{{ isAbs \"/x\" }} {{ isAbs \"x\" }} {{ osBase \"a/b\" }} {{ osDir \"a/b\" }}") ==
        "true false b a");
  // The include of a file beside the template, datadog's idiom.
  CHECK(run("{{ dir \"datadog/templates/_helpers.tpl\" }}") == "datadog/templates");
}

TEST_CASE("float math as sprig's decimal arithmetic, sha1sum and adler32sum", "[helm][functions]") {
  CHECK(run("{{ addf 0.1 0.2 }} {{ add1f 1.5 }} {{ subf 10 0.5 2 }} {{ mulf 2 0x1p4 }} "
            "{{ divf 1 4 }} {{ maxf 1 9.5 3 }} {{ minf 2 -1.5 }}") ==
        "0.3 2.5 7.5 32 0.25 9.5 -1.5");
  CHECK(sbr::test::render_template("{{ divf 1 0 }}").error.find("division by zero") !=
        std::string::npos);
  CHECK(run("{{ (semver \"v3.1.2-rc.1+b7\").Major }} {{ (semver \"1.16\").Minor }} "
            "{{ (semver \"v3.1.2-rc.1+b7\").Prerelease }} {{ semver \"v1.2\" }} "
            "{{ add1 (int (semver \"v3.4.5\").Major) }}") == "3 16 rc.1 1.2.0 4");
  CHECK(sbr::test::render_template("{{ semver \"x.y\" }}").error.find("semver") !=
        std::string::npos);
  CHECK(run("{{ sha1sum \"abc\" }} {{ adler32sum \"abc\" }}") ==
        "a9993e364706816aba3e25717850c26c9cd0d89d 38600999");
}

TEST_CASE("untilStep and the must forms", "[helm][functions]") {
  CHECK(run("{{ untilStep 0 10 3 | toJson }} {{ untilStep 10 0 -4 | toJson }} "
            "{{ untilStep 0 10 -1 | toJson }} {{ untilStep 3 3 1 | toJson }}") ==
        "[0,3,6,9] [10,6,2] [] []");
  CHECK(run("{{ mustWithout (list 1 2 3) 2 | toJson }} {{ mustRegexFind \"[0-9]+\" \"ab12c\" }} "
            "{{ mustUniq (list 1 1) | toJson }}") == "[1,3] 12 [1]");
  CHECK(sbr::test::render_template("{{ untilStep 0 100000000 1 }}").error.find("budget") !=
        std::string::npos);
}

TEST_CASE("conversion, math, encoding and hashing", "[helm][functions]") {
  CHECK(run("{{ int .Values.port }} {{ add 1 2 3 }} {{ sub 5 2 }} {{ div 7 2 }} {{ mod 7 2 }} {{ "
            "max 1 9 3 }}",
            "port: 8080") == "8080 6 3 3 1 9");
  CHECK(run("{{ printf \"%d\" (int .Values.port) }}", "port: 8080") == "8080");
  CHECK(run("{{ b64enc \"hello\" }} {{ b64dec \"aGVsbG8=\" }}") == "aGVsbG8= hello");
  CHECK(run("{{ sha256sum \"abc\" }}") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(run("{{ toString 3 }} {{ kindOf .Values.l }} {{ typeOf .Values.n }}", "l: []\nn: 1") ==
        "3 slice float64");
  // sprig's strslice: a scalar is a list of one string, nil an empty list; until counts down
  // to a negative count.
  CHECK(run("{{ toStrings 3 }} {{ toStrings .Values.missing | len }} {{ join \"-\" nil }}|"
            "{{ until -3 }} {{ until 0 }}") == "[3] 0 |[0 -1 -2] []");
}

TEST_CASE("toJson, fromYaml, fromJson round trips", "[helm][functions]") {
  CHECK(run("{{ toJson .Values }}", "b: [1, \"<x>\"]\na: {c: true}") ==
        "{\"a\":{\"c\":true},\"b\":[1,\"\\u003cx\\u003e\"]}");
  CHECK(run("{{ (fromYaml \"a: {b: 2}\").a.b }}") == "2");
  CHECK(run("{{ (fromJson \"{\\\"k\\\": \\\"v\\\"}\").k }}") == "v");
  CHECK(run("{{ (fromYaml \"a: [\").Error | contains \"line\" }}") == "true");
  // toRawJson leaves HTML alone, and only the escapes toJson wrote for it (an escaped
  // backslash before "u003c" is text).
  CHECK(run(R"({{ toRawJson (dict "a" "<\\u003c&>") }})") == R"({"a":"<\\u003c&>"})");
  // A document of another kind is json's type error; null is empty (helm's funcs_test.go has
  // the list and map cases).
  CHECK(run("{{ fromYaml \"3\" }}|{{ fromJsonArray \"true\" }}|{{ fromYaml \"~\" }}") ==
        "map[Error:error unmarshaling JSON: while decoding JSON: json: cannot unmarshal number "
        "into Go value of type map[string]interface {}]|[json: cannot unmarshal bool into Go "
        "value of type []interface {}]|map[]");
}

TEST_CASE("tpl renders values text as a template, required and fail stop the render",
          "[helm][functions]") {
  CHECK(run("{{ tpl .Values.t . }}", "t: \"{{ .Values.name }}-x\"\nname: agent") == "agent-x");
  auto r =
      render_template("{{ required \"image.tag is required\" .Values.image.tag }}", "image: {}");
  CHECK(r.error == "image.tag is required");
  r = render_template("{{ fail \"unsupported mode\" }}");
  CHECK(r.error == "unsupported mode");
}

TEST_CASE("a define inside tpl text lives in that tpl call only, as helm's clone",
          "[helm][functions]") {
  const char* values = "t: '{{ define \"x\" }}inner{{ end }}{{ include \"x\" . }}'";
  // The tpl text includes its own define; the template's define of the same name is back after.
  CHECK(run("{{ include \"x\" . }}|{{ tpl .Values.t . }}|{{ include \"x\" . }}", values,
            "{{ define \"x\" }}outer{{ end }}") == "outer|inner|outer");
  // A name only the tpl text defined is not there after it.
  auto r = render_template("{{ tpl .Values.t . }}{{ include \"x\" . }}", values);
  CHECK(r.error.find("no template \"x\"") != std::string::npos);
}

TEST_CASE("semverCompare against Kubernetes versions", "[helm][functions]") {
  CHECK(run("{{ semverCompare \">=1.21-0\" \"v1.33.0\" }}") == "true");
  CHECK(run("{{ semverCompare \"<1.19\" \"1.33.0\" }}") == "false");
  CHECK(run("{{ semverCompare \"^1.2.0\" \"1.9.1\" }} {{ semverCompare \"~1.2.0\" \"1.3.0\" }}") ==
        "true false");
  CHECK(run("{{ semverCompare \">=1.20, <1.25 || >=1.30\" \"1.33.0\" }}") == "true");
  // Prerelease parts compare as Masterminds does: numbers as numbers, below words.
  CHECK(run("{{ semverCompare \">=1.0.0-alpha.10\" \"1.0.0-alpha.9\" }} "
            "{{ semverCompare \">=1.0.0-alpha.10\" \"1.0.0-alpha.11\" }}") == "false true");
}

TEST_CASE("semver values have *semver.Version's comparison methods", "[helm][functions]") {
  CHECK(run("{{ (semver \"1.0.0-alpha.10\").Compare (semver \"1.0.0-alpha.9\") }} "
            "{{ (semver \"1.0.0-1\").Compare (semver \"1.0.0-a\") }} "
            "{{ (semver \"1.0.0-rc.1\").LessThan (semver \"1.0.0\") }} "
            "{{ (semver \"v2.1\").Equal (semver \"2.1.0+build\") }} "
            "{{ (semver \"2.0.0\").GreaterThanEqual (semver \"2.0.0\") }}") ==
        "1 -1 true true true");
  CHECK(render_template("{{ (semver \"1.0.0\").Compare \"1.0.0\" }}")
            .error.find("expected *semver.Version; got string") != std::string::npos);
}

TEST_CASE("non-deterministic functions return fixed placeholders", "[helm][functions]") {
  CHECK(run("{{ randAlphaNum 5 }} {{ uuidv4 }}") == "xxxxx 00000000-0000-4000-8000-000000000000");
  CHECK(run("{{ now }}") == run("{{ now }}"));
}

TEST_CASE("values origins survive toYaml, nindent, quote and default", "[helm][functions]") {
  auto r =
      render_template("sc:{{ toYaml .Values.sc | nindent 2 }}\nname: {{ .Values.name | quote }}\n",
                      "name: a\nsc:\n  privileged: true\n  runAsUser: 0\n");
  REQUIRE(r.error.empty());
  // The line "  privileged: true" (output line 2) maps to values line 3.
  bool privileged_from_values = false, name_from_values = false;
  for (const auto& s : r.out.spans) {
    if (s.values.valid() && s.values.line == 3 && s.note == "sc.privileged")
      privileged_from_values = true;
    if (s.values.valid() && s.values.line == 1 && s.note == "name") name_from_values = true;
  }
  CHECK(privileged_from_values);
  CHECK(name_from_values);
}

TEST_CASE("dict readers take a missing value as an empty dict, as Go passes a nil map",
          "[helm][functions]") {
  CHECK(run("{{ hasKey .Values.missing \"a\" }} {{ keys .Values.missing | len }} {{ get "
            ".Values.missing \"a\" }}|") == "false 0 |");
  CHECK_FALSE(sbr::test::render_template("{{ set .Values.missing \"a\" 1 }}").error.empty());
}

}  // namespace helm_functions_test
