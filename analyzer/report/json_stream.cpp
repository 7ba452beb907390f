#include "analyzer/report/json_stream.h"

#include <stdexcept>
#include <string>

namespace sbr::report {

namespace {

constexpr std::string_view kSentinel = "\x01sbreview-streamed-array\x01";

std::string dump(const Json& j) {
  return j.dump(2, ' ', false, Json::error_handler_t::replace);
}

// `"key": "<sentinel>"` as dump() writes it. An input string can never hold it: its quotes
// would be escaped.
std::string marker(std::string_view key) {
  return dump(Json(std::string(key))) + ": " + dump(Json(std::string(kSentinel)));
}

// One array element at `indent` spaces, as dump(2) nests it.
void write_element(std::ostream& out, const Json& element, size_t indent) {
  const std::string pad(indent, ' ');
  std::string text = dump(element);
  out << pad;
  size_t from = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    out << pad;
    from = nl + 1;
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

}  // namespace

Json stream_placeholder() {
  return Json(std::string(kSentinel));
}

void write_streamed(std::ostream& out, const Json& doc, const std::vector<StreamedArray>& arrays) {
  const std::string text = dump(doc);
  size_t from = 0;
  for (const StreamedArray& a : arrays) {
    const std::string m = marker(a.key);
    size_t at = text.find(m, from);
    if (at == std::string::npos) {
      throw std::logic_error("write_streamed: no placeholder for `" + std::string(a.key) + "`");
    }
    size_t line_start = text.rfind('\n', at);
    size_t indent = at - (line_start == std::string::npos ? 0 : line_start + 1);
    size_t value = at + m.size() - dump(stream_placeholder()).size();
    out.write(text.data() + from, static_cast<std::streamsize>(value - from));
    bool first = true;
    a.produce([&](const Json& element) {
      out << (first ? "[\n" : ",\n");
      first = false;
      write_element(out, element, indent + 2);
    });
    if (first) {
      out << "[]";
    } else {
      out << "\n" << std::string(indent, ' ') << "]";
    }
    from = at + m.size();
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
  out << "\n";
}

}  // namespace sbr::report
