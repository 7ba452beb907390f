// The sections of `.sbreview.yaml` about what is read and how far: `limits`, `documents` and
// `helm`.
#include <fmt/format.h>

#include "analyzer/config/config_reader.h"
#include "analyzer/support/strings.h"

namespace sbr::config_reader {

namespace {

// A positive whole number no larger than `max`.
Result<std::uint64_t> positive(const Parser& p, const Node* v, std::string_view key,
                               std::uint64_t max) {
  auto n = v->as_int();
  if (!n || *n <= 0 || static_cast<std::uint64_t>(*n) > max) {
    return p.err(v, fmt::format("`limits.{}` must be a whole number from 1 to {}", key, max));
  }
  return static_cast<std::uint64_t>(*n);
}

// `documents:` entries (docs/doc-claims.md, "Scoping"): a glob over Markdown paths, the
// workloads it is about, whether it is read for claims and whether its examples are analysed.
std::optional<Error> read_document(const Parser& p, const Node* e, Config& c) {
  if (!e->is_map()) return p.err(e, "a `documents` entry is a mapping");
  if (auto bad = p.only_keys(e, {"path", "about", "claims", "examples"}, "a `documents` entry"))
    return bad;
  DocumentScope d;
  d.at = p.loc(e);
  if (e->get("path") == nullptr) return p.err(e, "a `documents` entry needs `path`");
  auto path = p.str(e->get("path"), "path");
  if (!path) return path.error();
  d.path = *path;
  if (const Node* a = e->get("about")) {
    auto about = a->is_scalar() ? Result<std::vector<std::string>>(std::vector{a->scalar})
                                : p.strings(a, "about");
    if (!about) return about.error();
    d.about = *about;
  }
  for (auto [key, field] : {std::pair{"claims", &d.claims}, {"examples", &d.examples}}) {
    if (const Node* v = e->get(key)) {
      if (!v->as_bool()) return p.err(v, fmt::format("`{}` must be true or false", key));
      *field = *v->as_bool();
    }
  }
  c.documents.push_back(std::move(d));
  return std::nullopt;
}

std::optional<Error> read_helm_chart(const Parser& p, const Node* e, Config& c) {
  if (!e->is_map()) return p.err(e, "a `helm.charts` entry is a mapping");
  if (auto bad = p.only_keys(e, {"path", "values", "set", "set_string", "set_file"},
                             "a `helm.charts` entry"))
    return bad;
  HelmChartValues h;
  h.at = p.loc(e);
  auto path = p.str(e->get("path"), "path");
  if (!path) return path.error();
  h.path = *path;
  for (auto [key, field] : {std::pair{"values", &h.values},
                            {"set", &h.set},
                            {"set_string", &h.set_string},
                            {"set_file", &h.set_file}}) {
    const Node* v = e->get(key);
    if (v == nullptr) continue;
    auto list = p.strings(v, key);
    if (!list) return list.error();
    if (std::string_view(key) != "values") {
      for (std::size_t k = 0; k < list->size(); ++k) {
        if ((*list)[k].find('=') == std::string::npos)
          return p.err(v->items[k], fmt::format("`{}` entries are KEY=VALUE", key));
      }
    }
    *field = *list;
  }
  c.helm.charts.push_back(std::move(h));
  return std::nullopt;
}

// A Kubernetes version as Helm's --kube-version takes it: [v]MAJOR[.MINOR[.PATCH]].
bool kube_version_text(std::string_view v) {
  if (!v.empty() && v[0] == 'v') v.remove_prefix(1);
  int parts = 0;
  for (std::string_view part : split(v, '.')) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
    ++parts;
  }
  return parts >= 1 && parts <= 3;
}

}  // namespace

std::optional<Error> read_limits(const Parser& p, const Node* l, Config& c) {
  if (!l->is_map()) return p.err(l, "`limits` must be a mapping");
  if (auto bad = p.only_keys(
          l, {"max_file_bytes", "max_documents", "wall_clock_seconds", "memory_megabytes"},
          "limits")) {
    return bad;
  }
  if (const Node* v = l->get("max_file_bytes")) {
    auto n = positive(p, v, "max_file_bytes", std::uint64_t{1} << 40);
    if (!n) return n.error();
    c.limits.max_file_bytes = *n;
  }
  if (const Node* v = l->get("max_documents")) {
    auto n = positive(p, v, "max_documents", 10'000'000);
    if (!n) return n.error();
    c.limits.max_documents = static_cast<std::uint32_t>(*n);
  }
  if (const Node* v = l->get("wall_clock_seconds")) {
    if (v->as_int() == 0) {
      c.limits.wall_clock_seconds = 0;  // off
    } else {
      auto n = positive(p, v, "wall_clock_seconds", 86'400);
      if (!n) return n.error();
      c.limits.wall_clock_seconds = static_cast<std::uint32_t>(*n);
    }
  }
  if (const Node* v = l->get("memory_megabytes")) {
    if (v->as_int() == 0) {
      c.limits.memory_megabytes = 0;  // off
    } else {
      auto n = positive(p, v, "memory_megabytes", 1'048'576);
      if (!n) return n.error();
      c.limits.memory_megabytes = static_cast<std::uint32_t>(*n);
    }
  }
  return std::nullopt;
}

std::optional<Error> read_documents(const Parser& p, const Node* n, Config& c) {
  return read_list<read_document>(p, n, "documents", c);
}

std::optional<Error> read_helm(const Parser& p, const Node* h, Config& c) {
  if (!h->is_map()) return p.err(h, "`helm` must be a mapping");
  if (auto bad = p.only_keys(h, {"charts", "kube_version", "api_versions"}, "helm")) return bad;
  if (const Node* v = h->get("kube_version")) {
    auto s = p.str(v, "kube_version");
    if (!s) return s.error();
    if (!kube_version_text(*s)) return p.err(v, "`kube_version` must be a version like 1.30.0");
    c.helm.kube_version = *s;
  }
  if (const Node* v = h->get("api_versions")) {
    auto list = p.strings(v, "api_versions");
    if (!list) return list.error();
    c.helm.api_versions = *list;
  }
  if (const Node* charts = h->get("charts")) {
    if (!charts->is_seq()) return p.err(charts, "`helm.charts` must be a list");
    for (const Node* e : charts->items) {
      if (auto bad = read_helm_chart(p, e, c)) return bad;
    }
  }
  return std::nullopt;
}

}  // namespace sbr::config_reader
