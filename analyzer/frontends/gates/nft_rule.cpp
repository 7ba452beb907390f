// One nft rule statement: the matches an egress verdict depends on (destination, ports,
// protocol, output interface, conntrack state, socket owner) and the verdict. Everything else
// (counters, logging, comments, limits) is skipped without failing.
#include <set>

#include "analyzer/frontends/gates/nft_parser.h"

namespace sbr::gates {
namespace {

int service_port(const std::string& s) {
  static const std::map<std::string, int> names = {
      {"http", 80}, {"https", 443}, {"domain", 53}, {"ssh", 22},   {"ntp", 123},
      {"smtp", 25}, {"dns", 53},    {"ftp", 21},    {"imap", 143}, {"imaps", 993}};
  if (auto it = names.find(s); it != names.end()) return it->second;
  if (s.empty() || s.size() > 5) return -1;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
  }
  int v = std::stoi(s);
  return v <= 65535 ? v : -1;
}

void add_ports(const std::vector<Value>& vals, const std::string& proto, Rule& r) {
  for (const Value& v : vals) {
    std::string s = v.text;
    size_t dash = s.find('-');
    int a = service_port(dash == std::string::npos ? s : s.substr(0, dash));
    int b = dash == std::string::npos ? a : service_port(s.substr(dash + 1));
    if (a < 0 || b < 0) {
      // A port the renderer could not resolve: every port, until proven narrower.
      r.ports.push_back({proto, 0, 0});
    } else {
      r.ports.push_back({proto, a, b});
    }
  }
}

bool is_op(const std::string& w) {
  return w == "==" || w == "!=" || w == "eq" || w == "ne";
}

// Statement keywords that take a fixed number of operands and mean nothing for egress.
const std::map<std::string, int>& skipped_with_args() {
  static const std::map<std::string, int> m = {
      {"prefix", 1},  {"level", 1},   {"group", 1}, {"snaplen", 1}, {"queue-threshold", 1},
      {"comment", 1}, {"packets", 1}, {"bytes", 1}, {"flags", 1},   {"burst", 1},
      {"with", 0},    {"counter", 0}, {"log", 0},   {"notrack", 0}};
  return m;
}

}  // namespace

std::vector<Value> parse_nft_values(const std::vector<Token>& t, size_t& i, size_t end,
                                    const Defines& defs, std::string& error) {
  std::vector<Value> out;
  auto one = [&](const Token& tok) {
    if (!tok.symbolic && tok.text.size() > 1 && tok.text[0] == '$') {
      auto it = defs.find(tok.text.substr(1));
      if (it == defs.end()) {
        error = "undefined variable " + tok.text;
        return;
      }
      out.insert(out.end(), it->second.begin(), it->second.end());
      return;
    }
    out.push_back({tok.text, tok.symbolic, tok.host_net});
  };
  if (i >= end) {
    error = "missing value";
    return out;
  }
  if (t[i].kind == TokKind::LBrace) {
    ++i;
    bool first_of_element = true;
    while (i < end && t[i].kind != TokKind::RBrace) {
      if (t[i].kind == TokKind::Comma || t[i].kind == TokKind::Newline) {
        first_of_element = true;
      } else if (first_of_element && (t[i].kind == TokKind::Word || t[i].kind == TokKind::String)) {
        one(t[i]);
        first_of_element = false;
      }
      ++i;
    }
    if (i >= end) {
      error = "unterminated set";
      return out;
    }
    ++i;  // '}'
    return out;
  }
  one(t[i]);
  ++i;
  // `ct state established,related`: a list written without braces.
  while (i + 1 < end && t[i].kind == TokKind::Comma && t[i + 1].kind == TokKind::Word) {
    one(t[i + 1]);
    i += 2;
  }
  return out;
}

