#include "prover/probe/probe_parse.h"

#include <charconv>
#include <sstream>

namespace sbr::probe {
namespace {

std::vector<std::string_view> split_ws(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::vector<std::string> split_on(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string_view::npos) end = s.size();
    if (end > start) out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::optional<long long> number(std::string_view s) {
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape_octal(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    auto digit = [](char c) { return c >= '0' && c <= '7'; };
    if (s[i] == '\\' && i + 3 < s.size() && digit(s[i + 1]) && digit(s[i + 2]) && digit(s[i + 3])) {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
      continue;
    }
    out += s[i];
  }
  return out;
}

template <class F>
void each_line(std::string_view text, F&& f) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    f(text.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

Status parse_status(std::string_view text) {
  Status s;
  each_line(text, [&](std::string_view line) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) return;
    std::string_view key = line.substr(0, colon);
    auto fields = split_ws(line.substr(colon + 1));
    if (key == "Uid" && fields.size() >= 2) {
      s.uid = number(fields[0]);
      s.euid = number(fields[1]);
    } else if (key == "Gid" && fields.size() >= 2) {
      s.gid = number(fields[0]);
      s.egid = number(fields[1]);
    } else if (key == "Groups") {
      for (auto f : fields) {
        if (auto n = number(f)) s.groups.push_back(*n);
      }
    } else if (fields.size() == 1) {
      std::string v(fields[0]);
      if (key == "CapEff") s.cap_eff = v;
      if (key == "CapBnd") s.cap_bnd = v;
      if (key == "CapAmb") s.cap_amb = v;
      if (key == "CapPrm") s.cap_prm = v;
      if (key == "NoNewPrivs") s.no_new_privs = static_cast<int>(number(v).value_or(-1));
      if (key == "Seccomp") s.seccomp = static_cast<int>(number(v).value_or(-1));
    }
  });
  return s;
}

std::vector<MountInfo> parse_mountinfo(std::string_view text) {
  std::vector<MountInfo> out;
  each_line(text, [&](std::string_view line) {
    auto f = split_ws(line);
    if (f.size() < 7) return;
    MountInfo m;
    m.mount_point = unescape_octal(f[4]);
    m.options = split_on(f[5], ',');
    size_t i = 6;
    for (; i < f.size() && f[i] != "-"; ++i) m.optional.emplace_back(f[i]);
    if (i + 1 < f.size()) m.fstype = std::string(f[i + 1]);
    if (i + 2 < f.size()) m.source = unescape_octal(f[i + 2]);
    out.push_back(std::move(m));
  });
  return out;
}

std::string propagation_of(const MountInfo& m) {
  bool shared = false, slave = false, unbindable = false;
  for (const auto& o : m.optional) {
    shared = shared || o.rfind("shared:", 0) == 0;
    slave = slave || o.rfind("master:", 0) == 0;
    unbindable = unbindable || o == "unbindable";
  }
  if (shared && slave) return "shared+slave";
  if (shared) return "shared";
  if (slave) return "slave";
  if (unbindable) return "unbindable";
  return "private";
}

bool has_option(const MountInfo& m, std::string_view option) {
  for (const auto& o : m.options) {
    if (o == option) return true;
  }
  return false;
}

const MountInfo* mount_for(const std::vector<MountInfo>& mounts, std::string_view path) {
  const MountInfo* best = nullptr;
  size_t best_len = 0;
  for (const auto& m : mounts) {
    std::string_view mp = m.mount_point;
    bool covers =
        mp == path || mp == "/" ||
        (path.size() > mp.size() && path.substr(0, mp.size()) == mp && path[mp.size()] == '/');
    // The longest covering mount point wins; among equals the later one (it is on top).
    if (covers && (best == nullptr || mp.size() >= best_len)) {
      best = &m;
      best_len = mp.size();
    }
  }
  return best;
}

Resolver parse_resolv_conf(std::string_view text) {
  Resolver r;
  each_line(text, [&](std::string_view line) {
    auto f = split_ws(line);
    if (f.size() < 2) return;
    if (f[0] == "nameserver") r.nameservers.push_back(printable(f[1], 64));
    if (f[0] == "search" || f[0] == "domain") {
      for (size_t i = 1; i < f.size(); ++i) r.search.push_back(printable(f[i], 128));
    }
  });
  return r;
}

bool looks_like_gvisor(std::string_view proc_version, std::string_view kernel_log) {
  return kernel_log.find("Starting gVisor") != std::string_view::npos ||
         proc_version.find("#1 SMP Sun Jan 10 15:06:54 PST 2016") != std::string_view::npos;
}

std::string printable(std::string_view s, size_t max) {
  std::string out;
  for (char c : s) {
    if (out.size() >= max) break;
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return out;
}

}  // namespace sbr::probe
