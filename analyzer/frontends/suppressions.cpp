#include "analyzer/frontends/suppressions.h"

#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "analyzer/support/strings.h"

namespace sbr {
namespace {

// The comment opener of the file's format: `#` in a Markdown file is a heading (a document
// that shows the grammar in a code block suppresses nothing), `//` is JSONC's.
std::string_view opener_of(FileType type) {
  switch (type) {
    case FileType::Markdown:
      return "<!--";
    case FileType::Json:
    case FileType::Devcontainer:
      return "//";
    default:
      return "#";
  }
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// The comment opener that ends `before` (the text on the line before the marker), or "".
bool ends_with_opener(std::string_view before, std::string_view opener) {
  before = trim_right(before);
  return before.size() >= opener.size() && before.substr(before.size() - opener.size()) == opener;
}

// An odd number of quotes before the opener: it is inside a quoted string, not a comment.
bool inside_quotes(std::string_view before) {
  return std::count(before.begin(), before.end(), '"') % 2 == 1 ||
         std::count(before.begin(), before.end(), '\'') % 2 == 1;
}

bool comment_only(std::string_view line, std::string_view opener) {
  return trim(line).substr(0, opener.size()) == opener;
}

bool valid_date(std::string_view d) {
  static const RE2 kDate(R"(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))");
  return RE2::FullMatch(d, kDate);
}

// The line of `text` that starts at `from`, without its newline.
std::string_view line_at(std::string_view text, size_t from) {
  size_t end = text.find('\n', from);
  return text.substr(from, end == std::string_view::npos ? text.size() - from : end - from);
}

// For a comment alone on line `line` (which starts at `start`): the next line that holds
// something other than a comment; 0 when the file ends first.
std::uint32_t next_code_line(std::string_view text, size_t start, std::uint32_t line,
                             std::string_view opener) {
  size_t at = text.find('\n', start);
  while (at != std::string_view::npos) {
    ++line;
    std::string_view l = line_at(text, at + 1);
    if (!trim(l).empty() && !comment_only(l, opener)) return line;
    at = text.find('\n', at + 1);
  }
  return 0;
}

}  // namespace

Suppression parse_suppression(std::string_view text) {
  static const RE2 kGrammar(
      R"(\s*(SB\d{4}(?:\s*,\s*SB\d{4})*)(?:\s+until\s+(\S+))?\s*(?:--\s*(.*?))?\s*)");
  Suppression s;
  text = trim_right(text);
  if (text.size() >= 3 && text.substr(text.size() - 3) == "-->") text.remove_suffix(3);
  std::string rules, until, reason;
  if (!RE2::FullMatch(text, kGrammar, &rules, &until, &reason)) {
    s.error = "write it as `sbreview-ignore SB1234 [until YYYY-MM-DD] -- reason`";
    return s;
  }
  for (const std::string& r : split(rules, ',')) s.rules.emplace_back(trim(r));
  if (!until.empty() && !valid_date(until)) {
    s.error = "`until " + until + "` is not a YYYY-MM-DD date";
  }
  s.expires = until;
  s.reason = std::string(trim_right(reason));
  return s;
}

void read_suppression_comments(const SourceFile& file, std::vector<Suppression>& out) {
  const std::string_view text = file.bytes;
  const std::string_view marker = kIgnoreMarker;
  const std::string_view opener = opener_of(file.type);
  std::uint32_t line = 1;
  size_t counted = 0;  // newlines are counted up to here
  for (size_t at = text.find(marker); at != std::string_view::npos;
       at = text.find(marker, at + marker.size())) {
    size_t start = text.rfind('\n', at);
    start = start == std::string_view::npos ? 0 : start + 1;
    for (; counted < start; ++counted) line += text[counted] == '\n' ? 1 : 0;
    std::string_view before = text.substr(start, at - start);
    // The marker in a value or in prose is not a suppression; nor is a `#` inside quotes.
    if (!ends_with_opener(before, opener) || inside_quotes(before)) continue;
    const size_t after = at + marker.size();
    // `sbreview-ignore:` is a suppression written wrongly (and reported); `sbreview-ignored`
    // is another word.
    if (after < text.size() && text[after] != ' ' && text[after] != '\t' && text[after] != ':') {
      continue;
    }
    Suppression s = parse_suppression(line_at(text, at + marker.size()));
    s.kind = SuppressionKind::Comment;
    const size_t opened = trim_right(before).size() - opener.size();
    s.at = Location{file.id, line, static_cast<std::uint32_t>(opened + 1)};
    s.line = line;
    const bool alone = trim(before) == opener;
    if (alone) s.next_line = next_code_line(text, start, line, opener);
    out.push_back(std::move(s));
  }
}

namespace {

// The line of the annotation key in the object's document, or the object's location when the
// key is not written there (a rendered value, a JSON manifest).
Location annotation_line(const SourceSet& sources, Location object) {
  if (object.file >= sources.files.size()) return object;
  std::string_view text = sources.files[object.file].bytes;
  size_t at = 0;
  for (std::uint32_t line = 1; line < object.line && at != std::string_view::npos; ++line) {
    at = text.find('\n', at);
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos) return object;
  size_t doc = text.rfind("\n---", at);
  size_t end = text.find("\n---", at);
  size_t key = text.find(kIgnoreAnnotation, doc == std::string_view::npos ? 0 : doc + 1);
  if (key == std::string_view::npos || key > end) return object;
  Location l = object;
  l.line = 1 + static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + key, '\n'));
  size_t start = text.rfind('\n', key);
  l.column =
      static_cast<std::uint32_t>(key - (start == std::string_view::npos ? 0 : start + 1) + 1);
  return l;
}

}  // namespace

void read_suppression_annotations(const Model& model, const SourceSet& sources,
                                  std::vector<Suppression>& out) {
  // Workloads of one object share its annotation and location: one suppression each.
  std::map<std::tuple<Location, std::string>, size_t> seen;
  for (const Workload& w : model.workloads) {
    auto it = w.annotations.find(kIgnoreAnnotation);
    if (it == w.annotations.end()) continue;
    for (const std::string& entry : split(it->second, ';')) {
      if (trim(entry).empty()) continue;
      auto key = std::make_tuple(w.object_from.at, entry);
      auto [pos, fresh] = seen.emplace(key, out.size());
      if (fresh) {
        Suppression s = parse_suppression(entry);
        s.kind = SuppressionKind::Annotation;
        s.at = annotation_line(sources, w.object_from.at);
        out.push_back(std::move(s));
      }
      out[pos->second].identities.push_back(identity_key(w.id));
    }
  }
}

}  // namespace sbr
