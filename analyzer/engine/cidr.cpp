#include "analyzer/engine/cidr.h"

#include <arpa/inet.h>

#include <charconv>

namespace sbr::engine {
namespace {

void clear_host_bits(Cidr& c) {
  for (int i = 0; i < 16; ++i) {
    int keep = c.prefix - i * 8;  // bits of this byte inside the prefix
    if (keep >= 8) continue;
    c.addr[i] = keep <= 0 ? 0 : static_cast<std::uint8_t>(c.addr[i] & (0xff << (8 - keep)));
  }
}

bool bit(const Cidr& c, int i) {
  return (c.addr[i / 8] >> (7 - i % 8)) & 1;
}

// The two halves of a range one bit longer.
std::pair<Cidr, Cidr> halves(const Cidr& c) {
  Cidr lo = c, hi = c;
  lo.prefix = hi.prefix = c.prefix + 1;
  hi.addr[c.prefix / 8] =
      static_cast<std::uint8_t>(hi.addr[c.prefix / 8] | (0x80 >> (c.prefix % 8)));
  return {lo, hi};
}

}  // namespace

std::string Cidr::str() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, addr.data(), buf, sizeof buf);
  return std::string(buf) + "/" + std::to_string(prefix);
}

std::optional<Cidr> parse_cidr(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty() || text.size() > 64) return std::nullopt;
  std::string addr(text);
  std::optional<int> prefix;
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    addr = std::string(text.substr(0, slash));
    std::string_view p = text.substr(slash + 1);
    int v = -1;
    auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
    if (ec != std::errc() || end != p.data() + p.size() || p.empty()) return std::nullopt;
    prefix = v;
  }
  Cidr c;
  c.v6 = addr.find(':') != std::string::npos;
  if (inet_pton(c.v6 ? AF_INET6 : AF_INET, addr.c_str(), c.addr.data()) != 1) return std::nullopt;
  c.prefix = prefix.value_or(c.bits());
  if (c.prefix < 0 || c.prefix > c.bits()) return std::nullopt;
  clear_host_bits(c);
  return c;
}

bool cidr_contains(const Cidr& outer, const Cidr& inner) {
  if (outer.v6 != inner.v6 || outer.prefix > inner.prefix) return false;
  for (int i = 0; i < outer.prefix; ++i) {
    if (bit(outer, i) != bit(inner, i)) return false;
  }
  return true;
}

bool cidr_overlaps(const Cidr& a, const Cidr& b) {
  return cidr_contains(a, b) || cidr_contains(b, a);
}

bool cidr_covered_by(const Cidr& range, const std::vector<Cidr>& cover) {
  bool partly = false;
  for (const auto& c : cover) {
    if (cidr_contains(c, range)) return true;
    partly = partly || cidr_overlaps(c, range);
  }
  // Only ranges strictly inside `range` remain: it is covered when both halves are. The
  // recursion descends only where a cover range lies, so it is bounded by cover.size() * bits.
  if (!partly || range.single_host()) return false;
  auto [lo, hi] = halves(range);
  return cidr_covered_by(lo, cover) && cidr_covered_by(hi, cover);
}

const std::vector<SensitiveRange>& sensitive_ranges() {
  static const std::vector<SensitiveRange> ranges = {
      {"169.254.169.254/32", "cloud metadata 169.254.169.254 (AWS, GCP, Azure)", true},
      {"100.100.100.200/32", "cloud metadata 100.100.100.200 (Alibaba)", true},
      {"fd00:ec2::254/128", "cloud metadata fd00:ec2::254 (AWS IPv6)", true},
      {"10.0.0.0/8", "private range 10.0.0.0/8", false},
      {"172.16.0.0/12", "private range 172.16.0.0/12", false},
      {"192.168.0.0/16", "private range 192.168.0.0/16", false},
      {"100.64.0.0/10", "shared address space 100.64.0.0/10", false},
      {"127.0.0.0/8", "loopback 127.0.0.0/8", false},
      {"fe80::/10", "IPv6 link-local fe80::/10", false},
      {"fc00::/7", "IPv6 unique-local fc00::/7", false},
  };
  return ranges;
}

std::vector<SensitiveRange> sensitive_reached(const Cidr& allowed,
                                              const std::vector<std::string>& except) {
  std::vector<Cidr> cover;
  for (const auto& e : except) {
    if (auto c = parse_cidr(e)) cover.push_back(*c);
  }
  std::vector<SensitiveRange> out;
  for (const auto& r : sensitive_ranges()) {
    Cidr range = *parse_cidr(r.cidr);
    if (!cidr_overlaps(allowed, range)) continue;
    if (allowed.single_host() && !r.metadata) continue;
    // Nested or disjoint: the reachable part is the smaller of the two.
    const Cidr& part = allowed.prefix >= range.prefix ? allowed : range;
    if (cidr_covered_by(part, cover)) continue;
    out.push_back(r);
  }
  return out;
}

}  // namespace sbr::engine
