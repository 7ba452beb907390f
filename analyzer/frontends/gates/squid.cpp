// squid.conf as an egress gate: `acl` definitions and `http_access` lines in order. squid
// applies the first matching line; when none matches it applies the opposite of the last line,
// so a config closes only with a final `deny all` or a last `allow` that is narrow.
#include <fmt/format.h>

#include <map>
#include <sstream>

#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/gates/iptables.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

struct Acl {
  std::string type;
  std::vector<std::string> values;
  Provenance from;
};

struct Access {
  bool allow = false;
  std::vector<std::pair<bool, std::string>> acls;  // (negated, name)
  Provenance from;
};

bool is_destination_acl(const std::string& type) {
  return type == "dstdomain" || type == "dst" || type == "dstdom_regex" ||
         type == "ssl::server_name" || type == "ssl::server_name_regex";
}

// squid's predefined ACLs: `all` matches every request; the others narrow nothing we model.
bool predefined(const std::string& name) {
  return name == "all" || name == "manager" || name == "localhost" || name == "to_localhost" ||
         name == "to_linklocal";
}

class SquidReader {
 public:
  SquidReader(const SourceFile& f, FilePart& out) : f_(f), out_(out) {}

  void run() {
    std::stringstream ss(f_.bytes);
    std::string line;
    std::uint32_t n = 0;
    while (std::getline(ss, line)) {
      ++n;
      Provenance at{Location{f_.id, n, 1}, Frontend::Squid, {}};
      auto args = gates::split_line(line, at);
      if (args.empty() || args[0].text[0] == '#') continue;
      const std::string d = args[0].text;
      if (d == "acl") {
        acl(args, at);
      } else if (d == "http_access") {
        access(args, at);
      }
      if (failed_) return;
    }
    build();
  }

 private:
  void error(const std::string& msg, Location at) {
    out_.problems.push_back({ProblemKind::ParseError, "squid: " + msg, at});
    failed_ = true;
  }

  void acl(const std::vector<gates::Arg>& a, const Provenance& at) {
    if (a.size() < 3) {
      error("`acl` needs a name and a type", at.at);
      return;
    }
    Acl& x = acls_[a[1].text];
    if (x.type.empty()) {
      x.type = lower(a[2].text);
      x.from = at;
    }
    for (size_t i = 3; i < a.size(); ++i) {
      if (a[i].text[0] == '#') break;
      if (a[i].text.size() == 2 && a[i].text[0] == '-') continue;  // -i, -n flags
      x.values.push_back(a[i].text);
      // `acl x dstdomain "/etc/squid/allow.txt"`: squid reads the list from that file.
      if (a[i].text.front() == '/') list_files_.push_back(fact(a[i].text, a[i].from));
    }
  }

  void access(const std::vector<gates::Arg>& a, const Provenance& at) {
    if (a.size() < 2 || (a[1].text != "allow" && a[1].text != "deny")) {
      error("`http_access` must be followed by allow or deny", a.size() > 1 ? a[1].from.at : at.at);
      return;
    }
    Access x;
    x.allow = a[1].text == "allow";
    x.from = at;
    for (size_t i = 2; i < a.size(); ++i) {
      std::string n = a[i].text;
      if (n[0] == '#') break;
      bool neg = n[0] == '!';
      if (neg) n = n.substr(1);
      if (!predefined(n) && acls_.count(n) == 0) {
        // squid refuses to start on an undefined ACL: the proxy would not run at all.
        error("ACL `" + n + "` is not defined before use", a[i].from.at);
        return;
      }
      x.acls.push_back({neg, n});
    }
    lines_.push_back(std::move(x));
  }

  bool matches_all(const Access& x) const {
    return x.acls.size() == 1 && !x.acls[0].first && x.acls[0].second == "all";
  }

  bool is_connect_restriction(const Access& x) const {
    if (x.allow) return false;
    bool connect = false, not_ssl = false;
    for (const auto& [neg, n] : x.acls) {
      auto it = acls_.find(n);
      if (it == acls_.end()) continue;
      const Acl& acl = it->second;
      if (!neg && acl.type == "method") {
        for (const auto& v : acl.values) connect = connect || v == "CONNECT";
      }
      if (neg && acl.type == "port") not_ssl = true;
    }
    return connect && not_ssl;
  }

