// Placeholder reader: parses every document and reports parse errors; the object readers
// land with the Kubernetes frontend work.
#include "analyzer/frontends/k8s/k8s_frontend.h"

#include "analyzer/frontends/yaml/yaml_tree.h"

namespace sbr {

void read_kubernetes_file(const SourceFile& file, FilePart& out) {
  std::string text = file.type == FileType::Json ? yaml::strip_jsonc(file.bytes) : file.bytes;
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure fail;
  for (;;) {
    auto st = reader.next(doc, fail);
    if (st == yaml::DocumentReader::Status::End) break;
    if (st == yaml::DocumentReader::Status::Error) {
      out.problems.push_back({ProblemKind::ParseError, "YAML does not parse: " + fail.message,
                              Location{file.id, fail.line, fail.column}});
      continue;
    }
    if (doc.root && doc.root->get("kind") && doc.root->get("apiVersion")) {
      ++out.summary.kubernetes_documents;
    } else if (doc.root) {
      ++out.summary.other_yaml_documents;
    }
  }
}

void link_kubernetes(Model& model) { (void)model; }

}  // namespace sbr
