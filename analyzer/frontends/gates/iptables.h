// iptables/ip6tables, iptables-restore and ipset command sequences into the shared Ruleset.
// IPv4 and IPv6 rules live in tables of family ip and ip6, so a script that only writes
// iptables leaves IPv6 open, as the kernel does.
#pragma once

#include <string>
#include <vector>

#include "analyzer/frontends/gates/ruleset.h"
#include "analyzer/model/model.h"

namespace sbr::gates {

struct Arg {
  std::string text;
  bool symbolic = false;
  Provenance from;
  std::string host_net{};  // what of the host's network a symbolic value was computed from
};

// `args` are the words after the command name. Returns false on a malformed command (a
// ParseError is added): the kernel would reject it, so the ruleset is left unchanged.
bool apply_iptables(const std::vector<Arg>& args, bool v6, const Provenance& at, Ruleset& rs,
                    std::vector<Problem>& problems);
// iptables-restore input: `*filter`, `:OUTPUT DROP [0:0]`, `-A ...`, `COMMIT`.
bool apply_iptables_restore(const std::string& text, const Provenance& first_line, bool v6,
                            Ruleset& rs, std::vector<Problem>& problems);
bool apply_ipset(const std::vector<Arg>& args, const Provenance& at, Ruleset& rs,
                 std::vector<Problem>& problems);
// `ipset restore` input: one ipset command per line without the `ipset` word.
bool apply_ipset_restore(const std::string& text, const Provenance& first_line, Ruleset& rs,
                         std::vector<Problem>& problems);

// Splits a line on blanks, honouring single and double quotes; each piece carries its column.
std::vector<Arg> split_line(const std::string& line, const Provenance& at);

}  // namespace sbr::gates
