#include "analyzer/cli/options.h"

#include "analyzer/support/severity.h"

#include <cstdlib>

namespace sbr {

const char* const kUsage = R"(usage: sbreview check [options] [PATH...]
       sbreview diff BASE[..HEAD] [options] [PATH...]
       sbreview baseline --output FILE [options] [PATH...]
       sbreview render [--helm-values FILE] [--helm-set k=v] [PATH...]
       sbreview render helm [NAME] CHART [helm template's flags]
       sbreview prove [--runtime-dir DIR] [--timeout S] [--from FILE.sarif] [options] [PATH...]
       sbreview prove --self-test [--format text|json]
       sbreview rules [--invariant N] [--format text|json|markdown] [--rules DIR]
       sbreview explain ID [--rules DIR]
       sbreview test-rules DIR...
       sbreview completion bash

Reviews the configuration of sandboxes that run untrusted code: Kubernetes manifests, Helm
charts and Kustomize overlays, podman/docker launch scripts, compose files, devcontainers,
Dockerfiles, seccomp profiles and egress gates.
PATH defaults to the current directory; directories are read recursively.

options:
  --format FORMAT            text|json|sarif|github|markdown (repeatable; pairs with the
                             --output after it); github: workflow commands (annotations),
                             markdown: a summary for $GITHUB_STEP_SUMMARY or a PR comment
  -o, --output FILE          write the preceding --format to FILE (default: stdout)
  --fail-on LEVEL            critical|high|medium|low|none (default: high); exit 1 when a
                             finding at or above LEVEL is reported
  --config FILE              configuration (default: .sbreview.yaml at the git top level of
                             the first PATH, else in the current directory; with --revision,
                             .sbreview.yaml at the top of that revision)
  --revision REV             analyse the git revision REV (commit, branch, tag, HEAD~2...)
                             without checking it out; PATHs name paths in that revision,
                             relative to the current directory's place in the repository
  -C DIR                     with --revision or diff: the repository is the one containing
                             DIR, and PATHs are relative to DIR (default: the current
                             directory)
  --dump-model               print the model instead of findings
  --show-fixed               diff: also list the findings the change fixes
  --baseline FILE            check: report only the findings FILE (written by
                             `sbreview baseline --output FILE`) does not hold
  --rules DIR                user rules (*.yaml) besides the repository's .sbreview/rules/
                             (repeatable); ids X-<name> or <rule_prefix>-<name>
  --invariant N              rules: list only the rules of invariant N (0-7)
  -j, --jobs N               worker threads (default: the number of cores)
  --render=on|off            render Helm charts and Kustomize overlays (default: on); off
                             reads their files raw
  --helm-values FILE         values file for every chart, after the chart's values.yaml
                             (repeatable; later files win)
  --helm-set KEY=VALUE       value for every chart, Helm's --set syntax (repeatable)
  --helm-set-string KEY=VALUE  the same, the value kept a string (Helm's --set-string)
  --helm-set-file KEY=FILE   the same, the value the file's text (Helm's --set-file)
  --kube-version VERSION     Capabilities.KubeVersion for every chart (default v1.33.0)
  --api-versions LIST        API versions added to Capabilities.APIVersions (repeatable,
                             comma-separated)
  --runtime-dir DIR          prove: where the run's stand-ins and files go (default: $TMPDIR
                             or /tmp); removed when the run ends
  --timeout S                prove: seconds one launch (or any podman command) may take
                             (default: 30)
  --from FILE.sarif          prove: prove the findings of an earlier `check --format sarif`
  --self-test                prove: launch fixed probes and report which fields this
                             machine's podman honours
  --version                  print the version
  --help                     print this help

`render helm` takes `helm template`'s arguments (-f/--values, --set, --set-string,
--set-file, -n/--namespace, -s/--show-only, --include-crds, --skip-tests, --is-upgrade,
--kube-version, -a/--api-versions, --name-template) and prints what Helm v4's `helm template`
prints.

`diff BASE..HEAD` analyses both revisions through git (no checkout), with BASE's
configuration, and reports the findings HEAD adds; `diff BASE` compares BASE with the
working tree. --fail-on applies to the added findings only.

