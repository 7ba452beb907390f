#include "analyzer/frontends/gates/iptables.h"

#include <algorithm>
#include <sstream>

namespace sbr::gates {
namespace {

Table& filter_table(Ruleset& rs, bool v6, const Provenance& at) {
  Family f = v6 ? Family::Ip6 : Family::Ip;
  if (Table* t = rs.table(f, "filter")) return *t;
  Table t;
  t.family = f;
  t.name = "filter";
  t.from = at;
  for (const char* c : {"INPUT", "FORWARD", "OUTPUT"}) {
    Chain ch;
    ch.name = c;
    ch.type = "filter";
    std::string hook = c;
    std::transform(hook.begin(), hook.end(), hook.begin(), ::tolower);
    ch.hook = hook;
    ch.policy = Verdict::Accept;
    ch.from = at;
    ch.implicit = true;
    t.chains.push_back(std::move(ch));
  }
  rs.tables.push_back(std::move(t));
  return rs.tables.back();
}

Chain& chain(Table& t, const std::string& name, const Provenance& at) {
  if (Chain* c = t.chain(name)) return *c;
  Chain c;
  c.name = name;
  c.from = at;
  // Docker sends every forwarded container packet through DOCKER-USER first: for egress it is
  // a FORWARD base chain that falls through.
  if (name == "DOCKER-USER") {
    c.type = "filter";
    c.hook = "forward";
    c.implicit = true;
  }
  t.chains.push_back(std::move(c));
  return t.chains.back();
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, sep)) {
    if (!x.empty()) out.push_back(x);
  }
  return out;
}

void add_ports(const std::string& spec, const std::string& proto, Rule& r) {
  for (const auto& p : split(spec, ',')) {
    size_t colon = p.find(':');
    auto num = [](const std::string& s) {
      if (s.empty() || s.size() > 5 || !std::all_of(s.begin(), s.end(), ::isdigit)) return -1;
      return std::stoi(s);
    };
    int a = num(colon == std::string::npos ? p : p.substr(0, colon));
    int b = colon == std::string::npos ? a : num(p.substr(colon + 1));
    if (a < 0 || b < 0) {
      r.ports.push_back({proto, 0, 0});
    } else {
      r.ports.push_back({proto, a, b});
    }
  }
}

Verdict target_verdict(const std::string& t) {
  if (t == "ACCEPT") return Verdict::Accept;
  if (t == "DROP") return Verdict::Drop;
  if (t == "REJECT") return Verdict::Reject;
  if (t == "RETURN") return Verdict::Return;
  return Verdict::None;
}

bool is_builtin_target(const std::string& t) {
  return t == "LOG" || t == "NFLOG" || t == "MARK" || t == "CONNMARK" || t == "MASQUERADE" ||
         t == "SNAT" || t == "DNAT" || t == "REDIRECT" || t == "NOTRACK" || t == "CT" ||
         t == "TCPMSS" || t == "AUDIT";
}

struct Cmd {
  char op = 0;            // A I D P F N X or 0 (list/check: no change)
  bool inspects = false;  // -L, -S, -C, -Z: reads or zeroes counters, changes no rule
  std::string chain;
  std::string table = "filter";
  std::string policy;
  size_t insert_at = 0;
  Rule rule;
};

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ::isdigit);
}

// Options that change how iptables runs, not what the rule matches: the xtables lock wait
// (`-w`, `-w 5`, `--wait=5`, `-W 100000`, `--wait-interval=...`), output format (`-n`, `-v`,
// `-x`, `--line-numbers`), and explicit families (`-4`, `-6`). Skips a value when it has one.
bool skips_option(const std::vector<Arg>& a, size_t& i) {
  const std::string& w = a[i].text;
  if (w == "-w" || w == "--wait" || w == "-W" || w == "--wait-interval") {
    if (i + 1 < a.size() && all_digits(a[i + 1].text)) ++i;  // the value is optional for -w
    return true;
  }
  if (w.rfind("--wait=", 0) == 0 || w.rfind("--wait-interval=", 0) == 0) return true;
  return w == "-n" || w == "--numeric" || w == "-v" || w == "--verbose" || w == "-x" ||
         w == "--exact" || w == "--line-numbers" || w == "-4" || w == "--ipv4" || w == "-6" ||
         w == "--ipv6";
}

