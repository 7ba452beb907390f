// The words of one iptables/ip6tables command as a Cmd: what it does to which chain, and the
// rule it adds (iptables_args.cpp). Private to the iptables reader.
#pragma once

#include <string>
#include <vector>

#include "analyzer/frontends/gates/iptables.h"
#include "analyzer/frontends/gates/ruleset.h"

namespace sbr::gates {

struct Cmd {
  char op = 0;            // A I D P F N X or 0 (list/check: no change)
  bool inspects = false;  // -L, -S, -C, -Z: reads or zeroes counters, changes no rule
  std::string chain;
  std::string table = "filter";
  std::string policy;
  size_t insert_at = 0;  // -I CHAIN N, and -D CHAIN N when by_position
  bool by_position = false;
  Rule rule;
};

// False with `err` (and the word index `err_at`) on a command the kernel would reject.
bool parse_command(const std::vector<Arg>& a, bool v6, Cmd& c, std::string& err, size_t& err_at);

// The verdict of a terminal target (ACCEPT, DROP, REJECT, RETURN); None for any other.
Verdict target_verdict(const std::string& t);

}  // namespace sbr::gates
