// The source map of an overlay's output: each key and scalar of a rendered document at the
// same path of its base file's document (the origin annotation names the file), or at the line
// of the last patch of the chain that set it (strategic merge or JSON 6902).
#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

#include "analyzer/render/kustomize/internal.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::render::kz {
namespace {

using yaml::Node;

// One step of a path in a document: a map key, or a list item (matched by its `name`, its
// scalar value, else its index).
struct PathStep {
  bool item = false;
  std::string key;
  size_t index = 0, count = 0;
  std::string name;
  const Node* scalar = nullptr;
};
using Path = std::vector<PathStep>;

struct Found {
  const Node* key = nullptr;    // the key node (an item: the item itself)
  const Node* value = nullptr;  // the value node
};

const Node* find_item(const Node* seq, const PathStep& s) {
  if (!s.name.empty()) {
    for (const Node* it : seq->items) {
      const Node* n = it->is_map() ? it->get("name") : nullptr;
      if (n && n->is_scalar() && n->scalar == s.name) return it;
    }
    return nullptr;
  }
  if (s.scalar != nullptr) {
    for (const Node* it : seq->items) {
      if (it->is_scalar() && it->scalar == s.scalar->scalar) return it;
    }
  }
  return s.index < seq->items.size() ? seq->items[s.index] : nullptr;
}

// The node at path[from...] below `n`.
Found find(const Node* n, const Path& path, size_t from) {
  Found f{n, n};
  for (size_t i = from; i < path.size() && f.value != nullptr; ++i) {
    const PathStep& s = path[i];
    if (s.item) {
      f.value = f.value->is_seq() ? find_item(f.value, s) : nullptr;
      f.key = f.value;
    } else {
      f.key = f.value->is_map() ? f.value->key_node(s.key) : nullptr;
      f.value = f.value->is_map() ? f.value->get(s.key) : nullptr;
    }
  }
  return f.value != nullptr ? f : Found{};
}

// A document parsed once; its nodes stay where they are while it lives.
struct Parsed {
  std::deque<yaml::Document> docs;  // a deque: documents never move (nodes point into them)
};

Parsed parse(std::string_view text) {
  Parsed p;
  yaml::DocumentReader reader(text, 500'000);
  yaml::ParseFailure failure;
  for (int guard = 0; guard < 1'000'000; ++guard) {
    yaml::Document doc;
    auto status = reader.next(doc, failure);
    if (status == yaml::DocumentReader::Status::End) break;
    if (status == yaml::DocumentReader::Status::Document && doc.root) {
      p.docs.push_back(std::move(doc));
    }
  }
  return p;
}

std::string scalar_at(const Node* root, std::string_view a, std::string_view b = {}) {
  const Node* n = root && root->is_map() ? root->get(a) : nullptr;
  if (n && !b.empty()) n = n->is_map() ? n->get(b) : nullptr;
  return n && n->is_scalar() ? n->scalar : "";
}

bool names_match(const std::string& wanted, const std::string& rendered) {
  return wanted.empty() || rendered == wanted || rendered.find(wanted) != std::string::npos;
}

// Where a patch (or one JSON 6902 operation) says what it sets.
struct Overlay {
  const Patch* patch = nullptr;
  std::vector<std::string> pointer;  // JSON 6902: the op's path; strategic merge: empty
  bool json = false;
  const Node* value = nullptr;  // the tree below `pointer` (SMP: the document's root)
  const Node* op = nullptr;     // JSON 6902: the op's `path:` value, for what it sets whole
  // JSON 6902: for each list index of `pointer`, the `name` of the item it denotes (from the
  // base document, or the item the op adds), so a list reordered later keeps the mapping.
  std::vector<std::string> item_names{};
};

std::vector<std::string> split_pointer(const std::string& p) {
  std::vector<std::string> out;
  size_t start = p.empty() || p[0] != '/' ? 0 : 1;
  while (start <= p.size() && !p.empty()) {
    size_t slash = p.find('/', start);
    if (slash == std::string::npos) slash = p.size();
    std::string token = p.substr(start, slash - start);
    for (size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i) {
      if (i + 1 < token.size()) token.replace(i, 2, token[i + 1] == '1' ? "/" : "~");
    }
    out.push_back(token);
    start = slash + 1;
  }
  return out;
}

bool is_index(const std::string& token) {
  return !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
}

bool pointer_step_matches(const std::string& token, const std::string& item_name,
                          const PathStep& s) {
  if (!s.item) return token == s.key;
  if (!item_name.empty() && !s.name.empty()) return item_name == s.name;
  if (token == "-") return s.index + 1 == s.count;
  return token == std::to_string(s.index);
}

// An image reference without its tag or digest: what an `images:` entry's name matches.
std::string image_name(std::string_view ref) {
  ref = ref.substr(0, ref.find('@'));
  size_t colon = ref.rfind(':');
  if (colon != std::string_view::npos && ref.find('/', colon) == std::string_view::npos) {
    ref = ref.substr(0, colon);
  }
  return std::string(ref);
}

bool is_image_path(const Path& path) {
  return path.size() >= 3 && !path.back().item && path.back().key == "image" &&
         path[path.size() - 2].item &&
         (path[path.size() - 3].key == "containers" ||
          path[path.size() - 3].key == "initContainers");
}

struct Mapper {
  std::string kind, name;  // of the rendered object
  FileId base_file = kNoFile;
  const Node* base = nullptr;
  std::vector<Overlay> overlays;              // in the order kustomize applied them
  std::vector<const Kustomization*> applied;  // the chain's kustomizations over this object
  Origin doc_fallback;
  std::vector<SourceMap::Segment>& out;
  const SourceMap* generated = nullptr;  // a chart sbreview rendered: its lines map on

  // The `name` of each list item a JSON 6902 pointer indexes, from the base document or from
  // the item an `add`/`replace` writes at that index.
  void resolve_indexes() {
    for (Overlay& o : overlays) {
      if (!o.json) continue;
      o.item_names.assign(o.pointer.size(), "");
      const Node* at = base;
      for (size_t i = 0; i < o.pointer.size(); ++i) {
        const std::string& t = o.pointer[i];
        const bool last = i + 1 == o.pointer.size();
        if (at == nullptr) break;
        if (at->is_seq()) {
          if (last && o.value && o.value->is_map() && (t == "-" || is_index(t))) {
            o.item_names[i] = scalar_at(o.value, "name");
            break;
          }
          size_t idx = is_index(t) && t.size() < 10 ? std::stoul(t) : at->items.size();
          at = idx < at->items.size() ? at->items[idx] : nullptr;
          if (at) o.item_names[i] = scalar_at(at, "name");
        } else {
          at = at->is_map() ? at->get(t) : nullptr;
        }
      }
    }
  }

  Origin patched(const Overlay& o, const Node* n) const {
    Origin r;
    r.at =
        Location{o.patch->file, n->line + o.patch->line_offset, n->column + o.patch->column_offset};
    r.note = o.patch->note;
    r.role = StepRole::Patched;
    return r;
  }

  // What the overlay says at `path`: the node it wrote there, or nullptr.
  const Node* overlay_at(const Overlay& o, const Path& path, bool key) const {
    if (!o.json) {
      if (path.empty()) return nullptr;
      const std::string& first = path[0].key;
      if (path.size() == 1 && (first == "apiVersion" || first == "kind")) return nullptr;
      if (path.size() == 2 && first == "metadata" &&
          (path[1].key == "name" || path[1].key == "namespace")) {
        return nullptr;
      }
      // The `name:` of a list item selects the item; it does not set it.
      if (path.size() >= 2 && path.back().key == "name" && path[path.size() - 2].item &&
          !path[path.size() - 2].name.empty()) {
        return nullptr;
      }
      Found f = find(o.value, path, 0);
      if (f.value == nullptr) return nullptr;
      if (!key) return f.value;
      // A key whose value the patch only descends into was there before it.
      bool sets = !f.value->is_map() &&
                  !(f.value->is_seq() && !f.value->items.empty() && f.value->items[0]->is_map());
      return sets || find(base, path, 0).value == nullptr ? f.key : nullptr;
    }
    if (path.size() < o.pointer.size()) return nullptr;
    for (size_t i = 0; i < o.pointer.size(); ++i) {
      const std::string& name = i < o.item_names.size() ? o.item_names[i] : "";
      if (!pointer_step_matches(o.pointer[i], name, path[i])) return nullptr;
    }
    if (o.value == nullptr || (path.size() == o.pointer.size() && key)) return o.op;
    Found f = find(o.value, path, o.pointer.size());
    if (f.value == nullptr) return nullptr;
    return key ? f.key : f.value;
  }

  static Origin transformed(const Location& at, const std::string& what) {
    Origin r;
    r.at = at;
    r.note = what;
    r.role = StepRole::Patched;
    return r;
  }

  // Whether kustomize's field path ("spec.template.spec.containers.[name=x].image") is `path`.
  static bool field_path_is(const std::vector<std::string>& fp, const Path& path) {
    if (fp.size() != path.size()) return false;
    for (size_t i = 0; i < fp.size(); ++i) {
      const std::string& t = fp[i];
      const PathStep& s = path[i];
      if (t == "*") continue;
      if (!s.item) {
        if (t != s.key) return false;
      } else if (t.size() > 7 && t.rfind("[name=", 0) == 0 && t.back() == ']') {
        if (t.substr(6, t.size() - 7) != s.name) return false;
      } else if (!is_index(t) || t != std::to_string(s.index)) {
        return false;
      }
    }
    return true;
  }

  // A value a transformer rewrote in place: `namespace:`, an `images:` entry, `replicas:`, a
  // `replacements:` target.
  std::optional<Origin> transformer_at(const Path& path, bool key) const {
    if (key) return std::nullopt;
    for (auto it = applied.rbegin(); it != applied.rend(); ++it) {
      for (auto s = (*it)->field_setters.rbegin(); s != (*it)->field_setters.rend(); ++s) {
        if ((s->kind.empty() || s->kind == kind) && names_match(s->name, name) &&
            field_path_is(s->field_path, path))
          return transformed(s->at, s->note);
      }
    }
    const bool ns = path.size() == 2 && path[0].key == "metadata" && path[1].key == "namespace";
    const Node* was = is_image_path(path) ? find(base, path, 0).value : nullptr;
    for (auto it = applied.rbegin(); it != applied.rend(); ++it) {
      const std::string& file = (*it)->path;
      if (ns && (*it)->namespace_at)
        return transformed(*(*it)->namespace_at, "namespace: in " + file);
      if (was == nullptr || !was->is_scalar()) continue;
      for (const auto& [name, at] : (*it)->image_names) {
        if (name == image_name(was->scalar)) return transformed(at, "images: in " + file);
      }
    }
    return std::nullopt;
  }

  Origin origin_for(const Path& path, bool key) const {
    for (auto it = overlays.rbegin(); it != overlays.rend(); ++it) {
      if (const Node* n = overlay_at(*it, path, key)) return patched(*it, n);
    }
    if (auto t = transformer_at(path, key)) return *t;
    Found f = find(base, path, 0);
    const Node* n = key ? f.key : f.value;
    if (n == nullptr) return doc_fallback;
    if (generated != nullptr) return generated->find(n->line, n->column);
    Origin r;
    r.at = Location{base_file, n->line, n->column};
    return r;
  }

  void emit(const Node* n, const Path& path, bool key) {
    out.push_back({n->line, n->column, origin_for(path, key)});
  }

  void walk(const Node* n, Path& path, int depth) {
    if (n == nullptr || depth > 200) return;
    if (n->is_map()) {
      for (const auto& [k, v] : n->entries) {
        PathStep s;
        s.key = k->scalar;
        path.push_back(s);
        emit(k, path, true);
        if (v->is_scalar() || v->is_null()) emit(v, path, false);
        walk(v, path, depth + 1);
        path.pop_back();
      }
    } else if (n->is_seq()) {
      for (size_t i = 0; i < n->items.size(); ++i) {
        const Node* it = n->items[i];
        PathStep s;
        s.item = true;
        s.index = i;
        s.count = n->items.size();
        if (const Node* name = it->is_map() ? it->get("name") : nullptr;
            name && name->is_scalar()) {
          s.name = name->scalar;
        }
        if (it->is_scalar()) s.scalar = it;
        path.push_back(s);
        if (it->is_scalar() || it->is_null()) emit(it, path, false);
        walk(it, path, depth + 1);
        path.pop_back();
      }
    }
  }
};

// The files a kustomization's build reads, with those of everything it builds on.
void reach(const std::map<FileId, Kustomization>& all, FileId k, int depth,
           std::set<FileId>& into) {
  auto it = all.find(k);
  if (depth > 64 || it == all.end() || !into.insert(k).second) return;
  into.insert(it->second.reads.begin(), it->second.reads.end());
  for (FileId used : it->second.uses) reach(all, used, depth + 1, into);
}

// The overlays of the patches (parsed into `keep`) that apply to one rendered object.
void add_overlays(const Patch& p, const std::string& kind, const std::string& name,
                  std::deque<Parsed>& keep, std::vector<Overlay>& out) {
  keep.push_back(parse(p.text));
  for (const yaml::Document& doc : keep.back().docs) {
    bool json =
        p.form == PatchForm::Json6902 || (p.form == PatchForm::Unknown && doc.root->is_seq());
    if (p.target && (!p.target->kind.empty() && p.target->kind != kind)) continue;
    if (p.target && !names_match(p.target->name, name)) continue;
    if (!json) {
      if (!p.target && (scalar_at(doc.root, "kind") != kind ||
                        !names_match(scalar_at(doc.root, "metadata", "name"), name))) {
        continue;
      }
      out.push_back({&p, {}, false, doc.root, nullptr});
      continue;
    }
    if (!doc.root->is_seq()) continue;
    for (const Node* op : doc.root->items) {
      std::string verb = scalar_at(op, "op");
      const Node* at = op->is_map() ? op->get("path") : nullptr;
      if (at == nullptr || !at->is_scalar() || verb == "remove" || verb == "test") continue;
      const Node* value = verb == "add" || verb == "replace" ? op->get("value") : nullptr;
      out.push_back({&p, split_pointer(at->scalar), true, value, at});
    }
  }
}

const Node* matching_document(const Parsed& file, const std::string& kind,
                              const std::string& name) {
  const Node* by_kind = nullptr;
  int of_kind = 0;
  for (const yaml::Document& d : file.docs) {
    if (scalar_at(d.root, "kind") != kind) continue;
    ++of_kind;
    by_kind = d.root;
    if (scalar_at(d.root, "metadata", "name") == name) return d.root;
  }
  if (of_kind == 1) return by_kind;
  for (const yaml::Document& d : file.docs) {
    std::string base_name = scalar_at(d.root, "metadata", "name");
    if (scalar_at(d.root, "kind") == kind && !base_name.empty() && names_match(base_name, name)) {
      return d.root;
    }
  }
  return nullptr;
}

std::optional<FileId> file_at(const SourceSet& sources, const std::string& path) {
  auto it = std::lower_bound(sources.files.begin(), sources.files.end(), path,
                             [](const SourceFile& f, const std::string& p) { return f.path < p; });
  if (it == sources.files.end() || it->path != path) return std::nullopt;
  return it->id;
}

}  // namespace

SourceMap map_rendered(const std::string& stripped, const std::vector<std::string>& origins,
                       const SourceSet& sources, const std::map<FileId, Kustomization>& all,
                       FileId root, const GeneratedResources& generated) {
  SourceMap map;
  map.fallback.at = Location{root, 1, 1};
  const std::string& root_dir = all.at(root).dir;
  const std::vector<FileId> chain = chain_of(all, root);
  std::map<FileId, std::set<FileId>> reaches;
  for (FileId k : chain) reach(all, k, 0, reaches[k]);

  Parsed output = parse(stripped);
  std::map<FileId, Parsed> bases;
  std::map<std::string, Parsed> charts;
  for (size_t d = 0; d < output.docs.size(); ++d) {
    const Node* doc = output.docs[d].root;
    std::string kind = scalar_at(doc, "kind"), name = scalar_at(doc, "metadata", "name");
    auto rel = d < origins.size() ? resolve_in_tree(root_dir, origins[d]) : std::nullopt;
    auto file = rel ? file_at(sources, *rel) : std::nullopt;
    std::deque<Parsed> patch_docs;
    Mapper m{kind, name, file.value_or(kNoFile), nullptr, {}, {}, map.fallback, map.segments};
    if (file) {
      auto [it, fresh] = bases.try_emplace(*file);
      if (fresh) it->second = parse(sources.files[*file].bytes);
      m.base = matching_document(it->second, kind, name);
      m.doc_fallback.at = Location{*file, 1, 1};
      for (FileId k : chain) {
        if (reaches[k].count(*file) == 0) continue;
        m.applied.push_back(&all.at(k));
        for (const Patch& p : all.at(k).patches)
          add_overlays(p, kind, name, patch_docs, m.overlays);
      }
    }
    auto gen = rel && !file ? generated.find(*rel) : generated.end();
    if (gen != generated.end()) {
      // An object of a chart sbreview rendered: its fields map through the chart's own map,
      // and the patches of the kustomization that inflates it (and of its users) apply.
      auto [it, fresh] = charts.try_emplace(gen->first);
      if (fresh) it->second = parse(gen->second.text);
      m.base = matching_document(it->second, kind, name);
      m.generated = gen->second.map;
      m.doc_fallback = gen->second.map->fallback;
      for (FileId k : chain) {
        if (reaches[k].count(gen->second.kustomization) == 0) continue;
        m.applied.push_back(&all.at(k));
        for (const Patch& p : all.at(k).patches)
          add_overlays(p, kind, name, patch_docs, m.overlays);
      }
    }
    m.resolve_indexes();
    map.segments.push_back({output.docs[d].start_line, 1, m.doc_fallback});
    Path path;
    m.walk(doc, path, 0);
  }
  std::stable_sort(map.segments.begin(), map.segments.end(), [](const auto& a, const auto& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  return map;
}

}  // namespace sbr::render::kz
