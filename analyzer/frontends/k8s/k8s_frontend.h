// The Kubernetes frontend: manifests (multi-document YAML, List, JSON) into workloads and
// cluster objects; the link step resolves objects across files onto workloads.
#pragma once

#include "analyzer/frontends/frontend.h"
#include "analyzer/frontends/yaml/documents.h"
#include "analyzer/render/render_roots.h"

namespace sbr {

void read_kubernetes_file(const SourceFile& file, FilePart& out,
                          std::uint32_t max_documents = kDefaultMaxDocuments);
// A rendered stream: its objects take the render root as their workload's render root and
// every location through the stream's source map. `reuse`: a flipped render's stream is spliced
// from its default render's documents where that reads the same (documents.h).
void read_rendered_stream(const render::RenderedStream& stream, FilePart& out,
                          std::uint32_t max_documents = kDefaultMaxDocuments,
                          const StreamReuse& reuse = {});

// Resolves RuntimeClasses, ServiceAccounts, RBAC, NetworkPolicies, LimitRanges (then QoS),
// Namespaces, Services and Ingresses onto the workloads. Runs once, after every file is read.
void link_kubernetes(Model& model);

// A container that runs envbuilder on a devcontainer.json of the input takes that
// devcontainer's facts, and the standalone devcontainer is dropped (link_envbuilder.cpp). Runs
// after link_launches, once every devcontainer is read.
void link_envbuilder(Model& model);

}  // namespace sbr
