// Dockerfile/Containerfile into ImageBuild facts: base images (pinned or not), the final
// stage's USER (inherited through `FROM stage`), ENV, ADD from a URL, COPY/ADD destinations,
// RUN lines and what they grant. ARG/ENV defaults are expanded in FROM, RUN, COPY and USER.
#include <algorithm>
#include <map>

#include "analyzer/frontends/bash/bash_frontend.h"
#include "analyzer/frontends/launch/dockerfile_text.h"
#include "analyzer/frontends/launch/image_grants.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace launch {
namespace {

using dockerfile::Instruction;

// One build stage. A stage built FROM another starts with that stage's user, environment and
// working directory (ARG values are per stage and are not inherited).
struct Stage {
  std::string name;  // lower case: stage names are matched case-insensitively
  int parent = -1;   // index of the stage it is built FROM, -1 for an image
  Maybe<std::string> user;
  std::vector<EnvVar> env;
  std::map<std::string, std::string> vars;  // ARG and ENV values, for expansion
  std::string workdir = "/";
  Provenance workdir_from;  // the WORKDIR line (its FROM line while none is written)
  std::vector<ImageCopy> copies;
  std::vector<ImageGrant> grants;
  std::vector<Fact<std::string>> entrypoint, cmd;  // the script each runs, if a file
  Provenance from;
};

bool wrapper(const std::string& w) {
  static const std::vector<std::string> names = {"sh",  "bash", "dash",      "ash",
                                                 "zsh", "tini", "dumb-init", "catatonit",
                                                 "env", "exec", "--",        "tini-static"};
  std::string b = base_name(w);
  return std::find(names.begin(), names.end(), b) != names.end();
}

// The program an ENTRYPOINT/CMD runs when it is a file the image may hold: past wrappers (tini,
// dumb-init, `sh -c`) and their options, the first word; only a path or a `*.sh` name.
std::string start_program(const std::string& args) {
  std::string list = args;
  if (list.starts_with("[")) {
    for (char& ch : list)
      if (ch == '[' || ch == ']' || ch == ',') ch = ' ';
  }
  std::vector<std::string> ws = dockerfile::quoted_words(list);
  for (std::size_t i = 0; i < ws.size(); ++i) {
    if (ws[i].starts_with("-") && ws[i] != "--" && ws[i] != "-c") continue;
    if (ws[i] == "-c" && i + 1 < ws.size()) return start_program(ws[i + 1]);
    if (wrapper(ws[i]) || ws[i] == "-c") continue;
    bool file = ws[i].find('/') != std::string::npos || ws[i].ends_with(".sh");
    return file ? ws[i] : "";
  }
  return "";
}

std::string join_path(const std::string& dir, const std::string& p) {
  if (p.empty() || p[0] == '/') return p;
  return (dir.ends_with("/") ? dir : dir + "/") + p;
}

class Reader {
 public:
  explicit Reader(const SourceFile& file) : file_(file) {
    b_.file = file.id;
    b_.path = file.path;
  }

  ImageBuild read() {
    for (const auto& ins : dockerfile::instructions(file_.bytes)) step(ins);
    if (!stages_.empty()) finish();
    return std::move(b_);
  }

 private:
  Provenance at(std::uint32_t line, std::uint32_t column) const {
    return Provenance{Location{file_.id, line, column}, Frontend::Dockerfile, {}};
  }
  std::string expand(const std::string& s) const {
    return stages_.empty() ? s : dockerfile::expand_known(s, stages_.back().vars);
  }

