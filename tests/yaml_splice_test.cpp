// A stream re-read by splicing (yaml_splice.h) must equal, node for node, the same stream read
// whole: over hand-written edits that sit at every awkward place, over every line of every
// YAML file in fixtures/ and examples/ deleted, doubled and changed, and over every flipped
// render of the charts there and of the benchmark's generator.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "analyzer/render/render_roots.h"
#include "analyzer/source/source.h"
#include "analyzer/source/working_tree.h"
#include "analyzer/support/yaml_splice.h"
#include "tests/yaml_splice_util.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace yaml_splice_test {

using namespace sbr::yaml;
using sbr::test::read_whole;
using sbr::test::same_documents;

namespace {

// Splices `after` on `before`; when the splice is taken, it must equal the whole read of
// `after` (which must then parse). Returns whether the splice was taken.
bool spliced_equals_whole(const std::string& before, const std::string& after) {
  auto base = read_whole(before);
  if (!base) return false;
  auto spliced = splice_stream(before, *base, after);
  if (!spliced) return false;
  auto whole = read_whole(after);
  INFO("before:\n" << before << "\nafter:\n" << after);
  REQUIRE(whole.has_value());
  std::string why;
  bool same = same_documents(*spliced, *whole, why);
  INFO(why);
  CHECK(same);
  return true;
}

struct Case {
  const char* name;
  const char* before;
  const char* after;
  bool taken;  // the splice applies (otherwise the caller parses whole)
};

const Case kCases[] = {
    {"a key removed first in a map",
     "kind: Deployment\nspec:\n  replicas: 1\n  selector:\n    app: a\n",
     "kind: Deployment\nspec:\n  selector:\n    app: a\n", true},
    {"a key added last in the last document", "data:\n  a: '1'\n  b: '2'\n",
     "data:\n  a: '1'\n  b: '2'\n  LOG_LEVEL: debug\n", true},
    {"a key added first", "spec:\n  b: 2\n", "spec:\n  a: 1\n  b: 2\n", true},
    {"the last key removed before a lower line", "a:\n  x: 1\n  y: 2\nb: 3\n", "a:\n  x: 1\nb: 3\n",
     true},
    {"a null before the removed keys", "a:\n  x:\n  y: 2\nb: 3\n", "a:\n  x:\nb: 3\n", true},
    {"a null before the removed keys at the end", "a:\n  x:\n  y: 2\n", "a:\n  x:\n", true},
    {"a null at the end of added keys", "a:\n  x: 1\nb: 3\n", "a:\n  x: 1\n  y:\nb: 3\n", true},
    {"a null at the end of added keys, same indentation", "a: 1\nb: 3\n", "a: 1\nc:\nb: 3\n", true},
    {"an item changed in a nested sequence",
     "spec:\n  containers:\n    - name: a\n      image: x\n    - name: b\n      image: y\n",
     "spec:\n  containers:\n    - name: a\n      image: z\n    - name: b\n      image: y\n", true},
    {"an item added to a compact sequence", "list:\n- a\n- b\nnext: 1\n",
     "list:\n- a\n- c\n- b\nnext: 1\n", true},
    {"the last item of a compact sequence removed", "list:\n- a\n- b\nnext: 1\n",
     "list:\n- a\nnext: 1\n", true},
    {"a sequence of sequences", "m:\n  - - a\n    - b\n  - - c\n",
     "m:\n  - - a\n    - x\n  - - c\n", true},
    {"comments around the change", "a:\n  # one\n  x: 1 # two\n\n  y: 2\n# three\nb: 1\n",
     "a:\n  # one\n  x: 1 # two\n  z: 3\n\n  y: 2\n# three\nb: 1\n", true},
    {"a literal block scalar changed", "a:\n  s: |\n    one\n    two\n  t: 1\n",
     "a:\n  s: |\n    one\n    three\n  t: 1\n", true},
    {"a kept block scalar before the next key", "a:\n  s: |+\n    one\n\n  t: 1\nb: 2\n",
     "a:\n  s: |+\n    one\n\n  u: 3\nb: 2\n", true},
    {"a kept block scalar at the region's end", "a:\n  s: 1\nb: 2\n",
     "a:\n  s: |+\n    one\n\nb: 2\n", true},
    {"a folded scalar added", "a:\n  x: 1\nb: 2\n", "a:\n  x: >-\n    folded\n    text\nb: 2\n",
     true},
    {"a change of indentation", "a:\n  b:\n    c: 1\n", "a:\n  b:\n      c: 1\n", true},
    {"multi-line plain scalar", "a:\n  x: one\n    two\n  y: 1\n",
     "a:\n  x: one\n    three\n  y: 1\n", true},
    {"a change in the second document", "a: 1\n---\nb:\n  c: 1\n---\nd: 2\n",
     "a: 1\n---\nb:\n  c: 2\n  e: 3\n---\nd: 2\n", true},
    {"a change in the first of three documents", "a:\n  b: 1\n---\nc: 1\n---\nd:\n  e: 1\n",
     "a:\n  b: 1\n  x: 2\n---\nc: 1\n---\nd:\n  e: 1\n", true},
    {"a top-level key after a document marker", "a: 1\n---\nb: 1\nc: 2\n",
     "a: 1\n---\nb: 2\nc: 2\n", true},
    {"a duplicate key added", "a:\n  x: 1\n  y: 2\n", "a:\n  x: 1\n  y: 2\n  x: 3\n", true},
    {"a duplicate key removed", "a:\n  x: 1\n  x: 3\n  y: 2\n", "a:\n  x: 1\n  y: 2\n", true},
    {"a flow map inside the region", "a:\n  x: 1\n", "a:\n  x: {p: 1, q: [2, 3]}\n", true},
    {"quoted scalars keep their quotes", "a:\n  x: 1\n", "a:\n  x: \"true\"\n  y: 'no'\n", true},
    {"no trailing newline", "a:\n  x: 1\n  y: 2", "a:\n  x: 1\n  y: 3", true},
    {"the only entry removed", "a:\n  x: 1\nb: 2\n", "a:\nb: 2\n", true},
    {"a flow map spanning lines", "a: {x: 1,\n  y: 2}\n", "a: {x: 1,\n  y: 3}\n", true},
    {"an anchor", "a: &x\n  b: 1\nc: *x\n", "a: &x\n  b: 2\nc: *x\n", false},
    {"an alias added", "a:\n  b: 1\n", "a:\n  b: 1\n  c: *x\n", false},
    {"a document marker added", "a: 1\nb: 2\n", "a: 1\n---\nb: 2\n", false},
    {"a tab", "a:\n  b: 1\n", "a:\n  b:\t1\n", false},
    {"a comment only", "a:\n  b: 1\n", "a:\n  # note\n  b: 1\n", false},
    {"a quoted scalar left open", "a:\n  b: 1\nc: 2\n", "a:\n  b: \"x\nc: 2\n", false},
    {"a value becomes a map", "a:\n  b:\n  c: 1\n", "a:\n  b:\n    d: 1\n  c: 1\n", true},
    {"a null value becomes a map", "a:\nc: 1\n", "a:\n  d: 1\nc: 1\n", true},
    {"a key removed before a sequence at its indentation",
     "metadata:\n  name: a\nsubjects:\n- kind: A\nroleRef: {}\n",
     "metadata:\n  name: a\n- kind: A\nroleRef: {}\n", false},
    {"a compact sequence's item before its parent's next key",
     "spec:\n  list:\n  - a\n  - b\n  next: 1\n", "spec:\n  list:\n  - a\n  - c\n  next: 1\n",
     true},
    {"a flow map left open", "a:\n  b: {x: 1}\nc: 2\n", "a:\n  b: {x: 1\nc: 2\n", false},
    {"two hunks: an environment variable and a volume",
     "spec:\n  containers:\n    - name: a\n      env:\n        - name: A\n          value: '1'\n"
     "      volumeMounts: []\n  volumes:\n    - name: v\n      emptyDir: {}\n",
     "spec:\n  containers:\n    - name: a\n      env:\n        - name: A\n          value: '1'\n"
     "        - name: DEBUG\n          value: 'true'\n      volumeMounts: []\n  volumes:\n"
     "    - name: v\n      emptyDir: {}\n    - name: dbg\n      hostPath: {path: /tmp}\n",
     true},
    {"two hunks in two documents", "a:\n  x: 1\n---\nb:\n  y: 2\n",
     "a:\n  x: 1\n  z: 3\n---\nb:\n  w: 4\n  y: 2\n", true},
    {"two hunks, the first not splicable alone", "a:\n  x: 1\nb:\n  y: 2\n",
     "a:\n  x: 1\n  q: \"open\nb:\n  y: 2\n  z: 3\n", false},
    {"a value emptied before an explicit value line", "a: 1\n:\n b\n", "a:\n:\n b\n", false},
    {"an explicit value line added after an empty value", "a:\nb: 1\n", "a:\n: z\nb: 1\n", false},
    {"the entry between an empty value and an explicit value line removed", "a:\nx: 1\n: z\n",
     "a:\n: z\n", false},
    {"an entry added after an explicit value line", "a:\n:\n  \n", "a:\n:\nb: 1\n  \n", false},
    {"the entry before a key no `:` follows removed", "a:\n\nw\n", "w\n", false},
    {"a quoted scalar left open before a lower line", "a:\n  s: 1\n  t: '\nb: 2\n",
     "a:\n  s: 2\n  u: 3\nb: 2\n", false},
    {"a directive", "%YAML 1.1\n---\na:\n  b: 1\n", "%YAML 1.1\n---\na:\n  b: 2\n", false},
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Line `i` deleted, doubled, or changed (a value's last character, or a key added after it).
std::string mutate(const std::vector<std::string>& lines, std::size_t i, int how) {
  std::vector<std::string> out = lines;
  if (how == 0) {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(i));
  } else if (how == 1) {
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
  } else if (how == 2) {
    if (!out[i].empty()) out[i].back() = out[i].back() == 'x' ? 'y' : 'x';
  } else {
    std::string indent = lines[i].substr(0, lines[i].find_first_not_of(' '));
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(i) + 1, indent + "added_key: 1");
  }
  return join(out);
}

}  // namespace

