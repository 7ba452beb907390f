#include "analyzer/report/catalog_docs.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analyzer/check/fields.h"

namespace sbr::report {
namespace {

struct InvariantDoc {
  std::string_view name;
  std::string_view page;
};
constexpr InvariantDoc kInvariants[] = {
    {"integrity of the analysis", "0-integrity.md"},
    {"the isolation boundary meets the floor", "1-isolation.md"},
    {"least privilege inside the boundary", "2-privilege.md"},
    {"filesystem confinement", "3-filesystem.md"},
    {"no ambient secrets", "4-secrets.md"},
    {"default-deny egress, explicit ingress", "5-network.md"},
    {"resource budgets", "6-resources.md"},
    {"ephemeral, fail-closed lifecycle", "7-lifecycle.md"},
};

bool selected(const Rule& r, std::optional<int> invariant) {
  return !invariant || r.invariant == *invariant;
}

// A user rule's file without its extension: its page (`.md`) and fixture directory are named
// after it, beside it.
std::string without_extension(const std::string& file) {
  for (std::string_view ext : {".yaml", ".yml"}) {
    if (file.size() > ext.size() && file.compare(file.size() - ext.size(), ext.size(), ext) == 0) {
      return file.substr(0, file.size() - ext.size());
    }
  }
  return file;
}

// `|` inside a table cell ends the cell.
std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string_view invariant_name(int invariant) {
  return invariant >= 0 && invariant <= 7 ? kInvariants[invariant].name : "";
}

std::string_view invariant_page(int invariant) {
  return invariant >= 0 && invariant <= 7 ? kInvariants[invariant].page : "";
}

std::string implementation_of(const Rule& r) {
  return r.data ? "data" : r.implemented_by;
}

std::string page_of(const Rule& r) {
  if (r.user) return without_extension(r.file) + ".md";
  return "docs/rules/" + r.id + "-" + r.slug + ".md";
}

std::string fixtures_of(const Rule& r) {
  if (r.user) return without_extension(r.file) + "/";
  return "fixtures/rules/" + r.id + "-" + r.slug + "/";
}

void write_rules_text(const Catalog& c, std::optional<int> invariant, std::ostream& out) {
  for (const Rule& r : c.rules()) {
    if (!selected(r, invariant)) continue;
    out << fmt::format("{:<7} {:<8} {} {:<44} {:<36} {}\n", r.id, severity_name(r.severity),
                       r.invariant, r.slug, implementation_of(r), r.title);
  }
}

void write_rules_json(const Catalog& c, std::optional<int> invariant, std::ostream& out) {
  using Json = nlohmann::ordered_json;
  Json rules = Json::array();
  for (const Rule& r : c.rules()) {
    if (!selected(r, invariant)) continue;
    Json j;
    j["id"] = r.id;
    j["slug"] = r.slug;
    j["title"] = r.title;
    j["invariant"] = r.invariant;
    j["severity"] = severity_name(r.severity);
    j["engines"] = r.applies_to;
    j["implemented_by"] = implementation_of(r);
    j["user"] = r.user;
    j["origin"] = {{"kind", r.origin.kind}, {"detail", r.origin.detail}};
    j["prover"] = r.prover;
    j["page"] = page_of(r);
    j["fixtures"] = fixtures_of(r);
    rules.push_back(std::move(j));
  }
  out << Json{{"rules", std::move(rules)}}.dump(2) << "\n";
}

void write_rules_index(const Catalog& c, std::ostream& out) {
  size_t data = 0, total = 0;
  for (const Rule& r : c.rules()) {
    if (r.user) continue;
    ++total;
    data += r.data ? 1 : 0;
  }
  out << "# Rules\n\n"
         "<!-- Generated from rules/*.yaml by `sbreview rules --format markdown`; the catalog "
         "test fails when this file differs. Do not edit. -->\n\n";
  out << fmt::format(
      "{} rules: {} written as data (a `match:` over the model, "
      "[match-reference.md](match-reference.md)), {} implemented in C++. Adding a rule: "
      "[writing-rules.md](writing-rules.md).\n\n",
      total, data, total - data);
  out << "| # | invariant | rules |\n|---|---|---|\n";
  for (int i = 0; i <= 7; ++i) {
    size_t n = 0;
    for (const Rule& r : c.rules()) n += !r.user && r.invariant == i ? 1 : 0;
    out << fmt::format("| {} | [{}](../invariants/{}) | {} |\n", i, invariant_name(i),
                       invariant_page(i), n);
  }
  for (int i = 0; i <= 7; ++i) {
    out << fmt::format("\n## {} {}\n\n", i, invariant_name(i));
    out << "| id | rule | severity | applies to | implemented by |\n|---|---|---|---|---|\n";
    for (const Rule& r : c.rules()) {
      if (r.user || r.invariant != i) continue;
      out << fmt::format("| [{}]({}-{}.md) | {} | {} | {} | {} |\n", r.id, r.id, r.slug,
                         cell(r.title), severity_name(r.severity), fmt::join(r.applies_to, ", "),
                         r.data ? "data" : "`" + r.implemented_by + "`");
    }
  }
}

void write_match_reference(std::ostream& out) {
  out << "# Match reference\n\n"
         "<!-- Generated from the field table (analyzer/check/fields*.cpp) by the catalog test "
         "(SBR_UPDATE_GOLDEN=1); `--dump-model` prints the same names. Do not edit. -->\n\n"
         "The objects a rule's `match:` selects with `each:`, and their fields. A field of an "
         "enclosing object is named with its kind first (`workload.engine` from a mount). "
         "Derived fields are the engine's conclusions from the written ones. The language: "
         "[writing-rules.md](writing-rules.md).\n\n";
  out << "| kind | inside | from the model | what |\n|---|---|---|---|\n";
  for (const match::KindDef& k : match::object_kinds()) {
    out << fmt::format("| [`{}`](#{}) | {} | `{}` | {} |\n", k.name, k.name,
                       k.parent.empty() ? "the model" : "`" + std::string(k.parent) + "`",
                       k.model_path, cell(k.doc));
  }
  for (const match::KindDef& k : match::object_kinds()) {
    out << fmt::format("\n## {}\n\n{} Inside {}; told apart by `{}`.\n\n", k.name, k.doc,
                       k.parent.empty() ? "the model" : "`" + std::string(k.parent) + "`", k.key);
    out << "| field | type | what |\n|---|---|---|\n";
    for (const match::FieldDef& f : k.fields) {
      std::string type(match::field_type_name(f.type));
      if (!f.domain.empty()) type += ": " + fmt::format("{}", fmt::join(f.domain, ", "));
      std::string what = cell(f.doc);
      if (f.derived) what += " (derived)";
      if (f.secret) what += " (matchable, never printed)";
      out << fmt::format("| `{}` | {} | {} |\n", f.name, cell(type), what);
    }
  }
}

}  // namespace sbr::report
