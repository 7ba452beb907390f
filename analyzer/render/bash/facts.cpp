// Script facts the evaluator sees as it runs (INVARIANTS.md 2, 4 and 7): fail-open security
// steps, unvalidated input spliced into code, secrets in traces, URLs and files, capabilities
// kept across the final exec, and cleanup of what the launcher starts.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {
namespace {

bool is_firewall_tool(const std::string& b) {
  return in(b, {"nft", "iptables", "ip6tables", "iptables-restore", "ip6tables-restore",
                "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft", "ipset",
                "ebtables", "arptables"});
}

// A command that changes the sandbox's security state (not a query like `nft list`).
bool security_step(const std::vector<std::string>& a) {
  if (a.empty()) return false;
  std::string b = base_name(a[0]);
  if (b == "setpriv" || b == "capsh") return true;
  if (!is_firewall_tool(b)) return false;
  for (size_t i = 1; i < a.size(); ++i) {
    const std::string& w = a[i];
    if (b == "nft" && (w == "list" || w == "-c" || w == "--check" || w == "monitor")) return false;
    if (b.find("tables") != std::string::npos && b.find("restore") == std::string::npos &&
        (w == "-L" || w == "-S" || w == "-C" || w == "--check" || w == "--list" || w == "-nL" ||
         w == "-vL" || w == "--list-rules")) {
      return false;
    }
    if (b == "ipset" && (w == "list" || w == "test" || w == "-L")) return false;
  }
  return true;
}

std::vector<std::string> slice_words(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size() && out.size() < 12) {
    size_t b = s.find_first_not_of(" \t\\\n", i);
    if (b == std::string_view::npos) break;
    size_t e = s.find_first_of(" \t\n;|&", b);
    if (e == std::string_view::npos) e = s.size();
    std::string w(s.substr(b, e - b));
    if (w.size() >= 2 && (w.front() == '"' || w.front() == '\'')) w = w.substr(1, w.size() - 2);
    out.push_back(w);
    if (e < s.size() && (s[e] == ';' || s[e] == '|' || s[e] == '&')) break;
    i = e;
  }
  return out;
}

}  // namespace

void Evaluator::add_fact(ScriptFactKind kind, std::string detail, const Provenance& at,
                         std::vector<Related> related, bool high) {
  ScriptFact f;
  f.kind = kind;
  f.detail = std::move(detail);
  f.from = at;
  f.from.frontend = Frontend::Bash;
  f.related = std::move(related);
  f.high_stakes = high;
  for (const ScriptFact& x : out_.facts) {
    if (x.kind == f.kind && x.from.at == f.from.at && x.detail == f.detail) return;
  }
  out_.facts.push_back(std::move(f));
}

bool Evaluator::node_exits(TSNode n, const SyntaxTree* tree, int depth) {
  if (ts_node_is_null(n) || depth > 8) return false;
  if (is(n, "command")) {
    std::string name(tree->slice(field(n, "name")));
    if (name == "exit" ||
        in(name, {"die", "fatal", "abort", "bail", "error_exit", "panic", "fail"}))
      return true;
    if (name == "return") {
      for (TSNode a : named_children(n)) {
        if (is(a, "command_name")) continue;
        std::string_view v = tree->slice(a);
        return v != "0";
      }
      return false;
    }
    auto f = st_.functions.find(name);
    if (f != st_.functions.end()) return node_exits(f->second.first, f->second.second, depth + 1);
    return false;
  }
  if (is(n, "function_definition")) return false;
  for (TSNode c : named_children(n)) {
    if (node_exits(c, tree, depth + 1)) return true;
  }
  return false;
}

bool Evaluator::node_is_security(TSNode n, const SyntaxTree* tree, int depth) {
  if (ts_node_is_null(n) || depth > 6) return false;
  if (is(n, "redirected_statement")) return node_is_security(field(n, "body"), tree, depth + 1);
  if (!is(n, "command")) return false;
  auto words = slice_words(tree->slice(n));
  while (!words.empty() && (words[0] == "sudo" || words[0] == "command" || words[0] == "env"))
    words.erase(words.begin());
  return security_step(words);
}

bool Evaluator::node_warns(TSNode n, const SyntaxTree* tree) {
  std::string_view t = tree->slice(n);
  return t.find(">&2") != std::string_view::npos || t.find("warn") != std::string_view::npos ||
         t.find("WARNING") != std::string_view::npos || t.find("logger") != std::string_view::npos;
}

