// Egress gates: nft rulesets (files, heredocs, `nft add` commands), iptables/ip6tables/ipset
// command sequences and squid.conf, into EgressGate facts; link_gates attaches them to the
// workloads whose traffic they filter.
#pragma once

#include <vector>

#include "analyzer/frontends/frontend.h"
#include "analyzer/render/invocation.h"

namespace sbr {

// Collects the gate commands of one script in order (nft -f - <<EOF, nft add, iptables -A...).
class GateCollector {
 public:
  // Returns true when `inv` is a gate command it consumed.
  bool add(const Invocation& inv);
  // The gates the script builds, in order.
  std::vector<EgressGate> finish(std::vector<Problem>& problems);

 private:
  std::vector<Invocation> commands_;
};

void read_nft_file(const SourceFile& file, FilePart& out);
void read_squid_file(const SourceFile& file, FilePart& out);

// Attaches script and file gates to the workloads they filter. Runs after every file is read.
void link_gates(Model& model);

}  // namespace sbr
