#include "prover/lib/tar.h"

#include <array>
#include <cstdio>
#include <cstring>

namespace sbr::prove {
namespace {

constexpr size_t kBlock = 512;

// width-1 octal digits and a NUL, as ustar readers expect.
void octal(char* field, size_t width, unsigned long long v) {
  for (size_t i = width - 1; i-- > 0; v >>= 3U) field[i] = static_cast<char>('0' + (v & 7U));
  field[width - 1] = '\0';
}

std::string header(const TarEntry& e) {
  std::array<char, kBlock> h{};
  std::string name = e.path + (e.directory ? "/" : "");
  std::memcpy(h.data(), name.data(), std::min<size_t>(name.size(), 100));
  octal(h.data() + 100, 8, e.mode);
  octal(h.data() + 108, 8, 0);  // uid
  octal(h.data() + 116, 8, 0);  // gid
  octal(h.data() + 124, 12, e.directory ? 0 : e.bytes.size());
  octal(h.data() + 136, 12, 0);  // mtime: fixed, so the archive is the same every run
  h[156] = e.directory ? '5' : '0';
  std::memcpy(h.data() + 257, "ustar", 6);
  std::memcpy(h.data() + 263, "00", 2);
  std::memset(h.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (char c : h) sum += static_cast<unsigned char>(c);
  std::snprintf(h.data() + 148, 8, "%06o", sum);
  h[155] = ' ';
  return std::string(h.data(), h.size());
}

}  // namespace

std::string ustar(const std::vector<TarEntry>& entries) {
  std::string out;
  for (const TarEntry& e : entries) {
    out += header(e);
    if (!e.directory) {
      out += e.bytes;
      out.append((kBlock - e.bytes.size() % kBlock) % kBlock, '\0');
    }
  }
  out.append(2 * kBlock, '\0');
  return out;
}

}  // namespace sbr::prove
