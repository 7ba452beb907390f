#include "analyzer/frontends/frontend.h"

#include <exception>

#include "analyzer/frontends/bash/bash_frontend.h"
#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/frontends/launch/launch.h"

namespace sbr {

void analyze_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  if (!file.readable) return;  // already an invariant-0 problem from the walk
  try {
    switch (file.type) {
      case FileType::Yaml:
      case FileType::Json:
        read_kubernetes_file(file, out);
        break;
      case FileType::Shell:
        read_bash_file(file, ctx, out);
        break;
      case FileType::Compose:
        read_compose_file(file, ctx, out);
        break;
      case FileType::Devcontainer:
        read_devcontainer_file(file, ctx, out);
        break;
      case FileType::Dockerfile:
        read_dockerfile(file, ctx, out);
        break;
      case FileType::Nft:
        read_nft_file(file, out);
        break;
      case FileType::Squid:
        read_squid_file(file, out);
        break;
      case FileType::Markdown:
      case FileType::Config:
      case FileType::Other:
        break;
    }
  } catch (const std::exception& e) {
    // A frontend defect must not lose the file silently: report it where it happened.
    out.problems.push_back(
        {ProblemKind::ParseError, std::string("internal error while reading: ") + e.what(),
         Location{file.id, 1, 1}});
  }
}

template <class T>
static void append(std::vector<T>& to, std::vector<T>& from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

void merge_part(FilePart&& part, Model& model) {
  append(model.workloads, part.workloads);
  append(model.scripts, part.scripts);
  append(model.problems, part.problems);
  ClusterObjects& c = model.cluster;
  append(c.runtime_classes, part.cluster.runtime_classes);
  append(c.service_accounts, part.cluster.service_accounts);
  append(c.roles, part.cluster.roles);
  append(c.bindings, part.cluster.bindings);
  append(c.network_policies, part.cluster.network_policies);
  append(c.limit_ranges, part.cluster.limit_ranges);
  append(c.namespaces, part.cluster.namespaces);
  append(c.services, part.cluster.services);
  append(c.ingresses, part.cluster.ingresses);
  append(c.data, part.cluster.data);
  model.summary.kubernetes_documents += part.summary.kubernetes_documents;
  model.summary.other_yaml_documents += part.summary.other_yaml_documents;
  model.summary.scripts += part.summary.scripts;
}

}  // namespace sbr