void Evaluator::mark_validated(const std::string& var) {
  if (var.empty()) return;
  validated_.insert(var);
  if (Var* v = lookup(var)) {
    for (EWord& w : v->elems) w.w.tainted = false;
    for (Alt& a : v->alts)
      for (EWord& w : a.elems) w.w.tainted = false;
  }
}

// A function that tests its arguments and exits on failure validates the variables passed in.
void Evaluator::validate_from_function(TSNode body, const SyntaxTree* tree,
                                       const std::vector<EWord>& args,
                                       const std::vector<std::string>& arg_vars) {
  std::string_view t = tree->slice(body);
  bool tests = t.find("=~") != std::string_view::npos ||
               t.find("case ") != std::string_view::npos ||
               t.find("-gt") != std::string_view::npos || t.find("-lt") != std::string_view::npos;
  if (!tests || !node_exits(body, tree)) return;
  // Which variables? Those passed as arguments (by the caller's spelling) and globals tested.
  for (const EWord& a : args) {
    if (!a.taint_var.empty()) mark_validated(a.taint_var);
  }
  for (size_t p = t.find('$'); p != std::string_view::npos; p = t.find('$', p + 1)) {
    size_t b = p + 1;
    if (b < t.size() && t[b] == '{') ++b;
    size_t e = b;
    while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_')) ++e;
    std::string nm(t.substr(b, e - b));
    if (!nm.empty() && !std::isdigit(static_cast<unsigned char>(nm[0]))) mark_validated(nm);
  }
  // Arguments written as `"$proxy"`: the caller's variable is the one validated.
  for (const auto& v : arg_vars) mark_validated(v);
}

void Evaluator::note_splices(const Invocation& inv, const std::vector<EWord>& argv,
                             const std::vector<EWord>& stdin_words, const std::string& write_target,
                             Ctx& ctx) {
  if (argv.empty()) return;
  std::string b = argv[0].w.symbolic ? "" : base_name(argv[0].w.text);
  std::string sink;
  std::vector<const EWord*> spliced;
  auto from_args = [&](size_t first) {
    for (size_t i = first; i < argv.size(); ++i)
      if (argv[i].w.tainted) spliced.push_back(&argv[i]);
  };
  auto from_stdin = [&] {
    for (const EWord& w : stdin_words)
      if (w.w.tainted) spliced.push_back(&w);
  };
  if (b == "eval") {
    sink = "eval";
    from_args(1);
  } else if (in(b, {"sh", "bash", "dash", "zsh", "ksh"})) {
    for (size_t i = 1; i + 1 < argv.size(); ++i) {
      const std::string& o = argv[i].w.text;
      if (starts(o, "-") && !starts(o, "--") && o.find('c') != std::string::npos) {
        sink = b + " -c";
        if (argv[i + 1].w.tainted) spliced.push_back(&argv[i + 1]);
        break;
      }
    }
    if (sink.empty() && !stdin_words.empty()) {
      sink = b + " reading a script on stdin";
      from_stdin();
    }
  } else if (is_firewall_tool(b)) {
    sink = b + " rule";
    for (size_t i = 1; i < argv.size(); ++i) {
      if ((argv[i].w.text == "-f" || argv[i].w.text == "--file") && i + 1 < argv.size()) {
        auto tf = tainted_files_.find(argv[i + 1].w.text);
        if (tf != tainted_files_.end()) spliced.push_back(&tf->second);
        ++i;
        continue;
      }
      if (argv[i].w.tainted) spliced.push_back(&argv[i]);
    }
    from_stdin();
  } else if (b == "sed") {
    sink = "sed script";
    bool explicit_script = false;
    for (size_t i = 1; i < argv.size(); ++i) {
      const std::string& o = argv[i].w.text;
      if ((o == "-e" || o == "--expression") && i + 1 < argv.size()) {
        explicit_script = true;
        if (argv[i + 1].w.tainted) spliced.push_back(&argv[i + 1]);
        ++i;
      } else if (starts(o, "--expression=") && argv[i].w.tainted) {
        explicit_script = true;
        spliced.push_back(&argv[i]);
      }
    }
    if (!explicit_script) {
      for (size_t i = 1; i < argv.size(); ++i) {
        if (starts(argv[i].w.text, "-") && !argv[i].w.symbolic) continue;
        if (argv[i].w.tainted) spliced.push_back(&argv[i]);
        break;
      }
    }
  }
  if (!write_target.empty() && write_target.find("squid") != std::string::npos) {
    sink = "squid configuration";
    from_stdin();
    if (b == "echo" || b == "printf") from_args(1);
  }
  if (sink.empty()) return;
  std::set<std::string> seen;
  for (const EWord* w : spliced) {
    if (!seen.insert(w->taint_var).second) continue;
    std::vector<Related> rel;
    if (w->taint_at.valid())
      rel.push_back(Related{w->taint_at, "the unvalidated value enters here"});
    std::string what = w->w.origin.empty() ? w->taint_var : w->w.origin;
    add_fact(
        ScriptFactKind::UnvalidatedSplice,
        fmt::format("{} reaches {} without a validating check", what, sink),
        Provenance{w->w.from.at.valid() ? w->w.from.at : inv.from.at, Frontend::Bash, ctx.cond},
        rel);
  }
}

