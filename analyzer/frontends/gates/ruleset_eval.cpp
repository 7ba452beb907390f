// From a parsed ruleset to the egress verdict of each hook, per address family. A packet
// crosses every base chain on its hook; any of them may drop it, so an accept in one chain does
// not override a drop in another (INVARIANTS.md 5). A table of family `ip` sees only IPv4.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "analyzer/frontends/gates/ruleset.h"

namespace sbr::gates {
namespace {

constexpr int kMaxJumpDepth = 8;

bool covers(Family f, bool v6) {
  switch (f) {
    case Family::Ip:
      return !v6;
    case Family::Ip6:
      return v6;
    case Family::Inet:
      return true;
    default:
      return false;  // bridge/netdev/arp tables do not see routed container egress here
  }
}

const char* family_name(Family f) {
  switch (f) {
    case Family::Ip:
      return "ip";
    case Family::Ip6:
      return "ip6";
    case Family::Inet:
      return "inet";
    case Family::Arp:
      return "arp";
    case Family::Bridge:
      return "bridge";
    case Family::Netdev:
      return "netdev";
  }
  return "?";
}

bool filters(const Chain& c) {
  return c.type.empty() || c.type == "filter" || c.type == "route";
}

// A deny reached only through a non-default switch is not the default posture.
bool counts(const Provenance& p) {
  return !p.condition().needs_switch;
}

struct FamilyResult {
  bool denies = false;
  Provenance deny_from;
  std::vector<EgressAllow> allows;
  std::vector<std::string> drops;  // destinations dropped without other conditions
  // After `ip daddr != S drop`, only S is left: later accepts reach only S, and a chain that
  // falls through to an accept policy passes S on every port.
  std::optional<std::vector<Value>> restricted;
  std::vector<EgressAllow> on_fallthrough;
  std::optional<Provenance> switched;  // a deny skipped because it needs a non-default switch
};

enum class End : std::uint8_t { Continue, Policy, Accepted, Dropped };

Rule combine(const Rule& ctx, const Rule& r) {
  Rule m = r;
  m.daddr.insert(m.daddr.begin(), ctx.daddr.begin(), ctx.daddr.end());
  if (m.ports.empty()) {
    m.ports = ctx.ports;
    m.ports_negated = ctx.ports_negated;
  }
  if (m.protocols.empty()) m.protocols = ctx.protocols;
  if (!m.only_v6) m.only_v6 = ctx.only_v6;
  m.established = m.established || ctx.established;
  m.loopback = m.loopback || ctx.loopback;
  m.owner = m.owner || ctx.owner;
  m.other_match = m.other_match || ctx.other_match;
  m.selector = m.selector || ctx.selector;
  return m;
}

bool looks_like_name(const std::string& v) {
  if (v.find(':') != std::string::npos || v.find('/') != std::string::npos) return false;
  return std::any_of(v.begin(), v.end(), [](unsigned char c) {
    return std::isalpha(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F');
  });
}

class Walker {
 public:
  Walker(const Ruleset& rs, const Table& t, bool v6, FamilyResult& out)
      : rs_(rs), t_(t), v6_(v6), out_(out) {}

  End walk(const Chain& c, const Rule& ctx, int depth) {
    for (const Rule& raw : c.rules) {
      // Jumps fan out: a chain that jumps to itself from many rules must not explode.
      if (budget_ == 0) return End::Continue;
      --budget_;
      Rule r = combine(ctx, raw);
      if (!applies(r)) continue;
      switch (r.verdict) {
        case Verdict::Accept:
          if (accept(r)) return End::Accepted;
          break;
        case Verdict::Drop:
        case Verdict::Reject:
          if (drop(r)) return End::Dropped;
          break;
        case Verdict::Jump:
        case Verdict::Goto: {
          const Chain* target = t_.chain(r.target);
          if (target == nullptr || depth >= kMaxJumpDepth) break;
          Rule inner = r;
          inner.verdict = Verdict::None;
          End e = walk(*target, inner, depth + 1);
          bool unconditional = !raw.has_matches();
          if (e == End::Accepted || e == End::Dropped) {
            if (unconditional) return e;
          } else if (r.verdict == Verdict::Goto && unconditional) {
            return End::Policy;
          }
          break;
        }
        case Verdict::Return:
          if (!raw.has_matches()) return depth == 0 ? End::Policy : End::Continue;
          break;
        case Verdict::None:
          break;
      }
    }
    return End::Continue;
  }

 private:
  bool applies(const Rule& r) const {
    if (r.only_v6 && *r.only_v6 != v6_) return false;
    return std::all_of(r.daddr.begin(), r.daddr.end(),
                       [&](const AddrMatch& d) { return d.v6 == v6_; });
  }

  std::vector<Value> values(const AddrMatch& d) const {
    std::vector<Value> out = d.values;
    if (!d.set_ref.empty()) {
      const NamedSet* s = nullptr;
      if (auto it = t_.sets.find(d.set_ref); it != t_.sets.end()) s = &it->second;
      if (auto it = rs_.ipsets.find(d.set_ref); s == nullptr && it != rs_.ipsets.end()) {
        s = &it->second;
      }
      if (s != nullptr) {
        out.insert(out.end(), s->elements.begin(), s->elements.end());
      } else {
        out.push_back({"@" + d.set_ref + " (set not defined here)", true});
      }
    }
    return out;
  }

  std::vector<PortRange> ports(const Rule& r) const {
    if (!r.ports.empty() && !r.ports_negated) return r.ports;
    std::vector<PortRange> out;
    for (const auto& p : r.protocols) out.push_back({p, 0, 0});
    return out;
  }

  EgressAllow allow(const Rule& r, DestKind dest, std::string value,
                    std::vector<std::string> except) const {
    EgressAllow a;
    a.dest = dest;
    a.value = std::move(value);
    a.except = std::move(except);
    a.ports = ports(r);
    a.from = r.from;
    return a;
  }

  void add_values(const Rule& r, const std::vector<Value>& vals) {
    for (const Value& v : vals) {
      DestKind k = !v.symbolic && looks_like_name(v.text) ? DestKind::Fqdn : DestKind::Cidr;
      out_.allows.push_back(
          allow(r, k, v.text, k == DestKind::Cidr ? out_.drops : std::vector<std::string>{}));
      out_.allows.back().host_subnet_from = v.host_net;
    }
  }

  void add_any(const Rule& r, std::vector<std::string> except) {
    if (except.empty()) {
      out_.allows.push_back(allow(r, DestKind::Any, "", {}));
    } else {
      out_.allows.push_back(
          allow(r, DestKind::Cidr, v6_ ? "::/0" : "0.0.0.0/0", std::move(except)));
    }
  }

  // Returns true when the accept is unconditional: nothing after it is reached.
  bool accept(const Rule& r) {
    if (r.established || r.loopback || r.owner) return false;
    const AddrMatch* positive = nullptr;
    std::vector<std::string> except = out_.drops;
    for (const auto& d : r.daddr) {
      if (!d.negated && positive == nullptr) positive = &d;
      if (d.negated) {
        for (const auto& v : values(d)) except.push_back(v.text);
      }
    }
    if (positive != nullptr) {
      add_values(r, values(*positive));
    } else if (out_.restricted) {
      add_values(r, *out_.restricted);
    } else {
      add_any(r, except);
    }
    return !r.has_matches();
  }

  bool drop(const Rule& r) {
    if (!r.has_matches()) {
      if (!counts(r.from)) {
        if (!out_.switched) out_.switched = r.from;
        return false;
      }
      deny(r.from);
      return true;
    }
    bool only_daddr = r.ports.empty() && !r.established && !r.loopback && !r.owner &&
                      !r.other_match && r.daddr.size() == 1;
    if (!only_daddr) return false;
    const AddrMatch& d = r.daddr.front();
    if (d.negated) {
      // `ip daddr != @allow drop`: everything outside the set is dropped, in this family.
      if (counts(r.from)) deny(r.from);
      Rule as_allow = r;
      as_allow.daddr.clear();
      as_allow.protocols.clear();
      out_.restricted = values(d);
      std::vector<EgressAllow> keep;
      keep.swap(out_.allows);
      add_values(as_allow, *out_.restricted);
      out_.allows.swap(keep);
      out_.on_fallthrough.insert(out_.on_fallthrough.end(), keep.begin(), keep.end());
    } else if (r.protocols.empty()) {
      for (const auto& v : values(d)) out_.drops.push_back(v.text);
    }
    return false;
  }

  void deny(const Provenance& at) {
    if (out_.denies) return;
    out_.denies = true;
    out_.deny_from = at;
  }

  const Ruleset& rs_;
  const Table& t_;
  bool v6_;
  FamilyResult& out_;
  std::size_t budget_ = 100000;
};

struct HookResult {
  FamilyResult fam[2];
  std::optional<Provenance> switched;
  Provenance first_from;
  std::vector<std::string> tables;
};

void evaluate_hook(const Ruleset& rs, const std::string& hook, HookResult& hr) {
  for (int v6 = 0; v6 < 2; ++v6) {
    std::vector<std::string> all_drops;
    std::vector<FamilyResult> denying;
    for (const Table& t : rs.tables) {
      if (!covers(t.family, v6 != 0)) continue;
      for (const Chain& c : t.chains) {
        if (c.hook != hook || !filters(c) || (c.implicit && c.rules.empty())) continue;
        FamilyResult fr;
        Walker w(rs, t, v6 != 0, fr);
        End e = w.walk(c, Rule{}, 0);
        bool drop_policy = c.policy && *c.policy == Verdict::Drop && counts(c.policy_from);
        if (c.policy && *c.policy == Verdict::Drop && !drop_policy && !fr.switched) {
          fr.switched = c.policy_from;
        }
        if (e != End::Dropped && !drop_policy) {
          fr.allows.insert(fr.allows.end(), fr.on_fallthrough.begin(), fr.on_fallthrough.end());
        }
        if (e == End::Accepted) {
          fr.denies = false;
        } else if (drop_policy) {
          // The policy is the chain's default: point there even when a final rule also drops.
          fr.denies = true;
          fr.deny_from = c.policy_from;
        }
        if (fr.switched && !hr.switched) hr.switched = fr.switched;
        all_drops.insert(all_drops.end(), fr.drops.begin(), fr.drops.end());
        if (fr.denies) denying.push_back(std::move(fr));
      }
    }
    FamilyResult& out = hr.fam[v6];
    for (auto& fr : denying) {
      if (!out.denies) {
        out.denies = true;
        out.deny_from = fr.deny_from;
      }
      for (auto& a : fr.allows) {
        // A destination dropped by another chain on the hook never passes.
        if (a.dest == DestKind::Cidr) {
          for (const auto& d : all_drops) {
            if (std::find(a.except.begin(), a.except.end(), d) == a.except.end() && d != a.value) {
              a.except.push_back(d);
            }
          }
        }
        out.allows.push_back(std::move(a));
      }
    }
  }
  for (const Table& t : rs.tables) {
    for (const Chain& c : t.chains) {
      if (c.hook != hook || !filters(c)) continue;
      if (c.implicit && c.rules.empty()) continue;
      if (!hr.first_from.at.valid()) hr.first_from = t.from.at.valid() ? t.from : c.from;
      std::string n = fmt::format("{} {}", family_name(t.family), t.name);
      if (std::find(hr.tables.begin(), hr.tables.end(), n) == hr.tables.end()) {
        hr.tables.push_back(n);
      }
    }
  }
}

std::string allow_key(const EgressAllow& a) {
  std::string k = fmt::format("{}:{}:{}:{}|{}|", a.from.at.file, a.from.at.line, a.from.at.column,
                              static_cast<int>(a.dest), a.value);
  for (const auto& e : a.except) k += e + ",";
  for (const auto& p : a.ports) k += fmt::format("{}/{}-{};", p.protocol, p.from, p.to);
  return k;
}

}  // namespace

std::vector<EgressGate> evaluate(const Ruleset& rs, GateKind kind, const std::string& name) {
  std::vector<EgressGate> out;
  for (const char* hook : {"output", "forward"}) {
    HookResult hr;
    evaluate_hook(rs, hook, hr);
    if (hr.tables.empty()) continue;
    EgressGate g;
    g.kind = kind;
    std::string tables;
    for (const auto& t : hr.tables) tables += (tables.empty() ? "" : ", ") + t;
    g.name = fmt::format("{}{}{} (hook {})", name, name.empty() ? "" : ": ", tables, hook);
    g.hook = std::string(hook) == "output" ? GateHook::Output : GateHook::Forward;
    g.denies_v4 = hr.fam[0].denies;
    g.denies_v6 = hr.fam[1].denies;
    g.from = g.denies_v4 ? hr.fam[0].deny_from : g.denies_v6 ? hr.fam[1].deny_from : hr.first_from;
    if (!g.denies_v4 && !g.denies_v6) {
      // Denying nothing is what happens on the default path, whatever path wrote the table.
      g.from.set_condition({});
      g.switched_deny = hr.switched;
    }
    std::set<std::string> seen;
    for (auto& fr : hr.fam) {
      for (auto& a : fr.allows) {
        if (seen.insert(allow_key(a)).second) g.allows.push_back(a);
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace sbr::gates
