#include "analyzer/support/message_text.h"

namespace sbr {

MessageText MessageText::around(std::string text, std::string_view name) {
  std::size_t at = name.empty() ? std::string::npos : text.find(name);
  if (at == std::string::npos) return MessageText(std::move(text));
  MessageText m;
  m.tail_ = text.substr(at + name.size());
  m.name_ = std::string(name);
  text.resize(at);
  m.head_ = std::move(text);
  return m;
}

std::string MessageText::str() const {
  std::string out;
  out.reserve(size());
  out.append(head_.view()).append(name_.view()).append(tail_.view());
  return out;
}

MessageText& MessageText::operator+=(std::string_view more) {
  std::string whole = str();
  whole.append(more);
  *this = MessageText(std::move(whole));
  return *this;
}

void MessageText::share(TextPool& pool) {
  if (name_.empty()) return;  // not split: a text no other finding is likely to share
  pool.intern(head_);
  pool.intern(name_);
  pool.intern(tail_);
}

bool operator==(const MessageText& a, std::string_view b) {
  std::string_view h = a.head_.view(), n = a.name_.view(), t = a.tail_.view();
  return b.size() == h.size() + n.size() + t.size() && b.substr(0, h.size()) == h &&
         b.substr(h.size(), n.size()) == n && b.substr(h.size() + n.size()) == t;
}

}  // namespace sbr
