// Shell launchers: rendered by partial evaluation (analyzer/render/bash), then every command is
// offered to the launch frontend (container launches become workloads) and to the gate
// collector (nft/iptables/squid commands become egress gates).
#include "analyzer/frontends/bash/bash_frontend.h"

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
  sf.facts = std::move(r.facts);
  sf.gates = gates.finish(out.problems);
  sf.invocations = std::move(r.invocations);
  out.scripts.push_back(std::move(sf));
  out.problems.insert(out.problems.end(), r.problems.begin(), r.problems.end());
}

}  // namespace sbr
