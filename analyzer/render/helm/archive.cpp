#include "analyzer/render/helm/archive.h"

#include <zlib.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace sbr::render::helm {

namespace {

// gunzip with the output bounded: a small archive that inflates to gigabytes stops at the
// limit instead of exhausting memory.
bool gunzip(std::string_view in, std::uint64_t max, std::string& out, std::string& error) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) {
    error = "cannot start gzip decompression";
    return false;
  }
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      error = fmt::format("not a gzip archive ({})", z.msg ? z.msg : "corrupt data");
      inflateEnd(&z);
      return false;
    }
    out.append(buf, sizeof buf - z.avail_out);
    if (out.size() > max) {
      error = fmt::format("unpacks to more than {} bytes", max);
      inflateEnd(&z);
      return false;
    }
    if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
      error = "truncated gzip archive";
      inflateEnd(&z);
      return false;
    }
  }
  inflateEnd(&z);
  return true;
}

std::string field(const char* p, std::size_t n) {
  std::size_t len = strnlen(p, n);
  return std::string(p, len);
}

bool octal(const char* p, std::size_t n, std::uint64_t& out) {
  // GNU base-256 for large sizes: the high bit of the first byte set.
  if (static_cast<unsigned char>(p[0]) & 0x80) {
    out = 0;
    for (std::size_t k = 1; k < n; ++k) out = (out << 8) | static_cast<unsigned char>(p[k]);
    return true;
  }
  out = 0;
  std::size_t k = 0;
  while (k < n && (p[k] == ' ' || p[k] == '\0')) ++k;
  for (; k < n && p[k] >= '0' && p[k] <= '7'; ++k)
    out = out * 8 + static_cast<unsigned>(p[k] - '0');
  return true;
}

// A PAX extended header's `path=` record, if any.
std::string pax_path(std::string_view data) {
  std::size_t k = 0;
  while (k < data.size()) {
    std::size_t space = data.find(' ', k);
    if (space == std::string_view::npos) break;
    std::size_t len = 0;
    for (std::size_t j = k; j < space; ++j) len = len * 10 + static_cast<unsigned>(data[j] - '0');
    if (len == 0 || k + len > data.size()) break;
    std::string_view rec = data.substr(space + 1, len - (space + 1 - k));
    if (rec.rfind("path=", 0) == 0) {
      std::string_view v = rec.substr(5);
      if (!v.empty() && v.back() == '\n') v.remove_suffix(1);
      return std::string(v);
    }
    k += len;
  }
  return "";
}

// The member's path below the chart directory; false when it would leave it.
bool chart_path(const std::string& name, std::string& out) {
  std::string n = name;
  while (n.rfind("./", 0) == 0) n = n.substr(2);
  if (n.empty() || n[0] == '/') return false;
  std::size_t slash = n.find('/');
  out = slash == std::string::npos ? "" : n.substr(slash + 1);
  std::size_t k = 0;
  while (k <= out.size()) {
    std::size_t next = out.find('/', k);
    std::string part = out.substr(k, next == std::string::npos ? next : next - k);
    if (part == "..") return false;
    if (next == std::string::npos) break;
    k = next + 1;
  }
  return true;
}

}  // namespace

bool unpack_tgz(std::string_view bytes, const ArchiveLimits& limits,
                std::vector<std::pair<std::string, std::string>>& files, std::string& error) {
  std::string tar;
  if (!gunzip(bytes, limits.max_bytes, tar, error)) return false;
  std::size_t at = 0;
  std::string long_name;
  while (at + 512 <= tar.size()) {
    const char* h = tar.data() + at;
    if (std::all_of(h, h + 512, [](char c) { return c == '\0'; })) break;  // end of archive
    std::uint64_t size = 0;
    octal(h + 124, 12, size);
    char type = h[156];
    std::size_t data = at + 512;
    if (size > tar.size() - data) {
      error = "truncated tar archive";
      return false;
    }
    std::string_view body(tar.data() + data, static_cast<std::size_t>(size));
    at = data + static_cast<std::size_t>((size + 511) / 512 * 512);
    if (type == 'L') {  // GNU long name of the next entry
      long_name = field(body.data(), body.size());
      continue;
    }
    if (type == 'x') {  // PAX: the next entry's path
      long_name = pax_path(body);
      continue;
    }
    std::string name = field(h, 100);
    if (std::memcmp(h + 257, "ustar", 5) == 0 && h[345] != '\0')
      name = field(h + 345, 155) + "/" + name;
    if (!long_name.empty()) name = std::move(long_name);
    long_name.clear();
    if (type != '0' && type != '\0' && type != '7') continue;  // links, dirs, devices: never
    std::string path;
    if (!chart_path(name, path)) {
      error = fmt::format("member {} is outside the chart's directory", name);
      return false;
    }
    if (path.empty()) continue;
    if (files.size() >= limits.max_members) {
      error = fmt::format("more than {} files", limits.max_members);
      return false;
    }
    files.emplace_back(path, std::string(body));
  }
  return true;
}

}  // namespace sbr::render::helm
