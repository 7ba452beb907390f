#include "analyzer/support/shared_text.h"

namespace sbr {

const std::string& SharedText::empty_text() {
  static const std::string empty;
  return empty;
}

void TextPool::intern(SharedText& t) {
  if (t.text_ == nullptr) return;
  auto [at, added] = kept_.try_emplace(std::string_view(*t.text_), t.text_);
  if (!added) t.text_ = at->second;
}

}  // namespace sbr
