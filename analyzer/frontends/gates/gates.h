// Egress gates: nft rulesets (files, heredocs, `nft add` commands), iptables/ip6tables/ipset
// command sequences and squid.conf, into EgressGate facts; link_gates attaches them to the
// workloads whose traffic they filter. See docs/egress-gates.md.
#pragma once

#include <vector>

#include "analyzer/frontends/frontend.h"
#include "analyzer/model/invocation.h"

namespace sbr {

// Collects the gate commands of one script in order (nft -f - <<EOF, nft add, iptables -A...).
class GateCollector {
 public:
  GateCollector() = default;
  // With the run's files, `nft -f FILE` / `iptables-restore FILE` read FILE from the repository.
  explicit GateCollector(const SourceSet* sources) : sources_(sources) {}

  // Returns true when `inv` is a gate command it consumed.
  bool add(const Invocation& inv);
  // The gates the script builds, in order. Also yields an InternalNetwork gate per
  // `podman|docker network create --internal NAME` (link_gates attaches it to workloads joining
  // NAME).
  std::vector<EgressGate> finish(std::vector<Problem>& problems);

 private:
  std::vector<Invocation> commands_;
  const SourceSet* sources_ = nullptr;
};

void read_nft_file(const SourceFile& file, FilePart& out);
void read_squid_file(const SourceFile& file, FilePart& out);

// Attaches script and file gates to the workloads they filter. Runs after every file is read.
void link_gates(Model& model);

}  // namespace sbr