TEST_CASE("a spliced stream equals the whole read: hand-written edits", "[yaml][splice]") {
  for (const Case& c : kCases) {
    INFO(c.name);
    CHECK(spliced_equals_whole(c.before, c.after) == c.taken);
  }
}

TEST_CASE("a spliced stream equals the whole read: every line of fixtures and examples",
          "[yaml][splice]") {
  std::size_t taken = 0, tried = 0;
  for (const char* dir : {"fixtures", "examples"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(
             std::filesystem::path(SBR_SOURCE_DIR) / dir)) {
      auto ext = e.path().extension();
      if (!e.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
      std::string text = read_file(e.path());
      if (!read_whole(text)) continue;
      std::vector<std::string> lines = split(text);
      for (std::size_t i = 0; i < lines.size(); ++i) {
        INFO(e.path().string() << " line " << i + 1);
        ++tried;
        if (spliced_equals_whole(text, mutate(lines, i, static_cast<int>(i % 4)))) ++taken;
      }
    }
  }
  INFO(taken << " of " << tried << " edits spliced");
  CHECK(taken * 2 > tried);
}

namespace {

struct Tally {
  std::size_t flipped = 0, taken = 0;
};

// Every flipped render's stream of the charts under `dir`, spliced from its default render's
// stream, against its whole read.
Tally check_flipped_renders(const std::string& dir) {
  sbr::WorkingTree tree(dir);
  sbr::FileTable files;
  sbr::SourceSet sources = sbr::walk_trees({{&tree, "", ""}}, sbr::WalkOptions{}, files);
  sbr::render::RenderOutput out = sbr::render::render_roots(sources, sbr::render::RenderOptions{});
  Tally t;
  for (const auto& flipped : out.streams) {
    if (flipped.condition.always()) continue;
    std::string_view head = std::string_view(flipped.text).substr(0, flipped.text.find('\n'));
    for (const auto& base : out.streams) {
      if (!base.condition.always() || base.root != flipped.root ||
          std::string_view(base.text).substr(0, base.text.find('\n')) != head) {
        continue;
      }
      INFO(flipped.root << " " << head << " when " << flipped.condition.text);
      ++t.flipped;
      if (spliced_equals_whole(base.text, flipped.text)) ++t.taken;
    }
  }
  return t;
}

}  // namespace

TEST_CASE("a spliced stream equals the whole read: flipped renders of fixtures and examples",
          "[yaml][splice][helm]") {
  Tally total;
  for (const char* dir : {"fixtures", "examples"}) {
    Tally t = check_flipped_renders(std::string(SBR_SOURCE_DIR) + "/" + dir);
    total.flipped += t.flipped;
    total.taken += t.taken;
  }
  INFO(total.taken << " of " << total.flipped << " flipped templates spliced");
  CHECK(total.flipped > 0);
  CHECK(total.taken > 0);
}

TEST_CASE("a spliced stream equals the whole read: the benchmark's charts",
          "[yaml][splice][helm]") {
  auto dir = std::filesystem::temp_directory_path() /
             ("sbreview-splice-bench-" + std::to_string(::getpid()));
  std::string cmd = "python3 '" + std::string(SBR_SOURCE_DIR) + "/bench/gen_chart.py' '" +
                    dir.string() + "' 2 >/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  Tally t = check_flipped_renders(dir.string());
  std::filesystem::remove_all(dir);
  // Two charts of 20 templates, 13 of which a switch changes: each change is one entry.
  CHECK(t.flipped == 26);
  CHECK(t.taken == 26);
}

// Small edits of streams built from lines that sit at the awkward places of block YAML
// (explicit keys and values, compact sequences, nulls, blank lines, keys no `:` follows,
// quotes left open):
// every splice taken must equal the whole read. The fuzz target `splice` found the `: value`
// line, the bare key and the open quote cases this way.
TEST_CASE("a spliced stream equals the whole read: random edits of awkward lines",
          "[yaml][splice]") {
  const std::vector<std::string> kLines = {
      "a:",  "b: 1", ": z", ":",        "  c: 2", "  : y", "  d:", "x:",     "- q",     "  - r",
      "? k", "e: 3", "  ",  "    f: 4", "    :",  "w",     "  w",  "  t: '", "  s: |+", "    one"};
  std::mt19937 rng(20261206);
  auto pick = [&] { return kLines[rng() % kLines.size()]; };
  int taken = 0;
  for (int i = 0; i < 60000; ++i) {
    std::vector<std::string> before;
    for (auto n = 2 + rng() % 5; n > 0; --n) before.push_back(pick());
    std::vector<std::string> after = before;
    auto at = static_cast<std::ptrdiff_t>(rng() % before.size());
    switch (rng() % 3) {
      case 0:
        after[static_cast<std::size_t>(at)] = pick();
        break;
      case 1:
        after.insert(after.begin() + at, pick());
        break;
      default:
        after.erase(after.begin() + at);
    }
    if (spliced_equals_whole(join(before), join(after))) ++taken;
  }
  // The splice is taken often enough for the property to mean something.
  CHECK(taken > 3000);
}

}  // namespace yaml_splice_test
