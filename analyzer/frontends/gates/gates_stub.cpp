// Placeholder until the gates frontend lands: recognises nothing.
#include "analyzer/frontends/gates/gates.h"

namespace sbr {

bool GateCollector::add(const Invocation&) { return false; }
std::vector<EgressGate> GateCollector::finish(std::vector<Problem>&) { return {}; }
void read_nft_file(const SourceFile&, FilePart&) {}
void read_squid_file(const SourceFile&, FilePart&) {}
void link_gates(Model&) {}

}  // namespace sbr