  std::vector<EgressAllow> destinations(const std::vector<std::pair<bool, std::string>>& acls,
                                        const Provenance& at) const {
    std::vector<EgressAllow> out;
    std::vector<PortRange> ports;
    for (const auto& [neg, n] : acls) {
      auto it = acls_.find(n);
      if (neg || it == acls_.end() || it->second.type != "port") continue;
      for (const auto& v : it->second.values) {
        size_t dash = v.find('-');
        int a = std::atoi(v.c_str());
        int b = dash == std::string::npos ? a : std::atoi(v.c_str() + dash + 1);
        if (a > 0) ports.push_back({"tcp", a, b});
      }
    }
    for (const auto& [neg, n] : acls) {
      auto it = acls_.find(n);
      if (neg || it == acls_.end() || !is_destination_acl(it->second.type)) continue;
      for (const auto& v : it->second.values) {
        EgressAllow e;
        bool regex = it->second.type.find("regex") != std::string::npos;
        e.dest = it->second.type == "dst" ? DestKind::Cidr : DestKind::Fqdn;
        e.value = v;
        if (regex && (v == "." || v == ".*" || v == "^.*$")) e.value = "*";
        // `acl x dstdomain "/etc/squid/allow.txt"`: the list lives in a file read at start.
        if (v.front() == '/') e.value = v + " (list read from a file)";
        e.ports = ports;
        e.from = at;
        out.push_back(std::move(e));
      }
    }
    return out;
  }

  void build() {
    EgressGate g;
    g.kind = GateKind::Squid;
    g.name = f_.path;
    g.hook = GateHook::None;
    bool restricted = false;
    bool any_allow = false;
    // After `deny !X` only X's destinations reach the later lines.
    std::optional<std::vector<std::pair<bool, std::string>>> narrowed;
    size_t last_effective = lines_.size();
    for (size_t k = 0; k < lines_.size(); ++k) {
      const Access& x = lines_[k];
      if (!x.allow) {
        if (is_connect_restriction(x) && !any_allow) restricted = true;
        if (x.acls.size() == 1 && x.acls[0].first) {
          auto it = acls_.find(x.acls[0].second);
          if (it != acls_.end() && is_destination_acl(it->second.type)) {
            narrowed = std::vector<std::pair<bool, std::string>>{{false, x.acls[0].second}};
          }
        }
        if (matches_all(x)) {
          last_effective = k;
          break;  // nothing after `deny all` is reached
        }
        continue;
      }
      any_allow = true;
      auto dests = destinations(x.acls, x.from);
      if (dests.empty() && narrowed) dests = destinations(*narrowed, x.from);
      if (dests.empty()) {
        EgressAllow e;  // no destination ACL: every destination, for the matching clients
        e.dest = DestKind::Fqdn;
        e.value = "*";
        e.from = x.from;
        dests.push_back(std::move(e));
      }
      for (auto& d : dests) g.allows.push_back(std::move(d));
      if (matches_all(x)) {
        last_effective = k;
        break;
      }
    }
    if (lines_.empty()) {
      g.denies_v4 = g.denies_v6 = true;  // no http_access line: squid denies every request
      g.from = Provenance{Location{f_.id, 1, 1}, Frontend::Squid, {}};
    } else {
      const Access& last = lines_[std::min(last_effective, lines_.size() - 1)];
      if (last_effective < lines_.size() || last.allow) {
        // A final `deny all`, or a last allow whose opposite (deny everything else) closes it.
        g.denies_v4 = g.denies_v6 = !(last.allow && matches_all(last));
        g.from = last.from;
      } else {
        // The last line denies something narrow: what matches no line is allowed.
        EgressAllow e;
        e.dest = DestKind::Fqdn;
        e.value = "*";
        e.from = last.from;
        g.allows.push_back(std::move(e));
        g.from = last.from;
      }
    }
    g.connect_restricted = fact(restricted || !any_allow, g.from);
    g.list_files = list_files_;
    ScriptFacts sf;
    sf.file = f_.id;
    sf.gates.push_back(std::move(g));
    out_.scripts.push_back(std::move(sf));
  }

  const SourceFile& f_;
  FilePart& out_;
  std::map<std::string, Acl> acls_;
  std::vector<Access> lines_;
  std::vector<Fact<std::string>> list_files_;
  bool failed_ = false;
};

}  // namespace

void read_squid_file(const SourceFile& file, FilePart& out) {
  SquidReader(file, out).run();
}

}  // namespace sbr