`prove` analyses as `check` does, then launches every workload with podman (image and command
replaced by sbreview's probe, host paths by stand-ins, only allowlisted options) and marks each
finding confirmed, refuted or not verifiable (docs/prover.md). It needs podman and root.
`rules` lists the catalog (id, severity, invariant, slug, what implements it, title); `explain`
prints a rule's page, its origin and how the prover confirms it; `test-rules DIR` runs every
rule of DIR on its bad/good fixtures (a directory named after the rule's file, beside it, or in
fixtures/rules/ beside a project's rules/) and names every annotated line that does not match.

`completion bash` prints a bash completion script (commands, options, rule ids).

exit status: 0 clean, 1 findings at or above --fail-on (test-rules: a fixture does not match),
2 usage, configuration or internal error
)";

// Parses arguments; returns an error message on bad usage.
std::optional<std::string> parse_args(const std::vector<std::string>& args, Options& o, bool& help,
                                      bool& version) {
  size_t i = 0;
  auto value = [&](const std::string& flag) -> std::optional<std::string> {
    if (i + 1 >= args.size()) return std::nullopt;
    return args[++i];
  };
  bool saw_command = false;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--" && saw_command) {
      // Everything after `--` is a PATH, even when it starts with '-' (CI passes paths from
      // inputs that way).
      o.paths.insert(o.paths.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    std::string flag = a, inline_value;
    bool has_inline = false;
    if (a.rfind("--", 0) == 0) {
      if (size_t eq = a.find('='); eq != std::string::npos) {
        flag = a.substr(0, eq);
        inline_value = a.substr(eq + 1);
        has_inline = true;
      }
    }
    auto get = [&]() -> std::optional<std::string> {
      if (has_inline) return inline_value;
      return value(flag);
    };
    if (flag == "--help" || flag == "-h") {
      help = true;
    } else if (flag == "--version") {
      version = true;
    } else if (flag == "--format") {
      auto v = get();
      if (!v ||
          (*v != "text" && *v != "json" && *v != "sarif" && *v != "github" && *v != "markdown")) {
        return "--format takes text, json, sarif, github or markdown";
      }
      o.outputs.push_back({*v, ""});
    } else if (flag == "--output" || flag == "-o") {
      auto v = get();
      if (!v) return "--output takes a file name";
      if (o.outputs.empty()) o.outputs.push_back({"text", ""});
      if (!o.outputs.back().path.empty()) return "each --output follows its own --format";
      o.outputs.back().path = *v;
    } else if (flag == "--fail-on") {
      auto v = get();
      auto sev = v ? parse_severity(*v) : std::nullopt;
      if (!v || (*v != "none" && (!sev || *sev == Severity::Note))) {
        return "--fail-on takes critical, high, medium, low or none";
      }
      o.fail_on = *v;
    } else if (flag == "--config") {
      auto v = get();
      if (!v) return "--config takes a file name";
      o.config = *v;
    } else if (flag == "--revision") {
      auto v = get();
      if (!v || v->empty()) return "--revision takes a git revision";
      o.revision = *v;
    } else if (flag == "-C") {
      auto v = get();
      if (!v || v->empty()) return "-C takes a directory";
      o.repo_dir = *v;
    } else if (flag == "--baseline") {
      auto v = get();
      if (!v || v->empty()) return "--baseline takes a file name";
      o.baseline = *v;
    } else if (flag == "--show-fixed") {
      o.show_fixed = true;
    } else if (flag == "--dump-model") {
      o.dump_model = true;
    } else if (flag == "--parse-only") {  // not in the usage text: a benchmark baseline
      o.parse_only = true;
    } else if (flag == "--jobs" || flag == "-j") {
      auto v = get();
      if (!v) return "--jobs takes a number";
      try {
        int n = std::stoi(*v);
        if (n < 1 || n > 256) return "--jobs takes a number from 1 to 256";
        o.jobs = static_cast<unsigned>(n);
      } catch (...) {
        return "--jobs takes a number";
      }
    } else if (flag == "--render") {
      auto v = get();
      if (!v || (*v != "on" && *v != "off")) return "--render takes on or off";
      o.render = *v == "on";
    } else if (flag == "--helm-values" || flag == "--helm-set" || flag == "--helm-set-string" ||
               flag == "--helm-set-file") {
      auto v = get();
      const bool pair = flag != "--helm-values";
      if (!v || v->empty()) return flag + (pair ? " takes KEY=VALUE" : " takes a file name");
      (flag == "--helm-set"          ? o.helm_set
       : flag == "--helm-set-string" ? o.helm_set_string
       : flag == "--helm-set-file"   ? o.helm_set_file
                                     : o.helm_values)
          .push_back(*v);
    } else if (flag == "--runtime-dir" || flag == "--from") {
      auto v = get();
      if (!v || v->empty())
        return flag + (flag == "--from" ? " takes a SARIF file" : " takes a directory");
      (flag == "--from" ? o.from_sarif : o.runtime_dir) = *v;
    } else if (flag == "--timeout") {
      auto v = get();
      char* end = nullptr;
      long n = v ? std::strtol(v->c_str(), &end, 10) : 0;
      if (!v || end == v->c_str() || *end != '\0' || n < 1 || n > 3600) {
        return "--timeout takes seconds, from 1 to 3600";
      }
      o.timeout = static_cast<unsigned>(n);
    } else if (flag == "--self-test") {
      o.self_test = true;
    } else if (flag == "--kube-version") {
      auto v = get();
      if (!v || v->empty()) return "--kube-version takes a version (1.30.0)";
      o.kube_version = *v;
    } else if (flag == "--api-versions") {
      auto v = get();
      if (!v || v->empty()) return "--api-versions takes API versions (group/version)";
      o.api_versions.push_back(*v);
    } else if (flag == "--rules") {
      auto v = get();
      if (!v || v->empty()) return "--rules takes a directory";
      o.rule_dirs.push_back(*v);
    } else if (flag == "--invariant") {
      auto v = get();
      if (!v || v->size() != 1 || (*v)[0] < '0' || (*v)[0] > '7') {
        return "--invariant takes a number from 0 to 7";
      }
      o.invariant = (*v)[0] - '0';
    } else if (flag == "--today") {  // for reproducible tests of acceptance expiry
      auto v = get();
      if (!v) return "--today takes a date";
      o.today = *v;
    } else if (o.command == "render" && o.paths.empty() && a == "helm") {
      // `render helm ...`: the rest is helm template's command line, read as Helm reads it.
      o.helm_template = true;
      o.helm_args.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return "unknown option " + a;
    } else if (!saw_command) {
      if (a != "check" && a != "diff" && a != "baseline" && a != "render" && a != "prove" &&
          a != "rules" && a != "explain" && a != "test-rules" && a != "completion") {
        return "unknown command `" + a + "` (try `sbreview check`)";
      }
      o.command = a;
      saw_command = true;
    } else if (o.command == "diff" && o.range.empty()) {
      o.range = a;
    } else if (o.command == "explain" && o.rule.empty()) {
      o.rule = a;
    } else {
      o.paths.push_back(a);
    }
  }
  if (!saw_command && !help && !version) return "missing command (try `sbreview check`)";
  if (o.invariant && o.command != "rules") return "--invariant is for rules";
  if (o.command == "explain" && o.rule.empty() && !help) return "explain takes a rule id";
  if (o.command == "test-rules" && o.paths.empty() && !help) {
    return "test-rules takes the directories of the rules to test";
  }
  if (o.command == "rules") {
    for (const OutputSpec& s : o.outputs) {
      if (s.format != "text" && s.format != "json" && s.format != "markdown") {
        return "rules prints --format text, json or markdown";
      }
    }
  }
  if (o.command == "diff") {
    if (o.range.empty() && !help) return "diff takes a revision range: BASE..HEAD or BASE";
    if (o.revision) return "diff reads its revisions from the range; --revision is for check";
    if (o.dump_model) return "--dump-model is for check";
  } else if (o.repo_dir && !o.revision) {
    return "-C names the repository of --revision; give --revision";
  }
  const bool prove_flags = o.runtime_dir || o.from_sarif || o.self_test || o.timeout;
  if (prove_flags && o.command != "prove") {
    return "--runtime-dir, --timeout, --from and --self-test are for prove";
  }
  if (o.command == "prove") {
    if (o.revision) return "prove launches the working tree; --revision is for check";
    if (o.dump_model || o.baseline) return "--dump-model and --baseline are for check";
    for (const OutputSpec& s : o.outputs) {
      if (s.format != "text" && s.format != "json" && s.format != "sarif") {
        return "prove writes text, json or sarif";
      }
      if (o.self_test && s.format == "sarif") return "prove --self-test writes text or json";
    }
    if (o.self_test && (o.from_sarif || !o.paths.empty())) {
      return "prove --self-test launches fixed probes; it takes no PATH or --from";
    }
  }
  if (o.command == "completion" && (o.paths.size() != 1 || o.paths[0] != "bash")) {
    return "completion takes the shell's name: bash";
  }
  if (o.command == "baseline") {
    if (o.baseline) return "--baseline is for check";
    if (o.dump_model) return "--dump-model is for check";
    for (const OutputSpec& s : o.outputs) {
      if (s.format != "text" || o.outputs.size() > 1) return "baseline takes only --output FILE";
    }
  }
  return std::nullopt;
}

}  // namespace sbr
