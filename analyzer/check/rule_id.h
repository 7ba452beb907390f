// A rule id (SB1001) as a small value type. Checks never spell one: they name the constants
// generated from rules/ at build time (generated/rule_ids.h, `rule::privileged_container`),
// so an id that is not in the catalog does not compile. Text from outside the binary (a
// configuration, a test) becomes a RuleId only through parse(), and the runner refuses any id
// the catalog does not hold (an internal error, never a dropped finding).
//
// A user rule (`.sbreview/rules/`, `--rules DIR`) has an id of another shape, `<PREFIX>-<name>`
// ("X-no-latest-tag", "ACME-42"): it always holds a '-', which an SB id never does, so the two
// ranges cannot collide. Its text is interned once per process (user()) and the value keeps the
// index, so a RuleId stays eight bytes.
#pragma once

#include <fmt/format.h>  // the string_view formatter's definition, not only its declaration

#include <compare>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace sbr {

struct rule;  // generated/rule_ids.h: the one place that makes a RuleId from a literal

class RuleId {
 public:
  constexpr RuleId() = default;  // no rule: only a default-constructed Finding has it

  // SB and four digits, else nullopt. Whether the catalog holds it is the runner's check.
  static constexpr std::optional<RuleId> parse(std::string_view text) {
    if (text.size() != 6 || text[0] != 'S' || text[1] != 'B') return std::nullopt;
    for (size_t i = 2; i < 6; ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
    }
    return RuleId(text);
  }

  // A user rule's id: `PREFIX-name` with PREFIX in [A-Z][A-Z0-9]* (not "SB") and name in
  // [A-Za-z0-9._-]; nullopt otherwise. Whether the prefix is one the user may use is the
  // catalog's check.
  static std::optional<RuleId> user(std::string_view text);
  static bool valid_user_id(std::string_view text);

  constexpr std::string_view str() const {
    if (text_[0] == kUserMark) return user_text(user_index());
    return text_[0] == 0 ? std::string_view() : std::string_view(text_, 6);
  }
  constexpr bool empty() const { return text_[0] == 0; }
  constexpr bool is_user() const { return text_[0] == kUserMark; }
  // Read as text wherever text is wanted: hashes, lookups, messages, keys of string sets.
  constexpr operator std::string_view() const { return str(); }  // NOLINT
  operator std::string() const { return std::string(str()); }    // NOLINT

  // Ordered by text, so user ids sort by name whatever order they were interned in; equal text
  // is equal bytes (one index per interned id).
  friend constexpr std::strong_ordering operator<=>(const RuleId& a, const RuleId& b) {
    if (!a.is_user() && !b.is_user()) {
      for (size_t i = 0; i < 6; ++i) {
        if (a.text_[i] != b.text_[i]) return a.text_[i] <=> b.text_[i];
      }
      return std::strong_ordering::equal;
    }
    return a.str().compare(b.str()) <=> 0;
  }
  friend constexpr bool operator==(const RuleId&, const RuleId&) = default;
  friend constexpr bool operator==(const RuleId& a, std::string_view b) { return a.str() == b; }
  friend std::ostream& operator<<(std::ostream& os, const RuleId& id) { return os << id.str(); }

 private:
  friend struct rule;
  constexpr explicit RuleId(std::string_view text) {
    for (size_t i = 0; i < 6; ++i) text_[i] = text[i];
  }
  static constexpr char kUserMark = '\x01';
  constexpr std::uint32_t user_index() const {
    std::uint32_t n = 0;
    for (size_t i = 1; i < 5; ++i) n = (n << 8) | static_cast<unsigned char>(text_[i]);
    return n;
  }
  // The interned text of user id `index` (rule_id.cpp).
  static std::string_view user_text(std::uint32_t index);

  char text_[7] = {};
};

}  // namespace sbr

template <>
struct fmt::formatter<sbr::RuleId> : fmt::formatter<std::string_view> {
  template <class FormatContext>
  auto format(const sbr::RuleId& id, FormatContext& ctx) const {
    return fmt::formatter<std::string_view>::format(id.str(), ctx);
  }
};