// `-L [chain]`, `-S [chain [n]]`, `-Z [chain [n]]`, also bundled with format flags (`-nL`,
// `-nvL INPUT`): they print or zero counters and change nothing. `-C chain rule-spec` checks
// whether a rule exists: the spec is parsed, the rule is not added.
bool list_command(const std::vector<Arg>& a, size_t& i, Cmd& c) {
  const std::string& w = a[i].text;
  bool check = w == "-C" || w == "--check";
  bool list =
      w == "-L" || w == "--list" || w == "-S" || w == "--list-rules" || w == "-Z" || w == "--zero";
  if (!check && !list && w.size() > 2 && w[0] == '-' && w[1] != '-') {
    // Bundled short flags: only format letters and one list letter.
    bool ok = std::all_of(w.begin() + 1, w.end(), [](char ch) {
      return ch == 'n' || ch == 'v' || ch == 'x' || ch == 'L' || ch == 'S' || ch == 'Z';
    });
    list = ok && w.find_first_of("LSZ") != std::string::npos;
  }
  if (!check && !list) return false;
  c.op = 0;
  c.inspects = true;
  auto operand = [&] {
    return i + 1 < a.size() && !a[i + 1].text.empty() && a[i + 1].text[0] != '-';
  };
  if (operand()) c.chain = a[++i].text;
  if (list && operand() && all_digits(a[i + 1].text)) ++i;  // -S CHAIN 2
  return true;
}

bool parse(const std::vector<Arg>& a, bool v6, Cmd& c, std::string& err, size_t& err_at) {
  bool neg = false;
  std::string proto;
  std::vector<std::string> pending_ports;
  auto val = [&](size_t& i, const std::string& opt) -> const Arg* {
    if (i + 1 >= a.size()) {
      err = "option " + opt + " needs a value";
      err_at = i;
      return nullptr;
    }
    return &a[++i];
  };
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string& w = a[i].text;
    bool n = neg;
    neg = false;
    if (w == "!") {
      neg = true;
    } else if (w == "-t" || w == "--table") {
      if (auto* v = val(i, w)) c.table = v->text;
    } else if (skips_option(a, i)) {
      continue;
    } else if (list_command(a, i, c)) {
      continue;
    } else if (w == "-P" || w == "--policy") {
      c.op = 'P';
      if (auto* v = val(i, w)) c.chain = v->text;
      if (auto* v = val(i, w)) c.policy = v->text;
    } else if (w == "-A" || w == "--append" || w == "-D" || w == "--delete" || w == "-N" ||
               w == "--new-chain" || w == "-X" || w == "--delete-chain" || w == "-F" ||
               w == "--flush") {
      c.op = w == "-A" || w == "--append"         ? 'A'
             : w == "-D" || w == "--delete"       ? 'D'
             : w == "-N" || w == "--new-chain"    ? 'N'
             : w == "-X" || w == "--delete-chain" ? 'X'
                                                  : 'F';
      bool optional = c.op == 'X' || c.op == 'F';
      if (optional) {
        if (i + 1 < a.size() && a[i + 1].text[0] != '-') c.chain = a[++i].text;
      } else if (auto* v = val(i, w)) {
        c.chain = v->text;
      }
    } else if (w == "-I" || w == "--insert") {
      c.op = 'I';
      if (auto* v = val(i, w)) c.chain = v->text;
      if (i + 1 < a.size() && !a[i + 1].text.empty() &&
          std::all_of(a[i + 1].text.begin(), a[i + 1].text.end(), ::isdigit)) {
        c.insert_at = std::stoul(a[++i].text) - 1;
      }
    } else if (w == "-d" || w == "--destination" || w == "--dst") {
      if (auto* v = val(i, w)) {
        AddrMatch m{v6, n, {}, ""};
        if (v->symbolic) {
          m.values.push_back({v->text, true, v->host_net});
        } else {
          for (const auto& x : split(v->text, ',')) m.values.push_back({x, false});
        }
        c.rule.daddr.push_back(std::move(m));
      }
    } else if (w == "-p" || w == "--protocol") {
      if (auto* v = val(i, w)) {
        proto = v->text;
        if (proto != "all") c.rule.protocols.push_back(proto);
      }
    } else if (w == "--dport" || w == "--destination-port" || w == "--dports" ||
               w == "--destination-ports") {
      if (auto* v = val(i, w)) {
        pending_ports.push_back(v->text);
        c.rule.ports_negated = n;
      }
    } else if (w == "--match-set") {
      const Arg* name = val(i, w);
      const Arg* dir = name ? val(i, w) : nullptr;
      if (dir != nullptr && dir->text.rfind("dst", 0) == 0) {
        c.rule.daddr.push_back({v6, n, {}, name->text});
      } else {
        c.rule.other_match = true;
      }
    } else if (w == "--uid-owner" || w == "--gid-owner") {
      val(i, w);
      c.rule.owner = true;
    } else if (w == "-o" || w == "--out-interface") {
      if (auto* v = val(i, w)) {
        if (v->text == "lo" && !n) {
          c.rule.loopback = true;
        } else {
          c.rule.other_match = true;
        }
      }
    } else if (w == "--ctstate" || w == "--state") {
      if (auto* v = val(i, w)) {
        bool returning = !n;
        for (const auto& s : split(v->text, ',')) {
          returning = returning && (s == "ESTABLISHED" || s == "RELATED");
        }
        if (returning) {
          c.rule.established = true;
        } else {
          c.rule.other_match = true;
        }
      }
    } else if (w == "-j" || w == "--jump" || w == "-g" || w == "--goto") {
      if (auto* v = val(i, w)) {
        Verdict verdict = target_verdict(v->text);
        if (verdict != Verdict::None) {
          c.rule.verdict = verdict;
        } else if (!is_builtin_target(v->text)) {
          c.rule.verdict = w == "-g" || w == "--goto" ? Verdict::Goto : Verdict::Jump;
          c.rule.target = v->text;
        }
      }
    } else if (w == "-m" || w == "--match" || w == "--comment" || w == "--log-prefix" ||
               w == "--log-level" || w == "--reject-with" || w == "--limit" ||
               w == "--limit-burst" || w == "--icmp-type" || w == "--icmpv6-type") {
      val(i, w);  // modules and options that do not narrow destinations
    } else if (w == "-s" || w == "--source" || w == "-i" || w == "--in-interface") {
      val(i, w);
      c.rule.selector = true;
    } else if (w == "--sport" || w == "--source-port" || w == "--mark" || w == "--uid" ||
               w == "--src-range" || w == "--dst-range") {
      val(i, w);
      c.rule.other_match = true;
    } else if (!w.empty() && w[0] == '-') {
      // An option we do not model: keep the rule conservative (it matches something).
      if (i + 1 < a.size() && !a[i + 1].text.empty() && a[i + 1].text[0] != '-') ++i;
      c.rule.other_match = true;
    } else if (!a[i].symbolic) {
      err = "unexpected argument `" + w + "`";
      err_at = i;
      return false;
    } else {
      c.rule.other_match = true;  // a spliced variable standing for several options
    }
    if (!err.empty()) return false;
  }
  for (const auto& p : pending_ports) add_ports(p, proto == "all" ? "" : proto, c.rule);
  if (c.rule.ports_negated) c.rule.other_match = true;
  return true;
}

}  // namespace