  void step(const Instruction& ins) {
    Provenance here = at(ins.line, ins.args_column);
    const std::string& k = ins.keyword;
    if (k == "ARG") {
      arg(ins.args);
    } else if (k == "FROM") {
      from(ins.args, here);
    } else if (stages_.empty()) {
      return;  // before the first FROM only ARG means anything
    } else if (k == "USER") {
      auto ws = dockerfile::words(expand(ins.args));
      if (!ws.empty()) stages_.back().user = fact(ws[0], here);
    } else if (k == "ENV") {
      env(ins.args, here);
    } else if (k == "WORKDIR") {
      Stage& s = stages_.back();
      s.workdir = normalize_path(join_path(s.workdir, expand(trimmed(ins.args))));
      s.workdir = "/" + s.workdir;
      s.workdir_from = here;
    } else if (k == "COPY" || k == "ADD") {
      copy(ins, here);
    } else if (k == "RUN") {
      run(ins, here);
    } else if (k == "ENTRYPOINT" || k == "CMD") {
      Stage& s = stages_.back();
      auto& into = k == "ENTRYPOINT" ? s.entrypoint : s.cmd;
      into.clear();
      std::string p = start_program(expand(ins.args));
      if (p.empty()) return;
      // A bare name runs from PATH; a relative path from the WORKDIR.
      if (p.find('/') == std::string::npos) {
        for (const char* dir :
             {"/usr/local/sbin/", "/usr/local/bin/", "/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/"})
          into.push_back(fact(dir + p, here));
      } else {
        into.push_back(fact("/" + normalize_path(join_path(s.workdir, p)), here));
      }
    }
  }

  static std::string trimmed(const std::string& s) {
    auto ws = dockerfile::quoted_words(s);
    return ws.empty() ? "" : ws[0];
  }

  void arg(const std::string& args) {
    auto ws = dockerfile::words(args);
    if (ws.empty()) return;
    std::size_t eq = ws[0].find('=');
    std::string name = ws[0].substr(0, eq);
    if (stages_.empty()) {
      if (eq != std::string::npos) global_args_[name] = ws[0].substr(eq + 1);
      return;
    }
    // `ARG NAME` inside a stage takes the global default; `ARG NAME=v` its own.
    auto& vars = stages_.back().vars;
    if (eq != std::string::npos) {
      vars[name] = expand(ws[0].substr(eq + 1));
    } else if (auto g = global_args_.find(name); g != global_args_.end()) {
      vars[name] = g->second;
    }
  }

  void from(const std::string& args, const Provenance& here) {
    auto ws = dockerfile::words(args);
    std::size_t k = 0;
    while (k < ws.size() && ws[k].starts_with("--")) ++k;
    if (k >= ws.size()) return;
    BaseImage base;
    base.reference = ws[k];
    base.from = here;
    std::string resolved = dockerfile::expand_all(ws[k], global_args_);
    base.pinned = resolved.find("@sha256:") != std::string::npos;
    base.is_scratch = resolved == "scratch";
    Stage s;
    for (std::size_t i = 0; i < stages_.size(); ++i) {
      if (!stages_[i].name.empty() && stages_[i].name == lower(resolved)) {
        s = stages_[i];
        s.parent = static_cast<int>(i);
        s.copies.clear();
        s.grants.clear();
        base.is_stage = true;
      }
    }
    if (resolved.empty()) base.is_stage = true;  // unresolved ARG: not judged
    s.vars.clear();
    for (const EnvVar& e : s.env) s.vars[e.name] = e.value;
    s.name.clear();
    if (k + 2 < ws.size() && lower(ws[k + 1]) == "as") s.name = lower(ws[k + 2]);
    s.from = here;
    stages_.push_back(std::move(s));
    b_.bases.push_back(std::move(base));
  }

  void env(const std::string& args, const Provenance& here) {
    Stage& s = stages_.back();
    for (auto& [k, v] : dockerfile::env_pairs(args)) {
      // ENV X=$ARG takes a build argument: not a value written in the file.
      EnvSource src = v.find('$') != std::string::npos ? EnvSource::Symbolic : EnvSource::Literal;
      std::string value = dockerfile::expand_known(v, s.vars);
      s.vars[k] = value;
      s.env.push_back({k, v, src, "", false, here, false});
    }
  }

  void copy(const Instruction& ins, const Provenance& here);
  void run(const Instruction& ins, const Provenance& here);
  void finish();