void Evaluator::note_command_facts(const Invocation& inv, const std::vector<EWord>& argv,
                                   const std::vector<EWord>& stdin_words, Ctx& ctx,
                                   const std::vector<std::pair<std::string, Location>>& writes) {
  std::vector<std::string> texts;
  for (const EWord& w : argv) texts.push_back(w.w.text);
  std::string b = argv[0].w.symbolic ? "" : base_name(argv[0].w.text);
  Provenance at = Provenance{argv[0].w.from.at, Frontend::Bash, ctx.cond};

  // Fail-open security steps.
  if (security_step(texts) && ctx.status != StatusUse::Condition &&
      ctx.status != StatusUse::Checked) {
    bool swallowed = ctx.status == StatusUse::Swallowed;
    bool errexit_stops = st_.opts.errexit && !ctx.errexit_suppressed;
    if ((swallowed || !errexit_stops) &&
        fail_open_seen_.insert({at.at.line, at.at.column}).second) {
      std::string cmdline;
      for (size_t i = 0; i < texts.size() && i < 4; ++i) cmdline += (i ? " " : "") + texts[i];
      std::vector<Related> rel;
      if (swallowed && ctx.swallowed_at.valid())
        rel.push_back(Related{ctx.swallowed_at, "the failure is swallowed here"});
      add_fact(ScriptFactKind::FailOpenStep,
               swallowed ? fmt::format("`{}` can fail and the script goes on: its failure is "
                                       "swallowed",
                                       cmdline)
                         : fmt::format("`{}` can fail and the script goes on: its status is never "
                                       "checked and errexit does not apply here",
                                       cmdline),
               at, rel);
    }
  }
  if (is_firewall_tool(b) ||
      (b == "ip" && argv.size() > 2 && !in(texts[2], {"show", "list", "ls"})) ||
      (b == "sysctl" && std::find(texts.begin(), texts.end(), "-w") != texts.end()) || b == "tc") {
    if (security_step(texts) || b == "ip" || b == "sysctl" || b == "tc") {
      if (!uses_net_admin_) net_admin_at_ = at;
      uses_net_admin_ = true;
    }
  }
  note_splices(inv, argv, stdin_words, writes.empty() ? "" : writes.front().first, ctx);

  // Secrets: traced, echoed, in URLs.
  if (st_.opts.xtrace) {
    for (const auto* list : {&argv}) {
      for (const EWord& w : *list) {
        if (w.secret_var.empty() || xtrace_seen_.count(w.secret_var)) continue;
        xtrace_seen_.insert(w.secret_var);
        add_fact(ScriptFactKind::XtraceWithSecrets,
                 fmt::format("set -x prints the value of {} in this command", w.secret_var),
                 Provenance{w.w.from.at, Frontend::Bash, ctx.cond},
                 {Related{st_.opts.xtrace_at, "set -x"}});
      }
    }
  }
  for (const EWord& w : argv) {
    const std::string& t = w.w.text;
    size_t scheme = t.find("://");
    if (scheme == std::string::npos) continue;
    size_t at_sign = t.find('@', scheme);
    size_t slash = t.find('/', scheme + 3);
    if (at_sign == std::string::npos || (slash != std::string::npos && slash < at_sign)) continue;
    std::string userinfo = t.substr(scheme + 3, at_sign - scheme - 3);
    bool has_password = userinfo.find(':') != std::string::npos;
    if (!w.secret_var.empty() || (has_password && !secrets::key_format(userinfo).empty())) {
      add_fact(ScriptFactKind::SecretInUrl,
               w.secret_var.empty() ? "a credential is written into a URL"
                                    : fmt::format("{} is put into a URL", w.secret_var),
               Provenance{w.w.from.at, Frontend::Bash, ctx.cond});
    }
  }
  if ((b == "echo" || b == "printf") && writes.empty() && !ctx.stdout_piped) {
    for (size_t i = 1; i < argv.size(); ++i) {
      if (argv[i].secret_var.empty()) continue;
      add_fact(ScriptFactKind::SecretInUrl,
               fmt::format("{} echoes {} to the terminal", b, argv[i].secret_var),
               Provenance{argv[i].w.from.at, Frontend::Bash, ctx.cond});
      break;
    }
  }
  if (b == "chmod" || b == "install") {
    bool strict = false;
    for (size_t i = 1; i < texts.size(); ++i) {
      const std::string& m = texts[i];
      if (in(m, {"600", "0600", "400", "0400", "700", "0700", "go-rwx", "og-rwx",
                 "u=rw,go=", "u=rw,g=,o=", "g-rwx,o-rwx", "go=", "og=", "u=r,go="})) {
        strict = true;
      }
      if (b == "install" && (m == "-m" || m == "--mode") && i + 1 < texts.size() &&
          in(texts[i + 1], {"600", "0600", "400", "0400"})) {
        strict = true;
      }
    }
    if (strict) {
      for (size_t i = 1; i < texts.size(); ++i)
        if (!starts(texts[i], "-")) chmodded_.insert(texts[i]);
    }
  }

  // Sudo grants: a sudoers rule or a sudo/wheel group membership written by the script
  // (a general grant lets the workload undo the gate).
  for (const auto& [path, at_w] : writes) {
    if (path.rfind("/etc/sudoers", 0) != 0) continue;
    std::string body;
    for (const EWord& w : stdin_words) body += w.w.text;
    for (size_t i = 1; i < argv.size(); ++i) body += " " + argv[i].w.text;
    if (body.find("ALL") != std::string::npos) {
      add_fact(ScriptFactKind::SudoGrant,
               fmt::format("a sudoers rule is written to {}{}", path,
                           body.find("NOPASSWD") != std::string::npos ? " (NOPASSWD)" : ""),
               Provenance{at_w, Frontend::Bash, ctx.cond});
    }
  }
  if ((b == "usermod" || b == "adduser" || b == "gpasswd") &&
      (std::find(texts.begin(), texts.end(), "sudo") != texts.end() ||
       std::find(texts.begin(), texts.end(), "wheel") != texts.end() ||
       std::any_of(texts.begin(), texts.end(), [](const std::string& t) {
         return t.find("sudo") != std::string::npos && t.find(',') != std::string::npos;
       }))) {
    add_fact(ScriptFactKind::SudoGrant, fmt::format("`{}` adds a user to the sudo group", b), at);
  }

  // Container launches.
  if (is_container_launch(inv)) {
    if (!st_.opts.errexit && !errexit_reported_) {
      errexit_reported_ = true;
      add_fact(ScriptFactKind::ErrexitMissing,
               fmt::format("`{} {}` runs without `set -e`: a failed step before it does not stop "
                           "the launch",
                           inv.argv[0].text.empty() ? inv.argv[0].origin : inv.argv[0].text,
                           inv.argv.size() > 1 ? inv.argv[1].text : ""),
               inv.from);
    }
    bool detached = ctx.background, published = false;
    std::vector<std::string> idents;
    size_t image_at = argv.size();
    for (size_t i = 1; i < argv.size(); ++i) {
      const std::string& o = argv[i].w.text;
      if (o == "-d" || o == "--detach" || o == "--detach=true")
        detached = true;
      else if (o.size() > 2 && o[0] == '-' && o[1] != '-' &&
               o.find_first_not_of("ditP", 1) == std::string::npos &&
               o.find('d') != std::string::npos)
        detached = true;
      if (o == "-p" || o == "--publish" || o == "-P" || o == "--publish-all" ||
          starts(o, "--publish=") ||
          (starts(o, "-p") && o.size() > 2 && std::isdigit(static_cast<unsigned char>(o[2]))))
        published = true;
      if (o == "--name" && i + 1 < argv.size()) idents.push_back(argv[i + 1].w.text);
      if (starts(o, "--name=")) idents.push_back(o.substr(7));
      // Extra-arguments variables from the environment reaching the engine's options.
      if (argv[i].w.symbolic && argv[i].w.tainted && i < image_at) {
        std::string v = argv[i].taint_var;
        std::string up = v;
        std::transform(up.begin(), up.end(), up.begin(),
                       [](unsigned char c) { return std::toupper(c); });
        bool hatch =
            up.find("EXTRA") != std::string::npos || up.find("_ARGS") != std::string::npos ||
            up.find("_OPTS") != std::string::npos || up.find("_FLAGS") != std::string::npos ||
            up.find("OPTIONS") != std::string::npos;
        if (hatch && argv[i].w.origin.rfind("env ", 0) == 0) {
          add_fact(ScriptFactKind::EscapeHatch,
                   fmt::format("{} passes arbitrary engine options from the environment", v),
                   Provenance{argv[i].w.from.at, Frontend::Bash, ctx.cond});
        }
      }
    }
    if (!ctx.assign_target.empty()) idents.push_back(ctx.assign_target);
    if (detached) {
      Resource r;
      r.what = idents.empty() ? "a detached container" : "container " + idents.front();
      r.idents = idents;
      r.high_stakes = published;
      r.from = inv.from;
      resources_.push_back(r);
      traps_at_start_.push_back(st_.traps);
    }
  } else if (ctx.background && !b.empty()) {
    bool forwarder = in(b, {"socat", "kubectl", "ssh", "nc", "ncat", "gost", "autossh"});
    bool proxy = in(b, {"squid", "tinyproxy", "mitmdump", "mitmproxy", "privoxy", "envoy", "3proxy",
                        "caddy", "nginx", "slirp4netns", "python", "python3"});
    if (b == "kubectl" && std::find(texts.begin(), texts.end(), "port-forward") == texts.end())
      forwarder = false;
    if ((b == "python" || b == "python3") &&
        std::find(texts.begin(), texts.end(), "http.server") == texts.end())
      proxy = false;
    if (forwarder || proxy) {
      Resource r;
      r.what = fmt::format("{} {}", forwarder ? "port forwarder" : "proxy", b);
      r.idents.push_back(b);
      r.high_stakes = forwarder;
      r.from = inv.from;
      last_background_ = static_cast<int>(resources_.size());
      resources_.push_back(r);
      traps_at_start_.push_back(st_.traps);
    }
  } else if (!b.empty() && (b == "podman" || b == "docker") && texts.size() > 2 &&
             (texts[1] == "network" || texts[1] == "pod") && texts[2] == "create") {
    Resource r;
    r.what = fmt::format("{} {}", texts[1], texts.size() > 3 ? texts.back() : "");
    for (size_t i = 3; i < texts.size(); ++i)
      if (!starts(texts[i], "-")) r.idents.push_back(texts[i]);
    if (!ctx.assign_target.empty()) r.idents.push_back(ctx.assign_target);
    r.from = inv.from;
    resources_.push_back(r);
    traps_at_start_.push_back(st_.traps);
  }

  // exec replaces the shell.
  if (inv.via_exec) {
    for (const Trap& t : st_.traps) {
      if (std::find(t.signals.begin(), t.signals.end(), "EXIT") == t.signals.end() &&
          t.signals.size() < 2)
        continue;
      add_fact(ScriptFactKind::TrapDiscardedByExec,
               fmt::format("exec replaces the shell, so the trap `{}` never runs",
                           t.handler.size() > 40 ? t.handler.substr(0, 37) + "..." : t.handler),
               inv.from, {Related{t.at, "the discarded trap"}});
      break;
    }
    if (uses_net_admin_ && !is_container_launch(inv)) {
      bool dropped = false;
      std::string switcher;
      for (size_t i = 0; i < texts.size(); ++i) {
        std::string w = base_name(texts[i]);
        if (w == "setpriv") {
          for (size_t j = i + 1; j < texts.size(); ++j) {
            if ((texts[j] == "--bounding-set" && j + 1 < texts.size() &&
                 texts[j + 1].find("-all") != std::string::npos) ||
                (starts(texts[j], "--bounding-set=") &&
                 texts[j].find("-all") != std::string::npos)) {
              dropped = true;
            }
          }
          if (!dropped) switcher = "setpriv without --bounding-set -all";
        } else if (w == "capsh") {
          for (size_t j = i + 1; j < texts.size(); ++j)
            if (starts(texts[j], "--drop=")) dropped = true;
        } else if (in(w, {"gosu", "su-exec", "runuser", "su", "chpst", "s6-setuidgid"})) {
          switcher = w;
        }
      }
      if (!dropped) {
        add_fact(
            ScriptFactKind::CapabilityKeptAtExec,
            switcher.empty() || switcher.find("setpriv") != std::string::npos
                ? fmt::format("the final exec keeps the capabilities the setup used (NET_ADMIN "
                              "for {}): the bounding set is not dropped",
                              "the firewall")
                : fmt::format("{} switches user but keeps the bounding set: NET_ADMIN used for "
                              "the firewall can be regained",
                              switcher),
            at, {Related{net_admin_at_.at, "NET_ADMIN is used here"}});
      }
    }
  }
}

}  // namespace sbr::bash