std::vector<Arg> split_line(const std::string& line, const Provenance& at) {
  std::vector<Arg> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i >= line.size()) break;
    Arg a;
    a.from = at;
    a.from.at.column = static_cast<std::uint32_t>(i + 1);
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
      char q = line[i];
      if (q == '"' || q == '\'') {
        size_t end = line.find(q, i + 1);
        if (end == std::string::npos) end = line.size();
        a.text += line.substr(i + 1, end - i - 1);
        i = std::min(end + 1, line.size());
      } else {
        a.text += q;
        ++i;
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

bool apply_iptables(const std::vector<Arg>& args, bool v6, const Provenance& at, Ruleset& rs,
                    std::vector<Problem>& problems) {
  Cmd c;
  std::string err;
  size_t err_at = 0;
  if (!parse(args, v6, c, err, err_at)) {
    Location where = err_at < args.size() ? args[err_at].from.at : at.at;
    problems.push_back({ProblemKind::ParseError, (v6 ? "ip6tables: " : "iptables: ") + err,
                        where.valid() ? where : at.at});
    return false;
  }
  if (c.table != "filter" || c.op == 0) return true;  // nat/mangle/raw: not an egress verdict
  Table& t = filter_table(rs, v6, at);
  c.rule.from = at;
  switch (c.op) {
    case 'P': {
      Verdict v = target_verdict(c.policy);
      if (v != Verdict::Accept && v != Verdict::Drop) {
        problems.push_back({ProblemKind::ParseError,
                            "iptables: policy must be ACCEPT or DROP, not " + c.policy, at.at});
        return false;
      }
      Chain& ch = chain(t, c.chain, at);
      ch.policy = v;
      ch.policy_from = at;
      ch.implicit = false;
      break;
    }
    case 'A':
      chain(t, c.chain, at).rules.push_back(c.rule);
      break;
    case 'I': {
      auto& rules = chain(t, c.chain, at).rules;
      size_t pos = std::min(c.insert_at, rules.size());
      rules.insert(rules.begin() + static_cast<std::ptrdiff_t>(pos), c.rule);
      break;
    }
    case 'N':
      chain(t, c.chain, at);
      break;
    case 'F':
      for (auto& ch : t.chains) {
        if (c.chain.empty() || ch.name == c.chain) ch.rules.clear();
      }
      break;
    case 'X':
      t.chains.erase(std::remove_if(t.chains.begin(), t.chains.end(),
                                    [&](const Chain& ch) {
                                      return ch.hook.empty() &&
                                             (c.chain.empty() || ch.name == c.chain);
                                    }),
                     t.chains.end());
      break;
    case 'D': {
      // Delete the first rule equal to the spec (by position in the source is not possible).
      auto& rules = chain(t, c.chain, at).rules;
      for (auto it = rules.begin(); it != rules.end(); ++it) {
        if (it->verdict == c.rule.verdict && it->daddr.size() == c.rule.daddr.size() &&
            it->ports.size() == c.rule.ports.size()) {
          rules.erase(it);
          break;
        }
      }
      break;
    }
    default:
      break;
  }
  return true;
}

bool apply_iptables_restore(const std::string& text, const Provenance& first_line, bool v6,
                            Ruleset& rs, std::vector<Problem>& problems) {
  std::stringstream ss(text);
  std::string line;
  std::string table = "filter";
  std::uint32_t n = 0;
  bool ok = true;
  while (std::getline(ss, line)) {
    Provenance at = first_line;
    at.at.line = first_line.at.line + n++;
    at.at.column = 1;
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    std::string l = line.substr(b);
    if (l[0] == '*') {
      table = l.substr(1);
      while (!table.empty() && (table.back() == '\r' || table.back() == ' ')) table.pop_back();
    } else if (l.rfind("COMMIT", 0) == 0) {
      continue;
    } else if (l[0] == ':') {
      auto parts = split_line(l.substr(1), at);
      if (parts.size() < 2 || table != "filter") continue;
      Table& t = filter_table(rs, v6, at);
      Chain& ch = chain(t, parts[0].text, at);
      Verdict v = target_verdict(parts[1].text);
      if (v == Verdict::Accept || v == Verdict::Drop) {
        ch.policy = v;
        ch.policy_from = at;
        ch.implicit = v == Verdict::Accept;
      }
    } else {
      auto args = split_line(line, at);
      std::vector<Arg> with_table = {{"-t", false, at}, {table, false, at}};
      with_table.insert(with_table.end(), args.begin(), args.end());
      ok = apply_iptables(with_table, v6, at, rs, problems) && ok;
    }
  }
  return ok;
}

bool apply_ipset(const std::vector<Arg>& args, const Provenance& at, Ruleset& rs,
                 std::vector<Problem>& problems) {
  std::vector<std::string> w;
  for (const auto& a : args) {
    if (a.text == "-exist" || a.text == "-!" || a.text == "-q" || a.text == "-quiet") continue;
    w.push_back(a.text);
  }
  if (w.empty()) return true;
  const std::string& op = w[0];
  auto need = [&](size_t k) {
    if (w.size() > k) return true;
    problems.push_back(
        {ProblemKind::ParseError, "ipset: `" + op + "` is missing arguments", at.at});
    return false;
  };
  if (op == "create" || op == "-N" || op == "n") {
    if (!need(2)) return false;
    NamedSet& s = rs.ipsets[w[1]];
    s.name = w[1];
    s.from = at;
  } else if (op == "add" || op == "-A" || op == "a") {
    if (!need(2)) return false;
    NamedSet& s = rs.ipsets[w[1]];
    if (s.name.empty()) {
      s.name = w[1];
      s.from = at;
    }
    bool symbolic = args.size() > 2 && std::any_of(args.begin() + 2, args.end(),
                                                   [](const Arg& a) { return a.symbolic; });
    std::string host_net;
    for (size_t k = 2; k < args.size() && host_net.empty(); ++k) host_net = args[k].host_net;
    s.elements.push_back({w[2], symbolic, host_net});
  } else if (op == "del" || op == "-D" || op == "d") {
    if (!need(2)) return false;
    auto& el = rs.ipsets[w[1]].elements;
    el.erase(std::remove_if(el.begin(), el.end(), [&](const Value& v) { return v.text == w[2]; }),
             el.end());
  } else if (op == "flush" || op == "-F") {
    for (auto& [name, s] : rs.ipsets) {
      if (w.size() < 2 || name == w[1]) s.elements.clear();
    }
  } else if (op == "destroy" || op == "-X" || op == "x") {
    if (w.size() < 2) {
      rs.ipsets.clear();
    } else {
      rs.ipsets.erase(w[1]);
    }
  } else if (op == "swap" || op == "-W") {
    if (!need(2)) return false;
    std::swap(rs.ipsets[w[1]].elements, rs.ipsets[w[2]].elements);
  }
  return true;
}

bool apply_ipset_restore(const std::string& text, const Provenance& first_line, Ruleset& rs,
                         std::vector<Problem>& problems) {
  std::stringstream ss(text);
  std::string line;
  std::uint32_t n = 0;
  bool ok = true;
  while (std::getline(ss, line)) {
    Provenance at = first_line;
    at.at.line = first_line.at.line + n++;
    auto args = split_line(line, at);
    if (args.empty() || args[0].text[0] == '#' || args[0].text == "COMMIT") continue;
    ok = apply_ipset(args, at, rs, problems) && ok;
  }
  return ok;
}

}  // namespace sbr::gates
