// OpenShift Template parameters filled as `oc process` fills them, in every string of the
// objects (keys and values): `${NAME}` is replaced inside a string and leaves a string;
// `${{NAME}}` as a whole value is replaced by the value itself, so `replicas: ${{REPLICAS}}` is
// a number. A parameter without a value (one the operator passes with `-p`, or one `generate`d
// at processing time) is unknown: `<unknown $NAME>`, which is no number, no boolean and no `${`
// in a message. A reference to a name the Template does not declare stays as written, as oc
// leaves it (it is often a shell variable in a command).
#include "analyzer/frontends/k8s/reader.h"

namespace sbr::k8s {
namespace {

// An object's own name and namespace read as the template means them, `agent-<WORKSPACE>`;
// any other value as an unknown one.
std::string unknown(const std::string& name, bool object_name) {
  return object_name ? "<" + name + ">" : "<unknown $" + name + ">";
}

// The value `${NAME}` stands for, or nullopt when NAME is not a parameter of the Template.
std::optional<std::string> value_of(const TemplateParams& p, const std::string& name,
                                    bool object_name) {
  auto it = p.find(name);
  if (it == p.end()) return std::nullopt;
  return it->second ? *it->second : unknown(name, object_name);
}

class Filler {
 public:
  Filler(const TemplateParams& p, std::deque<Node>& arena) : p_(p), arena_(arena) {}

  // `depth` 0 is the object; its metadata's name and namespace are at depth 2.
  const Node* fill(const Node* n, int depth = 0, bool in_metadata = false) {
    if (n == nullptr) return nullptr;
    Node& out = arena_.emplace_back(*n);
    if (n->is_scalar()) {
      scalar(out, false);
    } else if (n->is_seq()) {
      for (const Node*& item : out.items) item = fill(item, depth + 1);
    } else if (n->is_map()) {
      for (auto& [k, v] : out.entries) {
        const std::string key = k ? k->scalar : "";
        k = fill(k, depth + 1);
        if (in_metadata && v != nullptr && v->is_scalar() &&
            (key == "name" || key == "namespace")) {
          Node& name = arena_.emplace_back(*v);
          scalar(name, true);
          v = &name;
        } else {
          v = fill(v, depth + 1, depth == 0 && key == "metadata");
        }
      }
    }
    return &out;
  }

 private:
  void scalar(Node& s, bool object_name) {
    const std::string& text = s.scalar;
    // `${{NAME}}` as the whole value: the value, not a string.
    if (text.starts_with("${{") && text.ends_with("}}") && text.find("}}") == text.size() - 2) {
      std::string name = text.substr(3, text.size() - 5);
      if (auto v = value_of(p_, name, object_name)) {
        auto it = p_.find(name);
        s.scalar = *v;
        s.quoted = !it->second;  // an unknown value is no number or boolean
        return;
      }
    }
    bool replaced = false;
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
      std::size_t at = text.find("${", i);
      if (at == std::string::npos) break;
      bool braces2 = text.compare(at, 3, "${{") == 0;
      std::size_t start = at + (braces2 ? 3 : 2);
      std::size_t end = text.find(braces2 ? "}}" : "}", start);
      if (end == std::string::npos) break;
      auto v = value_of(p_, text.substr(start, end - start), object_name);
      out += text.substr(i, at - i);
      i = end + (braces2 ? 2 : 1);
      if (v) {
        out += *v;
        replaced = true;
      } else {
        out += text.substr(at, i - at);
      }
    }
    if (!replaced) return;
    out += text.substr(i);
    s.scalar = std::move(out);
    s.quoted = true;  // a string, as oc leaves it: `runAsUser: ${UID}` is no number
  }

  const TemplateParams& p_;
  std::deque<Node>& arena_;
};

}  // namespace

TemplateParams template_params(const Node* root) {
  TemplateParams out;
  const Node* ps = root ? root->get("parameters") : nullptr;
  if (ps == nullptr || !ps->is_seq()) return out;
  for (const Node* p : ps->items) {
    const Node* n = p->get("name");
    if (n == nullptr || !n->is_scalar() || n->scalar.empty()) continue;
    const Node* v = p->get("value");
    // A `generate`d value is made at processing time; a value is only the default the operator
    // may override, and is what is judged.
    if (v != nullptr && v->is_scalar() && p->get("generate") == nullptr) {
      out[n->scalar] = v->scalar;
    } else {
      out[n->scalar] = std::nullopt;
    }
  }
  return out;
}

const Node* fill_template(const Node* object, const TemplateParams& params,
                          std::deque<Node>& arena) {
  if (params.empty()) return object;
  return Filler(params, arena).fill(object);
}

bool is_unknown_parameter(std::string_view value) {
  return value.find("<unknown $") != std::string_view::npos;
}

}  // namespace sbr::k8s
