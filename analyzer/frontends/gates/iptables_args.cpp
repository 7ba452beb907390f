// iptables command words: options, matches and targets into a Cmd and its Rule.
#include "analyzer/frontends/gates/iptables_args.h"

#include <algorithm>
#include <sstream>

namespace sbr::gates {

Verdict target_verdict(const std::string& t) {
  if (t == "ACCEPT") return Verdict::Accept;
  if (t == "DROP") return Verdict::Drop;
  if (t == "REJECT") return Verdict::Reject;
  if (t == "RETURN") return Verdict::Return;
  return Verdict::None;
}

namespace {

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

bool is_builtin_target(const std::string& t) {
  return t == "LOG" || t == "NFLOG" || t == "MARK" || t == "CONNMARK" || t == "MASQUERADE" ||
         t == "SNAT" || t == "DNAT" || t == "REDIRECT" || t == "NOTRACK" || t == "CT" ||
         t == "TCPMSS" || t == "AUDIT";
}

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

// One iptables command's words into a Cmd, an option at a time. Each step returns whether it
// took the word; `err` set means the command is not understood.
class ArgReader {
 public:
  ArgReader(const std::vector<Arg>& a, bool v6, Cmd& c, std::string& err, size_t& err_at)
      : a_(a), v6_(v6), c_(c), err_(err), err_at_(err_at) {}

  bool read() {
    for (size_t i = 0; i < a_.size(); ++i) {
      const std::string& w = a_[i].text;
      bool n = neg_;
      neg_ = false;
      if (w == "!") {
        neg_ = true;
      } else if (w == "-t" || w == "--table") {
        if (auto* v = val(i, w)) c_.table = v->text;
      } else if (skips_option(a_, i) || list_command(a_, i, c_)) {
        continue;
      } else if (!command(i, w) && !match(i, w, n) && !target(i, w) && !other(i, w)) {
        return false;
      }
      if (!err_.empty()) return false;
    }
    for (const auto& p : pending_ports_) add_ports(p, proto_ == "all" ? "" : proto_, c_.rule);
    if (c_.rule.ports_negated) c_.rule.other_match = true;
    return true;
  }

 private:
  const Arg* val(size_t& i, const std::string& opt) {
    if (i + 1 >= a_.size()) {
      err_ = "option " + opt + " needs a value";
      err_at_ = i;
      return nullptr;
    }
    return &a_[++i];
  }

  // -P, -A, -D, -N, -X, -F, -I: what the command does to which chain.
  bool command(size_t& i, const std::string& w) {
    if (w == "-P" || w == "--policy") {
      c_.op = 'P';
      if (auto* v = val(i, w)) c_.chain = v->text;
      if (auto* v = val(i, w)) c_.policy = v->text;
    } else if (w == "-A" || w == "--append" || w == "-D" || w == "--delete" || w == "-N" ||
               w == "--new-chain" || w == "-X" || w == "--delete-chain" || w == "-F" ||
               w == "--flush") {
      c_.op = w == "-A" || w == "--append"         ? 'A'
              : w == "-D" || w == "--delete"       ? 'D'
              : w == "-N" || w == "--new-chain"    ? 'N'
              : w == "-X" || w == "--delete-chain" ? 'X'
                                                   : 'F';
      bool optional = c_.op == 'X' || c_.op == 'F';
      if (optional) {
        if (i + 1 < a_.size() && a_[i + 1].text[0] != '-') c_.chain = a_[++i].text;
      } else if (auto* v = val(i, w)) {
        c_.chain = v->text;
      }
      // `-D CHAIN 3`: the rule at that position, not a rule spec.
      if (c_.op == 'D' && i + 1 < a_.size() && all_digits(a_[i + 1].text)) {
        c_.insert_at = std::stoul(a_[++i].text.substr(0, 9)) - 1;
        c_.by_position = true;
      }
    } else if (w == "-I" || w == "--insert") {
      c_.op = 'I';
      if (auto* v = val(i, w)) c_.chain = v->text;
      if (i + 1 < a_.size() && !a_[i + 1].text.empty() &&
          std::all_of(a_[i + 1].text.begin(), a_[i + 1].text.end(), ::isdigit)) {
        c_.insert_at = std::stoul(a_[++i].text) - 1;
      }
    } else {
      return false;
    }
    return true;
  }

