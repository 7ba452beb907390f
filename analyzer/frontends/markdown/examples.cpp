// Fenced shell and YAML blocks of a document are examples (docs/doc-claims.md, "Examples"):
// listed always, analysed only when `.sbreview.yaml` says so, and then marked so that every
// report names them as examples and no claim is checked against them.
#include <fmt/format.h>

#include "analyzer/frontends/bash/bash_frontend.h"
#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/frontends/markdown/markdown_internal.h"
#include "analyzer/support/strings.h"

namespace sbr::md {
namespace {

FileType example_type(std::string_view info) {
  std::string lang = lower(info.substr(0, info.find_first_of(" \t{,")));
  if (lang == "sh" || lang == "bash" || lang == "shell" || lang == "zsh") return FileType::Shell;
  if (lang == "yaml" || lang == "yml") return FileType::Yaml;
  return FileType::Other;
}

// The block as a file of its own whose lines are the document's: the lines before it are empty,
// so every fact points into the document.
SourceFile as_file(const SourceFile& doc, const Fence& f, FileType type) {
  SourceFile s;
  s.id = doc.id;
  s.path = doc.path;
  s.type = type;
  s.readable = true;
  s.bytes = std::string(f.fence_line, '\n') + f.body;
  return s;
}

void analyse(const SourceFile& doc, const Fence& f, FileType type, const FrontendContext& ctx,
             FilePart& out) {
  FilePart part;
  SourceFile block = as_file(doc, f, type);
  if (type == FileType::Shell) {
    read_bash_file(block, ctx, part);
  } else {
    read_kubernetes_file(block, part);
  }
  // An example is judged on its own: its workloads are kept, marked; what it would configure
  // around them (policies, accounts, scripts' traps) is not mixed into the real configuration.
  const std::string where = fmt::format("{}:{}", doc.path, f.fence_line + 1);
  for (Workload& w : part.workloads) {
    w.example_of = where;
    out.workloads.push_back(std::move(w));
  }
  std::move(part.problems.begin(), part.problems.end(), std::back_inserter(out.problems));
}

}  // namespace

void read_examples(const Tree& tree, const SourceFile& file, bool analyse_them,
                   const FrontendContext& ctx, Document& doc, FilePart& out) {
  for (const Fence& f : tree.fences) {
    FileType type = example_type(f.info);
    if (type == FileType::Other) continue;
    DocExample e;
    e.language = type == FileType::Shell ? "shell" : "yaml";
    e.at = Location{file.id, f.fence_line + 1, 1};
    e.analysed = analyse_them;
    doc.examples.push_back(e);
    if (analyse_them) analyse(file, f, type, ctx, out);
  }
}

}  // namespace sbr::md
