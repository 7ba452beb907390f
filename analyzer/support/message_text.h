// A finding's message. Most name their workload once, between words that are the same on every
// workload's finding of that rule ("Deployment tenants/" + "agent-00042" + ", container agent
// has no memory limit ..."), so a message is kept as three shared parts: the words before the
// name, the name, the words after it. A TextPool then holds each part once; as whole strings
// the messages of the 10,000-workload benchmark stream cost 22 MB (docs/robustness.md).
#pragma once

#include <array>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "analyzer/support/shared_text.h"

namespace sbr {

class MessageText {
 public:
  MessageText() = default;
  // Implicit, like std::string's own: a finding's message is assigned a string as before.
  MessageText(std::string text) : head_(std::move(text)) {}  // NOLINT(google-explicit-constructor)
  MessageText(const char* text)                              // NOLINT(google-explicit-constructor)
      : MessageText(std::string(text)) {}
  // `text` with its first `name` kept apart; the whole text when it does not hold `name`.
  static MessageText around(std::string text, std::string_view name);

  std::string str() const;
  operator std::string() const { return str(); }  // NOLINT(google-explicit-constructor)
  bool empty() const { return head_.empty() && name_.empty() && tail_.empty(); }
  std::size_t size() const { return head_.size() + name_.size() + tail_.size(); }
  std::size_t find(std::string_view s, std::size_t pos = 0) const { return str().find(s, pos); }
  std::size_t rfind(std::string_view s, std::size_t pos = std::string::npos) const {
    return str().rfind(s, pos);
  }
  // Appending makes one part of the whole (a rare edit: a condition, the other workloads).
  MessageText& operator+=(std::string_view more);
  // Each part of a split message is made the pool's copy; a whole message is its own.
  void share(TextPool& pool);
  // The words before the name, the name, the words after it (the whole text, "", "" unsplit).
  std::array<std::string_view, 3> parts() const {
    return {head_.view(), name_.view(), tail_.view()};
  }

  friend bool operator==(const MessageText& a, std::string_view b);
  friend bool operator==(const MessageText& a, const std::string& b) {
    return a == std::string_view(b);
  }
  friend bool operator==(const MessageText& a, const char* b) { return a == std::string_view(b); }
  friend bool operator==(const MessageText& a, const MessageText& b) { return a.str() == b.str(); }
  friend std::ostream& operator<<(std::ostream& out, const MessageText& m) {
    return out << m.head_ << m.name_ << m.tail_;
  }

 private:
  SharedText head_, name_, tail_;
};

}  // namespace sbr

template <>
struct fmt::formatter<sbr::MessageText> : fmt::formatter<std::string_view> {
  auto format(const sbr::MessageText& m, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(m.str(), ctx);
  }
};
