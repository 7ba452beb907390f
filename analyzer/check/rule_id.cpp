#include "analyzer/check/rule_id.h"

#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace sbr {
namespace {

// Append-only, so a string_view handed out stays valid for the process's life.
struct UserIds {
  std::mutex mu;
  std::deque<std::string> texts;
  std::map<std::string, std::uint32_t, std::less<>> index;
};

UserIds& user_ids() {
  static UserIds ids;
  return ids;
}

bool upper_or_digit(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

bool RuleId::valid_user_id(std::string_view text) {
  size_t dash = text.find('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 >= text.size() || text.size() > 64)
    return false;
  std::string_view prefix = text.substr(0, dash);
  if (prefix == "SB" || !(prefix[0] >= 'A' && prefix[0] <= 'Z')) return false;
  for (char c : prefix) {
    if (!upper_or_digit(c)) return false;
  }
  for (char c : text.substr(dash + 1)) {
    bool ok = upper_or_digit(c) || (c >= 'a' && c <= 'z') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::optional<RuleId> RuleId::user(std::string_view text) {
  if (!valid_user_id(text)) return std::nullopt;
  UserIds& ids = user_ids();
  std::lock_guard<std::mutex> lock(ids.mu);
  auto it = ids.index.find(text);
  std::uint32_t n = 0;
  if (it != ids.index.end()) {
    n = it->second;
  } else {
    n = static_cast<std::uint32_t>(ids.texts.size());
    ids.texts.emplace_back(text);
    ids.index.emplace(std::string(text), n);
  }
  RuleId id;
  id.text_[0] = kUserMark;
  for (size_t i = 0; i < 4; ++i) id.text_[4 - i] = static_cast<char>((n >> (8 * i)) & 0xff);
  return id;
}

std::string_view RuleId::user_text(std::uint32_t index) {
  UserIds& ids = user_ids();
  std::lock_guard<std::mutex> lock(ids.mu);
  return index < ids.texts.size() ? std::string_view(ids.texts[index]) : std::string_view();
}

}  // namespace sbr
