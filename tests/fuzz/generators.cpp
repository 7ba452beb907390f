#include "tests/fuzz/generators.h"

#include <algorithm>

namespace sbr::fuzz {

unsigned Choices::byte() {
  return at_ < size_ ? data_[at_++] : 0u;
}

std::size_t Choices::below(std::size_t n) {
  std::size_t v = byte();
  if (n > 256) v = v << 8 | byte();
  return v % n;
}

namespace {

// ---- Helm -----------------------------------------------------------------------------------

// What a template reads: the chart's values, the release, variables and literals. The first
// kFields can take a `.a` or `.b.c` after them (Go refuses a field of a literal when parsing).
constexpr std::size_t kFields = 13;
constexpr std::string_view kOperands[] = {".Values.image",
                                          ".Values.privileged",
                                          ".Values.security",
                                          ".Values.list",
                                          ".Values.nested.a.b",
                                          ".Values.missing",
                                          ".Values",
                                          ".",
                                          "$",
                                          "$x",
                                          "$y",
                                          ".Release",
                                          ".Capabilities.KubeVersion",
                                          ".Release.Name",
                                          ".Release.IsUpgrade",
                                          ".Chart.Name",
                                          "\"a\"",
                                          "\"\"",
                                          "\"*\"",
                                          "\"%s-%d\"",
                                          "\"a: b\\nc: [d]\"",
                                          "0",
                                          "1",
                                          "-1",
                                          "100000",
                                          "2.5",
                                          "true",
                                          "false",
                                          "nil",
                                          "(list 1 2 3)",
                                          "(dict \"k\" \"v\")",
                                          "(.Files.Glob \"**\")",
                                          "(.Files.Get \"values.yaml\")",
                                          "`raw\\n`"};

// The engine's functions with the arguments they take (a few take any count).
struct Func {
  std::string_view name;
  int args;
};
constexpr Func kFuncs[] = {{"default", 2},
                           {"required", 2},
                           {"toYaml", 1},
                           {"toJson", 1},
                           {"fromYaml", 1},
                           {"fromJson", 1},
                           {"indent", 2},
                           {"nindent", 2},
                           {"quote", 1},
                           {"squote", 1},
                           {"printf", 3},
                           {"print", 2},
                           {"tpl", 2},
                           {"include", 2},
                           {"dict", 4},
                           {"set", 3},
                           {"unset", 2},
                           {"list", 3},
                           {"append", 2},
                           {"concat", 2},
                           {"uniq", 1},
                           {"has", 2},
                           {"without", 2},
                           {"deepCopy", 1},
                           {"merge", 2},
                           {"mergeOverwrite", 2},
                           {"keys", 1},
                           {"pluck", 2},
                           {"dig", 3},
                           {"get", 2},
                           {"hasKey", 2},
                           {"until", 1},
                           {"untilStep", 3},
                           {"repeat", 2},
                           {"trunc", 2},
                           {"replace", 3},
                           {"regexReplaceAll", 3},
                           {"regexFind", 2},
                           {"splitList", 2},
                           {"join", 2},
                           {"b64enc", 1},
                           {"b64dec", 1},
                           {"sha256sum", 1},
                           {"upper", 1},
                           {"trim", 1},
                           {"contains", 2},
                           {"hasPrefix", 2},
                           {"ternary", 3},
                           {"coalesce", 2},
                           {"empty", 1},
                           {"not", 1},
                           {"and", 2},
                           {"or", 2},
                           {"eq", 2},
                           {"ne", 2},
                           {"lt", 2},
                           {"len", 1},
                           {"index", 2},
                           {"slice", 3},
                           {"first", 1},
                           {"last", 1},
                           {"reverse", 1},
                           {"sortAlpha", 1},
                           {"toString", 1},
                           {"int", 1},
                           {"add", 2},
                           {"mul", 2},
                           {"div", 2},
                           {"mod", 2},
                           {"semverCompare", 2},
                           {"lookup", 4},
                           {"now", 0},
                           {"randAlphaNum", 1},
                           {"fail", 1},
                           {"kindIs", 2},
                           {"typeOf", 1},
                           {"toStrings", 1},
                           {"compact", 1},
                           {"splitn", 3},
                           {"regexSplit", 3},
                           {"wrap", 2},
                           {"abbrev", 2},
                           {"cat", 3},
                           {"ternary", 3}};

// Manifest text a check reads; the generator puts actions between and inside these lines.
constexpr std::string_view kManifest[] = {"apiVersion: v1\nkind: Pod\n",
                                          "metadata:\n  name: agent\n",
                                          "spec:\n  containers:\n  - name: agent\n    image: ",
                                          "\n    securityContext:\n      privileged: ",
                                          "\n      capabilities:\n        add: [",
                                          "]\n",
                                          "  hostNetwork: ",
                                          "\n  volumes:\n  - name: h\n    hostPath:\n      path: ",
                                          "\n---\n",
                                          "  annotations:\n    checksum/config: ",
                                          "\n    env:\n    - name: TOKEN\n      value: ",
                                          "\n  ",
                                          "key: [a, {b: c}]\n"};

// Writes what Go's parser accepts (the engine's execution errors are part of what is fuzzed):
// variables are declared at the top of each template and define, a define is only at the top
// level, a pipe feeds a function, `else if` follows an `if`.
struct HelmWriter {
  Choices& c;
  std::string out;
  int depth = 0;