  // Matches that narrow where the rule applies: destination, protocol and ports, sets, owner,
  // output interface, connection state (`n`: negated by a preceding `!`).
  bool match(size_t& i, const std::string& w, bool n) {
    if (w == "-d" || w == "--destination" || w == "--dst") {
      if (auto* v = val(i, w)) destination(*v, n);
    } else if (w == "-p" || w == "--protocol") {
      if (auto* v = val(i, w)) {
        proto_ = v->text;
        if (proto_ != "all") c_.rule.protocols.push_back(proto_);
      }
    } else if (w == "--dport" || w == "--destination-port" || w == "--dports" ||
               w == "--destination-ports") {
      if (auto* v = val(i, w)) {
        pending_ports_.push_back(v->text);
        c_.rule.ports_negated = n;
      }
    } else if (w == "--match-set") {
      const Arg* name = val(i, w);
      const Arg* dir = name ? val(i, w) : nullptr;
      if (dir != nullptr && dir->text.rfind("dst", 0) == 0) {
        c_.rule.daddr.push_back({v6_, n, {}, name->text});
      } else {
        c_.rule.other_match = true;
      }
    } else if (w == "--uid-owner" || w == "--gid-owner") {
      val(i, w);
      c_.rule.owner = true;
    } else if (w == "-o" || w == "--out-interface") {
      if (auto* v = val(i, w)) {
        bool loopback = v->text == "lo" && !n;
        (loopback ? c_.rule.loopback : c_.rule.other_match) = true;
      }
    } else if (w == "--ctstate" || w == "--state") {
      if (auto* v = val(i, w)) state(*v, n);
    } else {
      return false;
    }
    return true;
  }

  void destination(const Arg& v, bool n) {
    AddrMatch m{v6_, n, {}, ""};
    if (v.symbolic) {
      m.values.push_back({v.text, true, v.host_net});
    } else {
      for (const auto& x : split(v.text, ',')) m.values.push_back({x, false});
    }
    c_.rule.daddr.push_back(std::move(m));
  }

  // ESTABLISHED,RELATED (not negated) is the return path; any other state is a narrower match.
  void state(const Arg& v, bool n) {
    bool returning = !n;
    for (const auto& s : split(v.text, ',')) {
      returning = returning && (s == "ESTABLISHED" || s == "RELATED");
    }
    (returning ? c_.rule.established : c_.rule.other_match) = true;
  }

  bool target(size_t& i, const std::string& w) {
    if (w != "-j" && w != "--jump" && w != "-g" && w != "--goto") return false;
    if (auto* v = val(i, w)) {
      Verdict verdict = target_verdict(v->text);
      if (verdict != Verdict::None) {
        c_.rule.verdict = verdict;
      } else if (!is_builtin_target(v->text)) {
        c_.rule.verdict = w == "-g" || w == "--goto" ? Verdict::Goto : Verdict::Jump;
        c_.rule.target = v->text;
      }
    }
    return true;
  }

  // Everything else: options that do not narrow destinations, selectors, matches we do not
  // model (the rule is kept conservative: it matches something), and stray words.
  bool other(size_t& i, const std::string& w) {
    if (w == "-m" || w == "--match" || w == "--comment" || w == "--log-prefix" ||
        w == "--log-level" || w == "--reject-with" || w == "--limit" || w == "--limit-burst" ||
        w == "--icmp-type" || w == "--icmpv6-type") {
      val(i, w);
    } else if (w == "-s" || w == "--source" || w == "-i" || w == "--in-interface") {
      val(i, w);
      c_.rule.selector = true;
    } else if (w == "--sport" || w == "--source-port" || w == "--mark" || w == "--uid" ||
               w == "--src-range" || w == "--dst-range") {
      val(i, w);
      c_.rule.other_match = true;
    } else if (!w.empty() && w[0] == '-') {
      if (i + 1 < a_.size() && !a_[i + 1].text.empty() && a_[i + 1].text[0] != '-') ++i;
      c_.rule.other_match = true;
    } else if (!a_[i].symbolic && !w.empty()) {
      // (An empty word is an expansion that came out empty on the path rendered, `"$@"` of a
      // wrapper called without arguments: not something written, so not rejected.)
      err_ = "unexpected argument `" + w + "`";
      err_at_ = i;
      return false;
    } else {
      c_.rule.other_match = true;  // a spliced variable standing for several options
    }
    return true;
  }

  const std::vector<Arg>& a_;
  bool v6_;
  Cmd& c_;
  std::string& err_;
  size_t& err_at_;
  bool neg_ = false;
  std::string proto_;
  std::vector<std::string> pending_ports_;
};

}  // namespace

bool parse_command(const std::vector<Arg>& a, bool v6, Cmd& c, std::string& err, size_t& err_at) {
  return ArgReader(a, v6, c, err, err_at).read();
}

}  // namespace sbr::gates
