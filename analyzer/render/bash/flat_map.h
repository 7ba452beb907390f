// A map kept as one sorted vector, for the evaluator's scopes (evaluator.h). A scope is copied
// whenever a path writes a variable that another path still shares (copy-on-write), and a
// 200-item option `case` does that once per item: copying one vector is one allocation,
// copying a std::map one allocation per variable. Lookups are binary searches; inserting a new
// name moves the names after it (scopes hold tens to hundreds of names).
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace sbr::bash {

template <class V>
class FlatMap {
 public:
  using value_type = std::pair<std::string, V>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  std::size_t size() const { return items_.size(); }

  const_iterator find(const std::string& k) const {
    auto it = lower(k);
    return it != items_.end() && it->first == k ? it : items_.end();
  }
  iterator find(const std::string& k) {
    auto it = lower(k);
    return it != items_.end() && it->first == k ? it : items_.end();
  }
  std::size_t count(const std::string& k) const { return find(k) == end() ? 0 : 1; }
  V& operator[](const std::string& k) {
    auto it = lower(k);
    if (it == items_.end() || it->first != k) it = items_.insert(it, value_type{k, V{}});
    return it->second;
  }
  std::size_t erase(const std::string& k) {
    auto it = find(k);
    if (it == items_.end()) return 0;
    items_.erase(it);
    return 1;
  }

 private:
  const_iterator lower(const std::string& k) const {
    return std::lower_bound(
        items_.begin(), items_.end(), k,
        [](const value_type& e, const std::string& key) { return e.first < key; });
  }
  iterator lower(const std::string& k) {
    return std::lower_bound(
        items_.begin(), items_.end(), k,
        [](const value_type& e, const std::string& key) { return e.first < key; });
  }

  std::vector<value_type> items_;
};

}  // namespace sbr::bash
