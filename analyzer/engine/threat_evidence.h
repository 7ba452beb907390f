// The evidence collectors of the threat-class inference, one kind of observation per file, and
// the helpers they share; threat_class.cpp runs them and decides. Internal to analyzer/engine:
// checks read the class and the recorded evidence, never these functions.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/model.h"

namespace sbr::engine::threat {

using Evidence = std::vector<ThreatEvidence>;

// Whether a table of words (`kFilePrograms`, `kSandboxGroups`...) holds `v`.
template <class C>
bool contains(const C& c, std::string_view v) {
  return std::find(c.begin(), c.end(), v) != c.end();
}

void add(Evidence& out, ThreatSignal s, ThreatClass c, std::string text, const Provenance& from);

// "path:line" of a provenance, "" when it has none.
std::string where(const Model& m, const Provenance& p);

// "compose service agent", "Deployment manager", "launcher x": a workload in a reason's words.
std::string reader_name(const Workload& w);

// Untrusted-code evidence on the workload itself (anything but the launcher default): it wins
// over every platform signal.
bool strong_code(const Evidence& ev);

// threat_images.cpp: what the image (or, for a compose service, its name) says the workload
// is. A code interpreter or a service named as the sandbox: untrusted-code; a well-known
// service image (by the image, or the base image of the Dockerfile it is built from):
// untrusted-input.
void image_evidence(const Model& m, const Workload& w, Evidence& out);
// An image reference's repository, lower case, without registry host, `library/`, tag or
// digest (`docker.io/library/alpine:3.20` -> `alpine`); "" when a variable is left in it.
std::string repository_of(std::string_view ref);
// threat_helpers.cpp: a launch whose command, written in its launcher, only handles files on a
// stock base image (`docker run --rm -v vol:/data alpine cat /data/x`): the launcher's helper
// step, which reads what the sandbox left.
void helper_evidence(const Workload& w, Evidence& out);
// A launch whose engine command is written in a test suite's script (`tests/integration/
// test-x.sh`, `test-*.sh`): the suite exercising the product, not the sandbox its users run.
void test_script_evidence(const Model& m, const Workload& w, Evidence& out);
// A program that reads, copies or changes files and runs nothing it is given (`cat`, `mkdir`,
// `chown`, `rsync`...), by its base name.
bool file_program(std::string_view word);
// The sandbox word a name holds (`sandbox`, `interpreter`, `judge`...), or "" when it has none
// or also names the platform around one (`sandbox-web`).
std::string sandbox_word(std::string_view name);
// The first word of a name that names the platform around a sandbox (`web`, `ui`, `db`,
// `gateway`...), or "".
std::string platform_word(std::string_view name);

// threat_named.cpp: a workload without evidence of its own, named as the platform, in a stack
// whose orchestrator (the socket, `create pods`) starts the sandboxes at run time. Reads the
// other workloads' evidence.
void named_platform_evidence(const Model& m, std::vector<Evidence>& evidence);

// threat_rbac.cpp: what the workload's ServiceAccount may do, by the RoleBindings and
// ClusterRoleBindings of the input. Creating pods, managing sandboxes or writing any other
// cluster state is the platform's work: a controller, an operator, a setup Job.
void rbac_evidence(const Model& m, const Workload& w, Evidence& out);
// An API group of the agent-sandbox kinds (`agents.x-k8s.io`, `extensions.agents.x-k8s.io`).
bool sandbox_group(std::string_view group);

// threat_stack.cpp: the workload's place in its stack. Holding a runtime socket (the
// orchestrator), the containers of its pod (one class per pod), and talking to the compose
// project's sandbox service (the app server), and setting up the sandbox's network from inside
// its namespace (a firewall sidecar). The last three read the other workloads' evidence, so
// they run after every workload's own.
void orchestrator_evidence(const Workload& w, Evidence& out);
void pod_evidence(const Model& m, std::vector<Evidence>& evidence);
void sidecar_evidence(const Model& m, std::vector<Evidence>& evidence);
void app_server_evidence(const Model& m, std::vector<Evidence>& evidence);

}  // namespace sbr::engine::threat
