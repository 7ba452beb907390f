#include "analyzer/source/source_tree.h"
#include "analyzer/support/strings.h"

#include <deque>

namespace sbr {
namespace {

constexpr int kMaxLinkHops = 40;  // the kernel's MAXSYMLINKS

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out = join_path(out, p);
  return out;
}

}  // namespace

std::string join_path(std::string_view dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  if (name.empty()) return std::string(dir);
  std::string out(dir);
  out += '/';
  out += name;
  return out;
}

bool path_within(std::string_view path, std::string_view dir) {
  if (dir.empty() || path == dir) return true;
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}

std::string too_large_message(std::uint64_t size, std::uint64_t limit) {
  return "file is " + std::to_string(size) + " bytes, over the limit of " + std::to_string(limit);
}

std::optional<std::string> resolve_textually(
    const SourceTree& tree, std::string_view link,
    const std::function<std::optional<std::string>(std::string_view)>& target_of) {
  std::vector<std::string> done = path_components(link);
  if (done.empty()) return std::nullopt;
  done.pop_back();  // the link's own name: its target replaces it
  std::optional<std::string> first = target_of(link);
  if (!first || first->empty() || first->front() == '/') return std::nullopt;
  std::vector<std::string> first_parts = path_components(*first);
  std::deque<std::string> todo(first_parts.begin(), first_parts.end());
  int hops = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.front());
    todo.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      if (done.empty()) return std::nullopt;  // above the top of the tree
      done.pop_back();
      continue;
    }
    done.push_back(c);
    std::string here = joined(done);
    EntryKind k = tree.kind(here);
    if (k == EntryKind::Symlink) {
      std::optional<std::string> next = target_of(here);
      if (++hops > kMaxLinkHops || !next || next->empty() || next->front() == '/') {
        return std::nullopt;
      }
      done.pop_back();
      std::vector<std::string> parts = path_components(*next);
      todo.insert(todo.begin(), parts.begin(), parts.end());
    } else if (k == EntryKind::Missing || (k != EntryKind::Directory && !todo.empty())) {
      return std::nullopt;  // dangling, or a path through something that is no directory
    }
  }
  return joined(done);
}

}  // namespace sbr
