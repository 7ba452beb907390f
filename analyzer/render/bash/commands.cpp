// Simple commands: unwrapping sudo/env/command/exec, builtins that change the evaluator's state
// (set, trap, read, source, eval, exit...), function calls, and recording every other command
// as an Invocation.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/path_idioms.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/render/bash/wrappers.h"
#include "analyzer/support/secrets.h"

namespace sbr::bash {

std::string Evaluator::path_of(const SyntaxTree* tree) const {
  FileId id = tree ? tree->file_id : file_.id;
  if (sources_ != nullptr && id < sources_->files.size()) return sources_->files[id].path;
  return file_.path;
}

bool is_container_launch(const Invocation& inv) {
  if (inv.argv.empty()) return false;
  const Word& w0 = inv.argv[0];
  std::string b = base_name(w0.text);
  bool engine = b == "podman" || b == "docker" || b == "nerdctl";
  if (!engine && w0.symbolic && w0.text.empty()) {
    std::string o = w0.origin;
    std::transform(o.begin(), o.end(), o.begin(), [](unsigned char c) { return std::tolower(c); });
    engine = o.find("engine") != std::string::npos || o.find("runtime") != std::string::npos ||
             o.find("docker") != std::string::npos || o.find("podman") != std::string::npos;
  }
  if (!engine) return false;
  size_t i = 1;
  while (i < inv.argv.size() && starts(inv.argv[i].text, "-")) {
    const std::string& o = inv.argv[i].text;
    bool takes = o.find('=') == std::string::npos &&
                 (o == "--context" || o == "-c" || o == "--host" || o == "-H" || o == "--url" ||
                  o == "--connection" || o == "--log-level" || o == "--config" || o == "--root" ||
                  o == "--runroot" || o == "--namespace" || o == "-n");
    i += takes ? 2 : 1;
  }
  if (i >= inv.argv.size()) return false;
  const std::string& sub = inv.argv[i].text;
  std::string next = i + 1 < inv.argv.size() ? inv.argv[i + 1].text : "";
  if (sub == "run" || sub == "create") return true;
  if (sub == "container") return next == "run" || next == "create";
  if (sub == "kube") return next == "play";
  return false;
}

const SyntaxTree* Evaluator::tree_for_source(const std::string& path_in, Location at) {
  if (sources_ == nullptr) return nullptr;
  // Resolve relative to the repository root (paths built on the script's directory) or to
  // the script's directory; never outside the root.
  if (path_in.empty() || path_in[0] == '/' || path_in[0] == '$' || path_in[0] == '~')
    return nullptr;
  std::vector<std::string> candidates;
  std::string dir = script_dir();
  if (starts(path_in, dir + "/") || dir == ".") candidates.push_back(path_in);
  candidates.push_back(dir == "." ? path_in : dir + "/" + path_in);
  candidates.push_back(path_in);
  for (const auto& c : candidates) {
    auto n = normalise_repo_path(c);
    if (!n) continue;
    for (const SourceFile& f : sources_->files) {
      if (f.path != *n || !f.readable) continue;
      auto t = parse_bash(f.bytes);
      t->file_id = f.id;
      std::string lower = f.path;
      bool script =
          lower.size() > 3 && (lower.substr(lower.size() - 3) == ".sh" ||
                               (lower.size() > 5 && lower.substr(lower.size() - 5) == ".bash"));
      t->config_file = !script;
      TSNode err = first_error(t->root());
      if (!ts_node_is_null(err)) {
        out_.problems.push_back({ProblemKind::ParseError,
                                 fmt::format("bash syntax error in sourced file {}", f.path),
                                 loc(err, t.get())});
      }
      trees_.push_back(std::move(t));
      return trees_.back().get();
    }
  }
  (void)at;
  return nullptr;
}

void Evaluator::command(TSNode n, Ctx& ctx, const std::vector<TSNode>& outer_redirects) {
  bool variant = !alt_override_.first.empty();
  if (!variant) alt_probe_.clear();
  // Words, inline assignments and redirects, in order.
  std::vector<TSNode> assigns, args, redirects = outer_redirects;
  TSNode name_node = field(n, F::name);
  for (TSNode c : named_children(n)) {
    K k = sym(c);
    if (k == K::variable_assignment)
      assigns.push_back(c);
    else if (k == K::command_name)
      continue;
    else if (k == K::file_redirect || k == K::heredoc_redirect || k == K::herestring_redirect)
      redirects.push_back(c);
    else if (k == K::comment)
      continue;
    else
      args.push_back(c);
  }
  if (ts_node_is_null(name_node)) {
    for (TSNode a : assigns) assign(a, ctx, false, false, false, false, false);
    return;
  }
  std::vector<EWord> argv;
  for (TSNode c : named_children(name_node)) {
    auto ws = expand_word(c, ctx);
    argv.insert(argv.end(), ws.begin(), ws.end());
  }
  std::vector<EWord> env_prefix;
  std::string ifs;
  for (TSNode a : assigns) {
    std::string nm(ctx.tree->slice(field(a, F::name)));
    EWord v = expand_joined(field(a, F::value), ctx);
    if (nm == "IFS") ifs = v.w.text;
    EWord e = v;
    e.w.text = nm + "=" + v.w.text;
    e.w.from = prov(a, ctx);
    env_prefix.push_back(e);
  }
  for (TSNode c : args) {
    auto ws = expand_word(c, ctx);
    argv.insert(argv.end(), ws.begin(), ws.end());
  }
  // Redirects: stdin bodies and files written.
  std::vector<EWord> stdin_words;
  Provenance stdin_from;
  std::vector<std::pair<std::string, Location>> writes;
  std::vector<std::string> write_vars;
  std::vector<bool> write_temp;
  std::string stdin_file;
  for (TSNode r : redirects) {
    if (is(r, K::heredoc_redirect)) {
      TSNode start{}, body{};
      bool dash = false;
      for (TSNode c : children(r)) {
        if (is(c, K::heredoc_start))
          start = c;
        else if (is(c, K::heredoc_body))
          body = c;
        else if (is(c, K::heredoc_dash))
          dash = true;
        else if (is(c, K::file_redirect))
          redirects.push_back(c);
      }
      std::string_view st = ctx.tree->slice(start);
      bool quoted = st.find_first_of("'\"\\") != std::string_view::npos;
      if (!ts_node_is_null(body)) {
        stdin_words = expand_heredoc(body, ctx, quoted);
        if (dash) {
          for (EWord& w : stdin_words) {
            std::string s, &t = w.w.text;
            bool bol = true;
            for (char ch : t) {
              if (bol && ch == '\t') continue;
              bol = ch == '\n';
              s += ch;
            }
            t = s;
          }
        }
        stdin_from = prov(body, ctx);
      }
    } else if (is(r, K::herestring_redirect)) {
      for (TSNode c : named_children(r)) {
        stdin_words = {expand_joined(c, ctx)};
        stdin_from = prov(c, ctx);
        break;
      }
    }
  }
  bool stdout_redirected = false;  // to a file, /dev/null or stderr: not captured by `$(...)`
  for (size_t ri = 0; ri < redirects.size(); ++ri) {
    TSNode r = redirects[ri];
    if (!is(r, K::file_redirect)) continue;
    std::string op;
    for (TSNode c : children(r))
      if (!ts_node_is_named(c)) {
        op = std::string(kind(c));
        break;
      }
    TSNode dest = field(r, F::destination);
    if (ts_node_is_null(dest)) continue;
    EWord d = expand_joined(dest, ctx);
    if (op == "<") {
      stdin_file = d.w.text;
      continue;
    }
    if (op == ">" || op == ">>" || op == "&>" || op == "&>>" || op == ">|" || op == ">&") {
      TSNode fd = field(r, F::descriptor);
      stdout_redirected = stdout_redirected || ts_node_is_null(fd) || ctx.tree->slice(fd) == "1";
    }
    if (op == ">" || op == ">>" || op == "&>" || op == "&>>" || op == ">|") {
      TSNode fd = field(r, F::descriptor);
      if (!ts_node_is_null(fd) && ctx.tree->slice(fd) != "1") continue;
      if (d.w.text == "/dev/null" || starts(d.w.text, "/dev/std") || starts(d.w.text, "/dev/fd"))
        continue;
      writes.push_back({d.w.text, loc(dest, ctx.tree)});
      write_vars.push_back(var_in(ctx.tree->slice(dest)));
      write_temp.push_back(d.temp_file);
    }
  }
  if (argv.empty()) return;
  // Peel sudo / env / timeout / nice / setpriv ... (wrappers.cpp).
  Invocation inv;
  Unwrapped u = unwrap(argv);
  if (u.lookup_only || u.start >= argv.size()) return;
  const bool via_exec = u.via_exec, via_sudo = u.via_sudo, bypass_functions = u.bypass_functions;
  for (auto& e : u.env_prefix) env_prefix.push_back(std::move(e));
  inv.wrappers = std::move(u.wrappers);
  const size_t i = u.start;
  std::vector<EWord> cmd(argv.begin() + static_cast<long>(i), argv.end());
  std::string name = cmd[0].w.symbolic ? "" : cmd[0].w.text;
  std::string bname = base_name(name);

  // Function calls.
  auto fit = st_.functions.find(name);
  if (!bypass_functions && !via_exec && fit != st_.functions.end()) {
    if (depth_ + 1 > static_cast<int>(limits_.max_call_depth)) {
      // Deep recursion (a directory walk, a fork bomb): calls below the limit are not
      // followed; the step budget stops a recursion that fans out.
      if (!recursion_reported_) {
        recursion_reported_ = true;
        out_.problems.push_back(
            {ProblemKind::BudgetExceeded,
             fmt::format("function calls nested deeper than {}: deeper calls were not rendered",
                         limits_.max_call_depth),
             loc(n, ctx.tree)});
      }
      return;
    }
    ++depth_;
    call_path_.push_back(name);
    called_.insert(name);
    std::vector<EWord> fargs(cmd.begin() + 1, cmd.end());
    for (auto& a : fargs) {
      a.keep_from = true;
      if (!a.site_role) mark_site(a, StepRole::Argument, name);
    }
    auto [body, tree] = fit->second;
    std::vector<std::string> arg_vars;
    arg_vars.reserve(args.size());
    for (TSNode a : args) arg_vars.push_back(var_in(ctx.tree->slice(a)));
    validate_from_function(body, tree, fargs, arg_vars);
    auto saved_pos = st_.positional;
    bool saved_unknown = st_.positional_unknown;
    st_.positional = fargs;
    st_.positional_unknown = false;
    st_.frames.emplace_back();
    Ctx fc = ctx;
    fc.tree = tree;
    fc.background = false;
    if (ctx.background) fc.errexit_suppressed = true;
    std::vector<TSNode> stmts;
    if (is(body, K::compound_statement) || is(body, K::subshell)) {
      for (TSNode s : named_children(body))
        if (!is(s, K::comment)) stmts.push_back(s);
    } else {
      stmts.push_back(body);
    }
    State before_sub = st_;
    for (size_t k = 0; k < stmts.size(); ++k) {
      if (st_.dead || st_.returning) break;
      Ctx sc = fc;
      sc.status = k + 1 == stmts.size() ? ctx.status : StatusUse::Unchecked;
      if (k + 1 < stmts.size() && reads_status(stmts[k + 1], tree))
        sc.status = StatusUse::StatusReadNext;
      statement(stmts[k], sc);
    }
    st_.frames.pop_back();
    st_.positional = saved_pos;
    st_.positional_unknown = saved_unknown;
    st_.returning = false;
    if (is(body, K::subshell) || ctx.background || ctx.in_pipeline_not_last) {
      // Runs in a subshell: only what it launched is kept.
      st_ = before_sub;
      st_.frames.pop_back();
      st_.positional = saved_pos;
      st_.positional_unknown = saved_unknown;
    }
    call_path_.pop_back();
    --depth_;
    return;
  }

  // Builtins that change the evaluator's state.
  if (!via_exec && !via_sudo && builtin(bname, cmd, n, ctx, stdin_words, stdin_file, ifs)) return;

  // An external command (or echo/printf): record it.
  capture_output(cmd, stdout_redirected, ctx, prov(n, ctx));
  if (out_.invocations.size() >= limits_.max_invocations) {
    abort_budget(fmt::format("more than {} commands", limits_.max_invocations), loc(n, ctx.tree));
  }
  inv.via_exec = via_exec;
  inv.via_sudo = via_sudo;
  inv.from = prov(n, ctx);
  inv.call_path = call_path_;
  for (auto& w : cmd) inv.argv.push_back(w.w);
  for (auto& w : env_prefix) inv.env_prefix.push_back(w.w);
  inv.shell.errexit = st_.opts.errexit;
  inv.shell.errexit_suppressed = ctx.errexit_suppressed;
  inv.shell.nounset = st_.opts.nounset;
  inv.shell.pipefail = st_.opts.pipefail;
  for (const Trap& t : st_.traps) inv.shell.exit_traps.push_back(t.handler);
  for (auto& w : stdin_words) inv.stdin_text += w.w.text;
  inv.stdin_from = stdin_from;
  if (inv.stdin_text.empty() && !stdin_file.empty()) {
    auto tf = tainted_files_.find(stdin_file);
    if (tf != tainted_files_.end()) stdin_words.push_back(tf->second);
  }
  note_command_facts(inv, cmd, stdin_words, ctx, writes);
  // Files written with tainted content: a later `nft -f FILE` splices it.
  for (size_t k = 0; k < writes.size(); ++k) {
    for (const auto* src : {&stdin_words, &cmd}) {
      for (size_t j = (src == &cmd ? 1 : 0); j < src->size(); ++j) {
        if ((*src)[j].w.tainted) {
          tainted_files_[writes[k].first] = (*src)[j];
          break;
        }
      }
    }
    // Secret content written to a file.
    std::string secret;
    for (auto& w : stdin_words)
      if (secret.empty()) secret = w.secret_var;
    if (bname == "echo" || bname == "printf" || bname == "cat" || bname == "tee") {
      for (size_t j = 1; j < cmd.size(); ++j)
        if (secret.empty()) secret = cmd[j].secret_var;
    }
    if (bname == "env" || bname == "printenv" || bname == "export")
      secret = secret.empty() && cmd.size() == 1 ? "the environment" : secret;
    if (!secret.empty()) {
      Write wr;
      wr.path = writes[k].first;
      wr.secret_var = secret;
      wr.from = Provenance{writes[k].second, Frontend::Bash, ctx.cond};
      wr.protected_ = st_.opts.umask_strict || write_temp[k];
      if (Var* v = write_vars[k].empty() ? nullptr : lookup(write_vars[k]))
        wr.protected_ = wr.protected_ || v->from_mktemp;
      wr.temp = write_temp[k] || starts(wr.path, "/tmp/") || starts(wr.path, "/dev/shm/");
      if (Var* v = write_vars[k].empty() ? nullptr : lookup(write_vars[k]))
        wr.temp = wr.temp || v->from_mktemp;
      secret_writes_.push_back(wr);
      if (wr.temp) {
        Resource r;
        r.start.kind = ResourceKind::TempSecretFile;
        r.start.name = wr.path;
        r.start.holds = secret;
        r.start.from = wr.from;
        if (!write_vars[k].empty()) r.idents.push_back(write_vars[k]);
        r.idents.push_back(wr.path);
        add_resource(std::move(r));
      }
    }
  }
  out_.invocations.push_back(std::move(inv));
  const Invocation& recorded = out_.invocations.back();
  if (!variant && !alt_probe_.empty()) {
    // The same command with each other value of the path-dependent scalars it expands.
    auto probes = alt_probe_;
    std::size_t variants = 0;
    for (const std::string& var : probes) {
      Var* v = lookup(var);
      if (v == nullptr) continue;
      for (std::size_t ai = 0; ai < v->alts.size() && variants < 4; ++ai, ++variants) {
        if (ctx.cond.contradicts(v->alts[ai].cond)) continue;  // no path has both
        Ctx vc = ctx;
        vc.cond = join(ctx.cond, v->alts[ai].cond);
        alt_override_ = {var, ai};
        State saved = st_;
        command(n, vc, outer_redirects);
        st_ = saved;
        alt_override_ = {"", 0};
      }
    }
    alt_probe_.clear();
    return;
  }

  // Commands run again from strings.
  if ((bname == "bash" || bname == "sh" || bname == "dash" || bname == "zsh") && cmd.size() > 2) {
    for (size_t k = 1; k + 1 < cmd.size(); ++k) {
      const std::string& o = cmd[k].w.text;
      if (!starts(o, "-") || o.find('c') == std::string::npos || starts(o, "--")) continue;
      const EWord& code = cmd[k + 1];
      if (code.w.symbolic) break;
      auto t = parse_bash(code.w.text);
      Location at = code.w.from.at;
      t->file_id = at.file;
      t->line0 = at.line - 1;
      t->column0 = at.column;  // skip the opening quote
      const SyntaxTree* tp = t.get();
      trees_.push_back(std::move(t));
      State saved = st_;
      st_.positional.assign(cmd.begin() + static_cast<long>(std::min(cmd.size(), k + 3)),
                            cmd.end());
      st_.positional_unknown = false;
      Ctx sc = ctx;
      sc.tree = tp;
      ++depth_;
      if (depth_ > static_cast<int>(limits_.max_call_depth))
        abort_budget("`sh -c` nested too deeply", at);
      call_path_.push_back(bname + " -c");
      statements(tp->root(), sc);
      call_path_.pop_back();
      --depth_;
      st_ = saved;
      break;
    }
  }
  (void)recorded;
  if (via_exec && !ctx.background && !ctx.in_pipeline_not_last) st_.dead = true;
}

}  // namespace sbr::bash
