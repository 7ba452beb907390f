// The shared shape of a netfilter ruleset, whichever tool wrote it: nft files and commands and
// iptables/ip6tables/ipset command sequences are all parsed into this, and one evaluator
// (ruleset_eval.cpp) turns it into EgressGate facts. Keeping one evaluator means the hook and
// family semantics (INVARIANTS.md 5) are written once.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/provenance.h"
#include "analyzer/model/workload.h"

namespace sbr::gates {

enum class Family : std::uint8_t { Ip, Ip6, Inet, Arp, Bridge, Netdev };

// A value as written; symbolic when it came from a shell variable the renderer could not
// resolve (then `text` is the best guess or the variable's origin).
struct Value {
  std::string text;
  bool symbolic = false;
  std::string host_net{};  // computed from the host's network (host_network.h), else ""
};

struct NamedSet {
  std::string name;
  std::vector<Value> elements;
  Provenance from;
};

enum class Verdict : std::uint8_t { None, Accept, Drop, Reject, Jump, Goto, Return };

// A destination-address match: `ip daddr 1.2.3.4`, `ip6 daddr != @allow6`, `-d 10.0.0.0/8`.
struct AddrMatch {
  bool v6 = false;
  bool negated = false;
  std::vector<Value> values;  // literal values (a `{ a, b }` set is several)
  std::string set_ref;        // `@name` / `--match-set name dst`
};

struct Rule {
  std::vector<AddrMatch> daddr;  // all must match
  std::vector<PortRange> ports;  // destination ports, any of; empty = any port
  bool ports_negated = false;
  std::vector<std::string> protocols;  // `meta l4proto`, `-p`; empty = any
  std::optional<bool> only_v6;         // `meta nfproto`, or implied by an ip/ip6 match
  bool established = false;  // ct state established/related: return traffic, not an egress allow
  bool loopback = false;     // oif lo: the namespace's own loopback
  bool owner = false;        // skuid / -m owner: applies to one local user, not the workload
  bool other_match = false;  // a match we keep but do not model (mark, oifname eth0...)
  // A source address or input interface: it says which sandbox the rule is for. Launchers
  // scope their allowlist to the sandbox's bridge or subnet (`-i cni-agent -j ALLOW`), so the
  // rule is taken to apply to the sandbox being judged.
  bool selector = false;
  Verdict verdict = Verdict::None;
  std::string target;  // jump/goto chain
  Provenance from;

  bool has_matches() const {
    return !daddr.empty() || !ports.empty() || !protocols.empty() || only_v6.has_value() ||
           established || loopback || owner || other_match;
  }
};

struct Chain {
  std::string name;
  std::string type;  // filter / nat / route; "" for regular chains
  std::string hook;  // output / forward / input / prerouting...; "" for regular chains
  std::optional<Verdict> policy;
  Provenance policy_from;
  Provenance from;
  std::vector<Rule> rules;
  // An iptables built-in chain whose policy nobody set: with no rules it decides nothing, so
  // it does not make a gate of its own.
  bool implicit = false;
};

struct Table {
  Family family = Family::Inet;
  std::string name;
  Provenance from;
  std::vector<Chain> chains;
  std::map<std::string, NamedSet> sets;

  Chain* chain(const std::string& n) {
    for (auto& c : chains) {
      if (c.name == n) return &c;
    }
    return nullptr;
  }
  const Chain* chain(const std::string& n) const {
    for (const auto& c : chains) {
      if (c.name == n) return &c;
    }
    return nullptr;
  }
};

struct Ruleset {
  std::vector<Table> tables;
  std::map<std::string, NamedSet> ipsets;  // ipset sets, visible to every iptables table

  Table* table(Family f, const std::string& n) {
    for (auto& t : tables) {
      if (t.family == f && t.name == n) return &t;
    }
    return nullptr;
  }
  void remove_table(Family f, const std::string& n) {
    for (auto it = tables.begin(); it != tables.end(); ++it) {
      if (it->family == f && it->name == n) {
        tables.erase(it);
        return;
      }
    }
  }
};

// Turns a ruleset into one EgressGate per egress hook that has a base chain (output, forward).
// `kind` is Nft or Iptables; `name` prefixes the gate names.
std::vector<EgressGate> evaluate(const Ruleset& rs, GateKind kind, const std::string& name);

}  // namespace sbr::gates
