// Where files come from: the working tree, a git revision, or memory. The walker, the
// classifier and every frontend see a tree only through this interface, so a revision is
// analysed without a checkout and tests run on in-memory files. Paths are relative to the
// tree's top, '/'-separated, without "." or ".." parts; "" is the top itself.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbr {

enum class EntryKind : std::uint8_t {
  Missing,    // nothing at this path
  Directory,  // a directory (a git tree)
  File,       // a regular file (a git blob of mode 100644 or 100755)
  Symlink,    // a symbolic link (a git blob of mode 120000)
  Special,    // FIFO, socket or device: never opened
  Submodule,  // a git commit entry: the files are in another repository
};

struct TreeEntry {
  std::string name;  // one path component
  EntryKind kind = EntryKind::Missing;
};

struct ReadResult {
  bool ok = false;
  bool too_large = false;  // over the size limit: not read at all
  std::string why;         // when not ok
};

class SourceTree {
 public:
  virtual ~SourceTree() = default;

  // What is at `path`, without following a final symlink.
  virtual EntryKind kind(std::string_view path) const = 0;
  // The entries of the directory at `path`, in any order. False when it cannot be listed.
  virtual bool list(std::string_view dir, std::vector<TreeEntry>& out) const = 0;
  // The path, relative to the top, that the symlink at `path` resolves to after following
  // every link on the way; nullopt when it leaves the top of the tree or dangles.
  virtual std::optional<std::string> resolve_link(std::string_view path) const = 0;
  // The bytes of the regular file at `path`, never following a final symlink, never opening
  // a FIFO or device, and not read at all when over `limit` bytes.
  virtual ReadResult read(std::string_view path, std::uint64_t limit, std::string& bytes) const = 0;
};

// "a/b" + "c" = "a/b/c"; either side may be empty.
std::string join_path(std::string_view dir, std::string_view name);
// True when `path` is `dir` or lies below it ("" contains everything).
bool path_within(std::string_view path, std::string_view dir);
// The message of a too-large read, the same for every kind of tree.
std::string too_large_message(std::uint64_t size, std::uint64_t limit);

// Resolves a symlink textually, for trees that cannot use realpath (a git revision, memory):
// the target is taken relative to the link's directory and every link met on the way is
// followed (at most 40, as the kernel does). nullopt when it is absolute, climbs above the top
// or ends at nothing. `target_of` gives the target text of the link at a path.
std::optional<std::string> resolve_textually(
    const SourceTree& tree, std::string_view link,
    const std::function<std::optional<std::string>(std::string_view)>& target_of);

}  // namespace sbr