  const SourceFile& file_;
  ImageBuild b_;
  std::map<std::string, std::string> global_args_;
  std::vector<Stage> stages_;
};

void Reader::copy(const Instruction& ins, const Provenance& here) {
  std::string args = expand(ins.args);
  if (ins.keyword == "ADD") {
    // ADD --checksum=sha256:... verifies what it downloads.
    for (const auto& w : dockerfile::words(args)) {
      bool url = w.starts_with("http://") || w.starts_with("https://");
      if (url && args.find("--checksum=") == std::string::npos)
        b_.added_urls.push_back(fact(w, here));
    }
  }
  ImageCopy c;
  c.from = here;
  auto ws = dockerfile::quoted_words(args);
  std::size_t k = 0;
  for (; k < ws.size() && ws[k].starts_with("--"); ++k) {
    if (ws[k].starts_with("--from=")) c.from_stage = ws[k].substr(7);
  }
  std::vector<std::string> operands(ws.begin() + static_cast<std::ptrdiff_t>(k), ws.end());
  if (!operands.empty() && operands.front().starts_with("[")) {
    // Exec form: ["src", "dest"]; quotes are gone, brackets and commas remain.
    std::string joined;
    for (const auto& o : operands) joined += o + " ";
    for (char& ch : joined)
      if (ch == '[' || ch == ']' || ch == ',') ch = ' ';
    operands = dockerfile::words(joined);
  }
  if (operands.size() < 2) return;
  Stage& s = stages_.back();
  std::string dest = operands.back();
  bool dir = dest.ends_with("/") || operands.size() > 2;
  c.dest = "/" + normalize_path(join_path(s.workdir, dest)) + (dir ? "/" : "");
  if (c.dest == "//") c.dest = "/";
  operands.pop_back();
  c.sources = operands;
  if (!ins.heredocs.empty() && operands.front().starts_with("<<")) {
    c.inline_text = ins.heredocs.front().body;
    c.sources.clear();
    if (is_sudoers_path(c.dest)) {
      for (auto& g : sudoers_grants(c.inline_text, c.dest, here)) s.grants.push_back(g);
    }
  }
  s.copies.push_back(std::move(c));
}

void Reader::run(const Instruction& ins, const Provenance& here) {
  // The shell's text: a heredoc-only RUN (`RUN <<EOF`) runs the heredoc's body; otherwise the
  // heredocs are part of the command line they follow.
  std::string text = ins.args;
  Provenance where = here;
  if (!ins.heredocs.empty() && text.starts_with("<<")) {
    text = ins.heredocs.front().body;
    where = at(ins.heredocs.front().first_line, 1);
  } else {
    for (const auto& h : ins.heredocs) text += "\n" + h.body + h.word;
  }
  std::string expanded = expand(text);
  b_.run_lines.push_back(fact(expanded, where));
  for (auto& g : shell_grants(expanded, here)) stages_.back().grants.push_back(std::move(g));
}

// The final image is the last stage with the stages it is built FROM: their copies and grants
// are in it; its user and environment are the last stage's (inherited when not set).
void Reader::finish() {
  const Stage& last = stages_.back();
  b_.final_user = last.user;
  b_.final_from = last.from;
  b_.env = last.env;
  b_.final_workdir =
      fact(last.workdir, last.workdir_from.at.valid() ? last.workdir_from : last.from);
  b_.entrypoint_scripts = last.entrypoint;
  b_.cmd_scripts = last.cmd;
  std::vector<const Stage*> chain;
  for (int i = static_cast<int>(stages_.size()) - 1; i >= 0; i = stages_[i].parent)
    chain.insert(chain.begin(), &stages_[static_cast<std::size_t>(i)]);
  for (const Stage* s : chain) {
    b_.copies.insert(b_.copies.end(), s->copies.begin(), s->copies.end());
    b_.grants.insert(b_.grants.end(), s->grants.begin(), s->grants.end());
  }
}

}  // namespace

ImageBuild parse_dockerfile(const SourceFile& file) {
  return Reader(file).read();
}

}  // namespace launch

void read_dockerfile(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  ImageBuild b = launch::parse_dockerfile(file);
  // Shell-form RUN lines run under /bin/sh -c: render them like any script, so a build that
  // pipes a download into a shell is reported where it is written. Exec form (a JSON array)
  // runs no shell.
  for (const auto& run : b.run_lines) {
    std::string_view body = run.value;
    if (body.empty() || body.front() == '[') continue;
    read_embedded_shell(file.id, body, run.from.at.line, run.from.at.column, ctx, out, true);
  }
  out.images.push_back(std::move(b));
}

}  // namespace sbr