  void operand() {
    if (depth < 6 && c.below(6) == 5) {
      ++depth;
      out += '(';
      pipeline(false);
      out += ')';
      --depth;
      return;
    }
    std::size_t i = c.below(std::size(kOperands));
    out += kOperands[i];
    if (i < kFields && c.below(8) == 7) out += c.below(2) != 0U ? ".a" : ".b.c";
  }

  void call() {
    const Func& f = kFuncs[c.below(std::size(kFuncs))];
    out += f.name;
    for (int i = 0; i < f.args; ++i) {
      out += ' ';
      operand();
    }
  }

  void pipeline(bool may_assign) {
    if (may_assign && c.below(5) == 4) out += c.below(2) != 0U ? "$x = " : "$y = ";
    if (c.below(3) == 2) {
      operand();
    } else {
      call();
    }
    for (std::size_t n = c.below(4); n > 0 && c.below(2) != 0U; --n) {
      out += " | ";
      call();
    }
  }

  void action() {
    out += c.below(3) == 2 ? "{{- " : "{{ ";
    pipeline(true);
    out += c.below(3) == 2 ? " -}}" : " }}";
  }

  void block() {
    static constexpr std::string_view kOpen[] = {"if", "with", "range",
                                                 "range $i, $v :=", "if not"};
    std::string_view open = c.pick(kOpen);
    out += "{{ " + std::string(open) + " ";
    pipeline(false);
    out += " }}";
    body();
    if (c.below(3) == 2) {
      out +=
          open.substr(0, 2) == "if" && c.below(2) != 0U ? "{{ else if .Values.b }}" : "{{ else }}";
      body();
    }
    out += "{{ end }}";
  }

  void define() {
    static constexpr std::string_view kNames[] = {"\"a\"", "\"b\"", "\"chart.labels\""};
    out += "{{- define " + std::string(c.pick(kNames)) + " }}";
    declare();
    body();
    out += "{{ end }}";
  }

  void declare() { out += "{{- $x := .Values.image }}{{- $y := .Values.list }}"; }