bool parse_nft_rule(const std::vector<Token>& t, size_t begin, size_t end, const Defines& defs,
                    Rule& r, std::string& error, Location& error_at) {
  r.from = t[begin].from;
  size_t i = begin;
  auto word = [&](size_t k) -> std::string {
    return k < end && (t[k].kind == TokKind::Word || t[k].kind == TokKind::String) ? t[k].text : "";
  };
  // Reads `[op] VALUE` at i; returns the values and whether the op negates.
  auto operand = [&](bool& negated) {
    negated = false;
    if (is_op(word(i))) {
      negated = word(i) == "!=" || word(i) == "ne";
      ++i;
    }
    if (i < end && t[i].kind == TokKind::Word && !t[i].symbolic && t[i].text.size() > 1 &&
        t[i].text[0] == '@') {
      std::string set = t[i].text.substr(1);
      ++i;
      return std::pair<std::vector<Value>, std::string>{{}, set};
    }
    size_t at = i;
    const std::string next = word(i);
    if (next == "accept" || next == "drop" || next == "reject" || next == "jump" ||
        next == "goto" || next == "counter" || next == "log") {
      // A value that expanded to nothing (`tcp dport $port accept` with $port unset): keep the
      // verdict, and the value as unknown.
      return std::pair<std::vector<Value>, std::string>{{Value{"(empty value)", true}}, ""};
    }
    std::string err;
    auto vals = parse_nft_values(t, i, end, defs, err);
    if (!err.empty() && error.empty()) {
      error = err;
      error_at = t[std::min(at, end - 1)].from.at;
    }
    return std::pair<std::vector<Value>, std::string>{vals, ""};
  };
  while (i < end && error.empty()) {
    const Token& tok = t[i];
    if (tok.kind != TokKind::Word) {
      ++i;  // a stray string or separator inside a skipped statement
      continue;
    }
    const std::string w = tok.text;
    bool neg = false;
    if (w == "ip" || w == "ip6") {
      std::string field = word(i + 1);
      i += 2;
      if (field == "daddr") {
        auto [vals, set] = operand(neg);
        r.daddr.push_back({w == "ip6", neg, vals, set});
      } else if (field == "protocol" || field == "nexthdr") {
        auto [vals, set] = operand(neg);
        for (const auto& v : vals) r.protocols.push_back(v.text);
        r.only_v6 = w == "ip6";
      } else if (field == "saddr") {
        operand(neg);
        r.only_v6 = w == "ip6";
        r.selector = true;
      } else {
        operand(neg);
        r.only_v6 = w == "ip6";
        r.other_match = true;
      }
    } else if (w == "tcp" || w == "udp" || w == "sctp" || w == "dccp" || w == "th") {
      std::string field = word(i + 1);
      i += 2;
      auto [vals, set] = operand(neg);
      if (field == "dport") {
        add_ports(vals, w == "th" ? "" : w, r);
        r.ports_negated = neg;
      } else {
        if (w != "th") r.protocols.push_back(w);
        r.other_match = true;
      }
    } else if (w == "meta" || w == "l4proto" || w == "nfproto" || w == "oifname" || w == "oif" ||
               w == "iifname" || w == "iif" || w == "skuid" || w == "skgid" || w == "mark" ||
               w == "ct" || w == "fib" || w == "rt" || w == "socket" || w == "icmp" ||
               w == "icmpv6") {
      std::string key = w;
      if (w == "meta" || w == "ct" || w == "fib" || w == "rt" || w == "socket" || w == "icmp" ||
          w == "icmpv6") {
        key = w + " " + word(i + 1);
        i += 2;
      } else {
        ++i;
      }
      if (w == "ct" && word(i) == "set") {  // `ct mark set ...` is an action, not a match
        i += 2;
        continue;
      }
      auto [vals, set] = operand(neg);
      if (key == "meta l4proto" || key == "l4proto") {
        for (const auto& v : vals) r.protocols.push_back(v.text);
      } else if (key == "meta nfproto" || key == "nfproto") {
        if (!vals.empty()) r.only_v6 = (vals.front().text == "ipv6") != neg;
      } else if (key == "meta oifname" || key == "oifname" || key == "meta oif" || key == "oif") {
        bool lo = vals.size() == 1 && vals.front().text == "lo";
        if (lo && !neg) {
          r.loopback = true;
        } else {
          r.other_match = true;
        }
      } else if (key == "meta iifname" || key == "iifname" || key == "meta iif" || key == "iif") {
        r.selector = true;
      } else if (key == "meta skuid" || key == "skuid" || key == "meta skgid" || key == "skgid") {
        r.owner = true;
      } else if (key == "ct state") {
        bool returning = !vals.empty() && !neg;
        for (const auto& v : vals) {
          returning = returning && (v.text == "established" || v.text == "related");
        }
        // `ct state established,related` is one word: split it.
        if (vals.size() == 1 && vals.front().text.find(',') != std::string::npos) {
          returning = !neg && vals.front().text.find("new") == std::string::npos &&
                      vals.front().text.find("invalid") == std::string::npos;
        }
        if (returning) {
          r.established = true;
        } else {
          r.other_match = true;
        }
      } else if (key == "icmp type" || key == "icmpv6 type") {
        r.protocols.push_back(w == "icmp" ? "icmp" : "icmpv6");
      } else {
        r.other_match = true;
      }
    } else if (w == "accept" || w == "drop" || w == "reject" || w == "return" || w == "continue") {
      r.verdict = w == "accept"   ? Verdict::Accept
                  : w == "drop"   ? Verdict::Drop
                  : w == "reject" ? Verdict::Reject
                  : w == "return" ? Verdict::Return
                                  : Verdict::None;
      ++i;
    } else if (w == "jump" || w == "goto") {
      r.verdict = w == "jump" ? Verdict::Jump : Verdict::Goto;
      r.target = word(i + 1);
      i += 2;
    } else if (w == "limit" || w == "quota") {
      // Rate limits let traffic through up to a rate: they do not narrow destinations.
      ++i;
      while (i < end && t[i].kind == TokKind::Word && word(i) != "accept" && word(i) != "drop" &&
             word(i) != "reject" && word(i) != "counter" && word(i) != "log") {
        ++i;
      }
    } else if (w == "vmap" || w == "map") {
      r.other_match = true;
      ++i;
      int depth = 0;
      while (i < end) {
        if (t[i].kind == TokKind::LBrace) ++depth;
        if (t[i].kind == TokKind::RBrace && --depth <= 0) {
          ++i;
          break;
        }
        ++i;
      }
    } else if (auto it = skipped_with_args().find(w); it != skipped_with_args().end()) {
      i += 1 + static_cast<size_t>(it->second);
    } else if (tok.symbolic) {
      // A whole match spliced from a variable: we cannot tell what it narrows.
      r.other_match = true;
      ++i;
    } else {
      ++i;
    }
  }
  if (!r.daddr.empty()) {
    bool v6 = r.daddr.front().v6;
    if (!r.only_v6) r.only_v6 = v6;
  }
  return error.empty();
}

}  // namespace sbr::gates
