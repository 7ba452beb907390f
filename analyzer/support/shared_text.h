// Text that many records hold the same copy of: a finding carries its workload's subject,
// identity, label and threat reason, which are the same on each of the workload's findings
// (about ten per workload on the benchmark stream), and a fact path that is the same on every
// workload's finding of that rule. A SharedText points at one immutable string; a TextPool makes
// equal texts one string (docs/robustness.md, "Memory").
#pragma once

#include <compare>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

namespace sbr {

class SharedText {
 public:
  SharedText() = default;
  // Implicit, like std::string's own: a record's field is assigned a string as before.
  SharedText(std::string s)  // NOLINT(google-explicit-constructor)
      : text_(s.empty() ? nullptr : std::make_shared<const std::string>(std::move(s))) {}
  SharedText(const char* s) : SharedText(std::string(s)) {}  // NOLINT(google-explicit-constructor)

  const std::string& str() const { return text_ ? *text_ : empty_text(); }
  operator const std::string&() const { return str(); }  // NOLINT(google-explicit-constructor)
  operator std::string_view() const { return str(); }    // NOLINT(google-explicit-constructor)
  std::string_view view() const { return str(); }
  bool empty() const { return text_ == nullptr; }
  std::size_t size() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }

  friend bool operator==(const SharedText& a, const SharedText& b) {
    return a.text_ == b.text_ || a.str() == b.str();
  }
  friend std::strong_ordering operator<=>(const SharedText& a, const SharedText& b) {
    return a.str() <=> b.str();
  }
  friend bool operator==(const SharedText& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const SharedText& a, const std::string& b) { return a.view() == b; }
  friend bool operator==(const SharedText& a, const char* b) { return a.view() == b; }
  friend std::ostream& operator<<(std::ostream& out, const SharedText& t) { return out << t.str(); }

 private:
  friend class TextPool;
  static const std::string& empty_text();

  std::shared_ptr<const std::string> text_;  // nullptr: ""
};

// Equal texts made one: each text is kept once, for as long as the pool or a record holds it.
class TextPool {
 public:
  void intern(SharedText& t);

 private:
  // Keys view the kept strings, which never move.
  std::unordered_map<std::string_view, std::shared_ptr<const std::string>> kept_;
};

}  // namespace sbr

template <>
struct fmt::formatter<sbr::SharedText> : fmt::formatter<std::string_view> {
  auto format(const sbr::SharedText& t, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(t.view(), ctx);
  }
};
