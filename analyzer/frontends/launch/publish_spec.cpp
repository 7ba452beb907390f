#include <cctype>

#include "analyzer/frontends/launch/specs.h"

namespace sbr::launch {

bool is_loopback_address(std::string_view ip) {
  if (!ip.empty() && ip.front() == '[' && ip.back() == ']') ip = ip.substr(1, ip.size() - 2);
  return ip.rfind("127.", 0) == 0 || ip == "::1" || ip == "localhost" || ip == "0:0:0:0:0:0:0:1";
}

static bool is_port_part(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-') return false;
  }
  return true;
}

std::optional<PublishedPort> parse_publish(std::string_view spec) {
  PublishedPort p;
  p.spec = std::string(spec);
  std::string_view rest = spec;
  if (std::size_t slash = rest.rfind('/'); slash != std::string_view::npos) {
    p.protocol = std::string(rest.substr(slash + 1));
    rest = rest.substr(0, slash);
  }
  // An IPv6 address is written in brackets so that its colons are not separators.
  if (!rest.empty() && rest.front() == '[') {
    std::size_t close = rest.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    p.host_ip = std::string(rest.substr(0, close + 1));
    rest = rest.substr(close + 1);
    if (rest.empty() || rest.front() != ':') return std::nullopt;
    rest.remove_prefix(1);
    std::size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    p.host_port = std::string(rest.substr(0, colon));
    p.container_port = std::string(rest.substr(colon + 1));
    return is_port_part(p.container_port) ? std::optional(p) : std::nullopt;
  }
  std::vector<std::string> parts = split(rest, ':');
  if (parts.size() == 1) {
    p.container_port = parts[0];
  } else if (parts.size() == 2) {
    p.host_port = parts[0];
    p.container_port = parts[1];
  } else if (parts.size() == 3) {
    p.host_ip = parts[0];
    p.host_port = parts[1];
    p.container_port = parts[2];
  } else {
    // Unbracketed IPv6 (compose accepts "::1:8080:80"): the last two parts are the ports.
    p.container_port = parts.back();
    p.host_port = parts[parts.size() - 2];
    std::string ip;
    for (std::size_t i = 0; i + 2 < parts.size(); ++i) ip += (i ? ":" : "") + parts[i];
    p.host_ip = ip;
  }
  if (!is_port_part(p.container_port)) return std::nullopt;
  if (!p.host_port.empty() && !is_port_part(p.host_port)) return std::nullopt;
  return p;
}

}  // namespace sbr::launch
