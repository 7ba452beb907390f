// Turns on origin annotations in the private copy of a kustomization. The user's own
// `buildMetadata` is replaced (its labels and transformer annotations would only add noise);
// line numbers of the copy do not matter, the map reads the user's files.
#include <algorithm>
#include <string_view>
#include <vector>

#include "analyzer/render/kustomize/internal.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::render::kz {
namespace {

constexpr std::string_view kBlock = "buildMetadata: [originAnnotations]\n";

// The text without the block-style `buildMetadata:` entry that starts at `line` (1-based): the
// key line and what follows it until the next line at column 1 that is not a list item.
std::string without_entry(const std::string& text, std::uint32_t line) {
  std::string out;
  std::uint32_t at = 1;
  bool inside = false;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string_view l(text.data() + start, end - start);
    if (at == line) {
      inside = true;
    } else if (inside && !l.empty() && l[0] != ' ' && l[0] != '-' && l[0] != '\n' && l[0] != '#') {
      inside = false;
    }
    if (!inside) out.append(l);
    start = end;
    ++at;
  }
  return out;
}

// The lines of `text`, each with its newline.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    out.push_back(text.substr(start, end - start));
    start = end;
  }
  return out;
}

// `files` added to a block-style `resources:` entry (or a new one at the end).
std::string add_resources(const std::string& text, const std::vector<std::string>& files) {
  std::string items;
  for (const std::string& f : files) items += "- " + f + "\n";
  // A kustomization that held only helmCharts/helmGlobals is empty once they are dropped.
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return "resources:\n" + items;
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure failure;
  if (reader.next(doc, failure) != yaml::DocumentReader::Status::Document || !doc.root ||
      !doc.root->is_map())
    return text;
  const yaml::Node* key = doc.root->key_node("resources");
  const yaml::Node* list = doc.root->get("resources");
  if (key == nullptr || key->column != 1) {
    std::string out = text;
    if (!out.empty() && out.back() != '\n') out.push_back('\n');
    return out + "resources:\n" + items;
  }
  std::vector<std::string> lines = lines_of(text);
  std::string& at = lines[key->line - 1];
  if (list && list->is_seq() && !list->items.empty() && list->items[0]->line == key->line) {
    std::size_t bracket = at.find('[');  // a flow list on the key's line
    std::string names;
    for (const std::string& f : files) names += f + ", ";
    if (bracket != std::string::npos) at.insert(bracket + 1, names);
  } else if (list && list->is_seq() && !list->items.empty()) {
    const std::string& first = lines[list->items[0]->line - 1];
    std::string indent = first.substr(0, first.find('-'));
    std::string lead;
    for (const std::string& f : files) lead += indent + "- " + f + "\n";
    at += lead;
  } else {
    at = "resources:\n" + items;
  }
  std::string out;
  for (const std::string& l : lines) out += l;
  return out;
}

}  // namespace

std::string with_generated_resources(const std::string& text,
                                     const std::vector<std::string>& files) {
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure failure;
  if (reader.next(doc, failure) != yaml::DocumentReader::Status::Document || !doc.root ||
      !doc.root->is_map())
    return text;
  std::vector<std::uint32_t> drop;
  for (const char* key : {"helmCharts", "helmGlobals"}) {
    const yaml::Node* k = doc.root->key_node(key);
    if (k != nullptr && k->column == 1) drop.push_back(k->line);
  }
  std::sort(drop.rbegin(), drop.rend());  // last first: earlier lines keep their numbers
  std::string out = text;
  for (std::uint32_t line : drop) out = without_entry(out, line);
  return files.empty() ? out : add_resources(out, files);
}

std::string with_origin_annotations(const std::string& text) {
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure failure;
  if (reader.next(doc, failure) != yaml::DocumentReader::Status::Document || !doc.root ||
      !doc.root->is_map()) {
    return text;  // kustomize reports what does not parse
  }
  const yaml::Node* key = doc.root->key_node("buildMetadata");
  const bool flow = doc.root->column > 1 || text.find_first_not_of(" \t\r\n") == text.find('{');
  if (flow) {
    if (key != nullptr || doc.root->entries.empty()) return text;  // left as written
    size_t brace = text.find('{');
    return text.substr(0, brace + 1) + "\"buildMetadata\": [\"originAnnotations\"], " +
           text.substr(brace + 1);
  }
  std::string out = key != nullptr && key->column == 1 ? without_entry(text, key->line) : text;
  if (!out.empty() && out.back() != '\n') out.push_back('\n');
  return out + std::string(kBlock);
}

}  // namespace sbr::render::kz
