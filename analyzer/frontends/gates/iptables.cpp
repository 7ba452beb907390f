#include "analyzer/frontends/gates/iptables.h"

#include <algorithm>
#include <sstream>

#include "analyzer/frontends/gates/iptables_args.h"

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
  if (!parse_command(args, v6, c, err, err_at)) {
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
      if (c.by_position) {
        if (c.insert_at < rules.size())
          rules.erase(rules.begin() + static_cast<std::ptrdiff_t>(c.insert_at));
        break;
      }
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
