// Shell launchers: rendered by partial evaluation (analyzer/render/bash), then every command is
// offered to the launch frontend (container launches become workloads) and to the gate
// collector (nft/iptables/squid commands become egress gates).
#include "analyzer/frontends/bash/bash_frontend.h"

#include "analyzer/frontends/bash/syntax_verdict.h"
#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/render/bash/render.h"

namespace sbr {

void read_bash_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  ++out.summary.scripts;
  bash::ScriptRender r = bash::render_script(file, ctx.sources);
  LaunchContext lc;
  lc.script = file.id;
  lc.configured_engine = ctx.launcher_engine;
  lc.sources = ctx.sources;
  GateCollector gates(ctx.sources);
  for (const Invocation& inv : r.invocations) {
    workloads_from_invocation(inv, lc, out);
    gates.add(inv);
  }
  ScriptFacts sf;
  sf.file = file.id;
  sf.observed = std::move(r.observed);
  sf.gates = gates.finish(out.problems);
  sf.invocations = std::move(r.invocations);
  out.scripts.push_back(std::move(sf));
  settle_syntax_errors(r.problems, file, ctx.sources, ctx.ask_bash);
  out.problems.insert(out.problems.end(), r.problems.begin(), r.problems.end());
}

void read_embedded_shell(FileId file, std::string_view text, std::uint32_t line,
                         std::uint32_t column, const FrontendContext& ctx, FilePart& out,
                         bool build_step) {
  if (line == 0 || column == 0 || text.empty()) return;
  // Padding puts the text where it is written, so every position the renderer reports is
  // already a position in the containing file (exact on the first line).
  SourceFile embedded;
  embedded.id = file;
  embedded.type = FileType::Shell;
  embedded.readable = true;
  embedded.bytes.assign(line - 1, '\n');
  embedded.bytes.append(column - 1, ' ');
  embedded.bytes.append(text);
  bash::ScriptRender r = bash::render_script(embedded, ctx.sources);
  ScriptFacts sf;
  sf.file = file;
  sf.observed = std::move(r.observed);
  if (build_step) {
    std::erase_if(sf.observed.splices,
                  [](const Splice& s) { return s.source == ValueSource::Environment; });
  }
  if (build_step) {
    std::erase_if(sf.observed.splices,
                  [](const Splice& s) { return s.source == ValueSource::Environment; });
  }
  sf.invocations = std::move(r.invocations);
  out.scripts.push_back(std::move(sf));
  settle_syntax_errors(r.problems, embedded, ctx.sources, ctx.ask_bash);
  // A RUN line or lifecycle command sources files of the image (`. /opt/venv/bin/activate`),
  // not of the repository: not following them is no gap in the review of the repository.
  for (Problem& p : r.problems) {
    if (p.kind != ProblemKind::SourceUnresolved) out.problems.push_back(std::move(p));
  }
}

}  // namespace sbr
