#include "analyzer/source/text_encoding.h"

#include <errno.h>
#include <iconv.h>

#include <cstring>
#include <memory>

namespace sbr {

namespace {

struct Bom {
  std::string_view mark;
  std::string_view encoding;
};

// UTF-32LE's mark starts with UTF-16LE's, so the longer marks come first.
constexpr Bom kBoms[] = {{std::string_view("\xFF\xFE\x00\x00", 4), "UTF-32LE"},
                         {std::string_view("\x00\x00\xFE\xFF", 4), "UTF-32BE"},
                         {"\xEF\xBB\xBF", "UTF-8"},
                         {"\xFF\xFE", "UTF-16LE"},
                         {"\xFE\xFF", "UTF-16BE"}};

struct IconvClose {
  void operator()(iconv_t* cd) const {
    iconv_close(*cd);
    delete cd;
  }
};

}  // namespace

std::string_view bom_encoding(std::string_view bytes) {
  for (const Bom& b : kBoms) {
    if (bytes.substr(0, b.mark.size()) == b.mark) return b.encoding;
  }
  return "";
}

bool decode_to_utf8(std::string& bytes, std::string& why) {
  std::string_view enc = bom_encoding(bytes);
  if (enc.empty()) return true;
  size_t mark = 0;
  for (const Bom& b : kBoms) {
    if (b.encoding == enc) mark = b.mark.size();
  }
  if (enc == "UTF-8") {
    bytes.erase(0, mark);
    return true;
  }
  iconv_t cd = iconv_open("UTF-8", std::string(enc).c_str());
  // iconv_open reports failure as (iconv_t)-1, a pointer made from an integer by its contract.
  if (cd == reinterpret_cast<iconv_t>(-1)) {  // NOLINT(performance-no-int-to-ptr)
    why = std::string(enc) + " text (byte-order mark), which this system cannot decode";
    return false;
  }
  std::unique_ptr<iconv_t, IconvClose> guard(new iconv_t(cd));
  std::string out(bytes.size() * 2 + 16, '\0');  // UTF-16 → UTF-8 at most 3 bytes per 2
  char* in = bytes.data() + mark;
  size_t in_left = bytes.size() - mark;
  char* dst = out.data();
  size_t out_left = out.size();
  if (iconv(cd, &in, &in_left, &dst, &out_left) == static_cast<size_t>(-1)) {
    why = std::string(enc) + " text (byte-order mark) that does not decode at byte " +
          std::to_string(in - bytes.data()) + ": " + std::strerror(errno);
    return false;
  }
  out.resize(out.size() - out_left);
  bytes = std::move(out);
  return true;
}

}  // namespace sbr
