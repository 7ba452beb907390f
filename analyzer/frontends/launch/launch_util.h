// Small helpers shared by the launch frontend's readers: paths inside the source set, YAML
// node positions as provenance, and the Dockerfile attachment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/frontends/frontend.h"
#include "analyzer/model/invocation.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::launch {

std::string dir_of(const std::string& path);          // "a/b/c" -> "a/b/" ("" at the top)
std::string normalize_path(const std::string& path);  // collapses "." and ".."
const SourceFile* find_source(const SourceSet* sources, const std::string& path);

// timeout(1)'s DURATION ("90", "1.5h", "30m", "2d") in whole seconds; nullopt if not one.
std::optional<std::int64_t> duration_seconds(const std::string& text);
// `timeout DURATION` in front of the command: the workload's wall clock (DURATION 0 is none).
// Only for a client that stays attached; the caller decides that.
void apply_timeout_wrapper(const Invocation& inv, Workload& w);

inline Provenance at_node(FileId file, const yaml::Node* n, Frontend fe) {
  return Provenance{Location{file, n ? n->line : 1, n ? n->column : 1}, fe, {}};
}

// A Dockerfile as facts (also used by compose/devcontainer to attach what they build from).
ImageBuild parse_dockerfile(const SourceFile& file);
// Gives `w` the image's final USER (when the workload sets none; root when the Dockerfile
// writes none), its ENV and grants, and records the Dockerfile path and build context. Both
// are paths relative to the source set; COPY sources resolve against `context`
// (image_link.cpp).
void attach_dockerfile(const SourceSet* sources, const std::string& dockerfile,
                       const std::string& context, Workload& w);

// A command that is a shell's `-c` text (`sh -ec 'mkdir -p /d && chown 1000 /d'`), the shell,
// its options and the text all written by the launcher: the text's simple commands into
// Workload::script_commands (shell_text.cpp).
void read_script_commands(Workload& w);

}  // namespace sbr::launch