  void body() {
    if (depth >= 24) return;
    ++depth;
    for (std::size_t n = 1 + c.below(6); n > 0 && !c.done(); --n) {
      switch (c.below(4)) {
        case 0:
          out += c.pick(kManifest);
          break;
        case 1:
        case 2:
          action();
          break;
        default:
          block();
      }
    }
    --depth;
  }
};

constexpr std::string_view kValues[] = {
    "image: agent:1\nprivileged: false\nsecurity: {}\nlist: [a, b]\nnested: {a: {b: c}}\n",
    "privileged: true\nlist: &l [1, 2, *l]\n",
    "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nlist: [*c, *c]\n",
    "security:\n  capabilities: [SYS_ADMIN]\nnested:\n  a: null\n",
    "image: \"{{ .Values.privileged }}\"\n",
    "",
    "- not a map\n"};

}  // namespace

GeneratedChart generate_chart(Choices& c) {
  GeneratedChart chart;
  // Mostly the plain values, so that most inputs reach the templates; aliases, a cycle and a
  // values file that is not a map one time in four.
  chart.values = std::string(c.below(4) == 3 ? c.pick(kValues) : kValues[0]);
  HelmWriter helpers{c, {}, 0};
  for (std::size_t n = c.below(3); n > 0; --n) helpers.define();
  chart.helpers = std::move(helpers.out);
  HelmWriter templ{c, {}, 0};
  templ.declare();
  while (!c.done() && templ.out.size() < 65536) templ.body();
  chart.templ = std::move(templ.out);
  return chart;
}

// ---- Markdown -------------------------------------------------------------------------------

namespace {

// Sentences in the claim reader's vocabulary: each is a claim it checks against the launcher.
constexpr std::string_view kClaims[] = {
    "The agent runs as a non-root user.",
    "Containers run with no capabilities.",
    "The sandbox has no network access.",
    "The root filesystem is read-only.",
    "Memory is limited to 2 GB and at most 256 processes.",
    "The agent cannot escape the container.",
    "Secrets are never passed to the agent.",
    "We use gVisor (runsc) for every sandbox.",
    "Only the workspace is mounted, read-only.",
    "No new privileges: `--security-opt no-new-privileges`.",
    "The Docker socket is not mounted.",
    "Egress is limited to api.example.com through the proxy.",
    "See [the launcher](run.sh) and `podman run --privileged` (an example, not what we run)."};

constexpr std::string_view kPrefixes[] = {"> ", "- ", "* ", "1. ", "  ", "    ", ">", "+ "};

void table(Choices& c, std::string& out) {
  std::size_t cols = 1 + c.below(2000), rows = c.below(2000);
  std::string row = "|";
  for (std::size_t i = 0; i < cols; ++i) row += " a |";
  out += row + "\n|";
  for (std::size_t i = 0; i < cols; ++i) out += c.below(4) == 0 ? ":-:|" : "---|";
  out += '\n';
  for (std::size_t r = 0; r < rows; ++r) {
    out += '|';
    for (std::size_t i = 0, n = c.below(cols + 2); i < n; ++i) {
      out += ' ';
      out += c.below(3) == 0 ? c.pick(kClaims) : "b";
      out += " |";
    }
    out += '\n';
  }
}

void nested(Choices& c, std::string& out) {
  std::size_t depth = c.below(40000);
  std::string_view prefix = c.pick(kPrefixes);
  bool mixed = c.below(2) != 0U;
  std::string line;
  for (std::size_t i = 0; i < depth; ++i) line += mixed ? c.pick(kPrefixes) : prefix;
  out += line;
  out += c.pick(kClaims);
  out += '\n';
}

}  // namespace

std::string generate_markdown(Choices& c) {
  static constexpr std::string_view kHeadings[] = {"# Security\n",     "## Threat model\n",
                                                   "### Isolation\n",  "Sandbox\n=======\n",
                                                   "## Limitations\n", "## Roadmap\n"};
  std::string out;
  while (!c.done() && out.size() < (5U << 20)) {
    switch (c.below(6)) {
      case 0:
        out += c.pick(kHeadings);
        break;
      case 1:
        table(c, out);
        break;
      case 2:
        nested(c, out);
        break;
      case 3:
        out += "```sh\npodman run --cap-add ALL agent\n```\n";
        break;
      default:
        out += c.pick(kClaims);
        out += c.below(2) != 0U ? "\n" : "\n\n";
    }
  }
  return out;
}

// ---- Configuration and user rules -----------------------------------------------------------

namespace {

// A value of any YAML type, for the one key in four that gets a wrong one.
constexpr std::string_view kScalars[] = {"0",
                                         "-1",
                                         "99999999999999999999",
                                         "true",
                                         "null",
                                         "\"\"",
                                         "[]",
                                         "{}",
                                         "x",
                                         "~",
                                         "'*'",
                                         "\"(a+)+$\"",
                                         "[*a, *a]",
                                         "!!binary aGk=",
                                         "{a: &a [1, 2]}"};

// A key of `.sbreview.yaml` with a value it accepts.
struct Entry {
  std::string_view key;
  std::string_view good;
};
constexpr Entry kConfig[] = {
    {"fail_on: ", "critical"},
    {"exclude: ", "[\"vendor/**\", \"**/*.md\"]"},
    {"include: ", "[deploy, run.sh]"},
    {"limits:\n  wall_clock_seconds: 0\n  max_file_bytes: ", "1024"},
    {"cluster:\n  seccomp_default: true\n  pod_pids_limit: ", "1024"},
    {"secrets:\n  intended: ", "[TOKEN]"},
    {"threat_classes:\n- match: {path: \"deploy/*\"}\n  class: ", "untrusted-input"},
    {"rules:\n  SB1001: {enabled: false}\n  SB1005: ", "{severity: low}"},
    {"suppressions:\n- path: \"deploy/**\"\n  reason: r\n  rule: ", "ACME-fuzz"},
    {"acceptances:\n- rule: SB1005\n  match: {kind: Pod, path: \"deploy/*\"}\n  reason: ",
     "reviewed"},
    {"documents:\n- path: ", "\"*.md\""},
    {"helm:\n  charts:\n  - path: ", "chart"}};

// A rule's matcher: what it walks, conditions on that thing, where it points and a message
// of its fields.
struct Matcher {
  std::string_view each;
  std::string_view where[3];
  std::string_view at;
  std::string_view text;
};
constexpr Matcher kMatchers[] = {
    {"workload",
     {"threat: [untrusted-code, multi-tenant]",
      "image: {present: true, not_regex: \"^registry\\\\.example/\"}",
      "image: {regex: \"(a*)*b\"}"},
     "anchor.container",
     "{workload} runs `{image}`"},
    {"mount",
     {"kind: hostPath", "source: {present: true}", "source_class: runtime-socket"},
     "[source, target, workload.anchor.container]",
     "{source} at {target}"},
    {"env",
     {"name: TOKEN", "value: {regex: \"^x\"}", "not: {value: {present: false}}"},
     "name",
     "{name}"},
    {"invocation",
     {"command: [podman, docker]", "line: {regex: \"--privileged\"}", "line: {regex: \"^sudo \"}"},
     "line",
     "{line}"},
    {"port", {"bound: true", "is_host_port: false", "publish_all: true"}, "spec", "a port"},
    {"nonsense",
     {"any: [{image: x}]", "identity.privileged: true", "source: literal"},
     "nowhere",
     ""}};

// Message templates the loader refuses.
constexpr std::string_view kBadTemplates[] = {"{nope}", "{", "}{", "{workload"};

std::string value_for(Choices& c, std::string_view good) {
  return std::string(c.below(8) == 7 ? c.pick(kScalars) : good);
}

// Mostly what the loader accepts, so that most inputs reach the checks; one choice in 16 is a
// mistake a rule's author makes (a field of another kind, a regex RE2 refuses, a bad template).
bool mistake(Choices& c) {
  return c.below(16) == 15;  // never once the bytes run out
}

std::string template_for(Choices& c, const Matcher& m) {
  return "\"" + std::string(mistake(c) ? c.pick(kBadTemplates) : m.text) + "\"";
}

std::string generate_rule(Choices& c) {
  const Matcher& m =
      kMatchers[mistake(c) ? std::size(kMatchers) - 1 : c.below(std::size(kMatchers) - 1)];
  std::string rule = "id: " + std::string(mistake(c) ? "SB1001" : "ACME-fuzz") +
                     "\nslug: fuzz\ntitle: A rule\ninvariant: " +
                     std::to_string(mistake(c) ? c.below(9) : 1 + c.below(7)) +
                     "\nseverity: " + value_for(c, "high") +
                     "\napplies_to: [kubernetes, launcher, compose, devcontainer]\n"
                     "origin: {kind: past-review, detail: fuzz}\nsummary: " +
                     template_for(c, m) + "\nmessage: m\nremediation: r\nreferences: []\n";
  std::string where;
  for (std::string_view w : m.where) {
    if (c.below(3) != 0) where += "    " + std::string(w) + "\n";
  }
  if (mistake(c)) where += "    " + std::string(kMatchers[c.below(6)].where[c.below(3)]) + "\n";
  if (mistake(c)) where += "    line: {regex: \"[\"}\n";
  rule += "match:\n  each: " + std::string(m.each) + "\n";
  if (!where.empty()) rule += "  where:\n" + where;
  rule += "  at: " + value_for(c, m.at) + "\n  fact: " + template_for(c, m) + "\n";
  return rule;
}

}  // namespace

GeneratedConfig generate_config(Choices& c) {
  GeneratedConfig g;
  g.config = "version: 1\nrule_prefix: ACME\n";
  bool used[std::size(kConfig)] = {};
  for (std::size_t n = c.below(6); n > 0; --n) {
    std::size_t i = c.below(std::size(kConfig));
    if (used[i]) continue;  // a key twice is an error the loader already reports on any input
    used[i] = true;
    g.config += std::string(kConfig[i].key) + value_for(c, kConfig[i].good) + "\n";
  }
  g.rule = generate_rule(c);
  return g;
}

}  // namespace sbr::fuzz
