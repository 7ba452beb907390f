// A rule id (SB1001) as a small value type. Checks never spell one: they name the constants
// generated from rules/ at build time (generated/rule_ids.h, `rule::privileged_container`),
// so an id that is not in the catalog does not compile. Text from outside the binary (a
// configuration, a test) becomes a RuleId only through parse(), and the runner refuses any id
// the catalog does not hold (an internal error, never a dropped finding).
#pragma once

#include <fmt/format.h>  // the string_view formatter's definition, not only its declaration

#include <compare>
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

  constexpr std::string_view str() const {
    return text_[0] == 0 ? std::string_view() : std::string_view(text_, 6);
  }
  constexpr bool empty() const { return text_[0] == 0; }
  // Read as text wherever text is wanted: hashes, lookups, messages, keys of string sets.
  constexpr operator std::string_view() const { return str(); }  // NOLINT
  operator std::string() const { return std::string(str()); }    // NOLINT

  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted <=>
  friend constexpr auto operator<=>(const RuleId&, const RuleId&) = default;
  friend constexpr bool operator==(const RuleId&, const RuleId&) = default;
  friend constexpr bool operator==(const RuleId& a, std::string_view b) { return a.str() == b; }
  friend std::ostream& operator<<(std::ostream& os, const RuleId& id) { return os << id.str(); }

 private:
  friend struct rule;
  constexpr explicit RuleId(std::string_view text) {
    for (size_t i = 0; i < 6; ++i) text_[i] = text[i];
  }

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
