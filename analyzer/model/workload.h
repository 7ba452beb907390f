// The one model of a workload as it would run: a Kubernetes container, a podman/docker
// invocation, a compose service or a devcontainer all land here, so every check is written once.
// Plain data: no parsing, no judging. Engine defaults are NOT written into these fields; they are
// applied by the named functions in analyzer/engine.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/capability.h"
#include "analyzer/model/network.h"
#include "analyzer/model/provenance.h"

namespace sbr {

enum class Engine : std::uint8_t {
  Kubelet,
  Podman,
  Docker,
  PodmanKubePlay,
  Compose,
  Devcontainer,
};

enum class ThreatClass : std::uint8_t { UntrustedCode, UntrustedInput, MultiTenant, Trusted };

enum class ContainerRole : std::uint8_t { Main, Init, Ephemeral };

// What created the workload; decides lifecycle expectations (a Deployment is long-lived).
enum class Controller : std::uint8_t {
  Pod,
  Deployment,
  StatefulSet,
  DaemonSet,
  ReplicaSet,
  ReplicationController,
  Job,
  CronJob,
  Sandbox,           // agents.x-k8s.io Sandbox, created directly
  SandboxTemplate,   // extensions.agents.x-k8s.io template (claims and warm pools use it)
  OtherPodTemplate,  // any CRD embedding a pod template (Argo Rollout, ...)
  Launcher,          // podman/docker run from a script
  ComposeService,
  Devcontainer,
};

// Identity used in messages and fingerprints. Never built from line numbers.
struct WorkloadId {
  std::string kind;         // Kubernetes kind, or "launcher", "compose", "devcontainer"
  std::string api_group;    // e.g. "apps", "agents.x-k8s.io"; empty for core
  std::string ns;           // Kubernetes namespace as written ("" = deployed namespace)
  std::string name;         // object name, script path, compose service
  std::string container;    // container name, or "launch 2" for the 3rd launch of a script
  std::string render_root;  // the file or chart the object was rendered from
  // Launchers: where in the script the launch is, by structure: the functions called on the way
  // and the engine command ("main>start_agent>podman run"), then what tells launches on the
  // same path apart (`--name`, else the image). Never the running launch number, which shifts
  // when an unrelated launch is added above.
  std::string launch_path;
};

// The workload's identity for fingerprints: Kubernetes objects by render root, group, kind,
// namespace, name and container; launchers by script and launch path. Fields joined by \x1f.
std::string identity_key(const WorkloadId& id);

// A name as a reader knows it: the identities of unknown values in a container name
// (`gem-$project_name@bin/agent-box:390`, Word::identity) shown as written, `gem-$project_name`.
std::string reader_name(std::string_view name);

enum class SeccompKind : std::uint8_t { RuntimeDefault, Unconfined, Localhost, CustomFile };
struct Seccomp {
  SeccompKind kind = SeccompKind::RuntimeDefault;
  std::string profile;  // Localhost path or custom file
};

struct Identity {
  Maybe<bool> privileged;
  Maybe<bool> allow_privilege_escalation;  // podman no-new-privileges is stored as false here
  Maybe<std::int64_t> run_as_user;
  Maybe<std::int64_t> run_as_group;
  Maybe<bool> run_as_non_root;
  Maybe<std::string> user_name;  // a non-numeric user (podman --user agent, Dockerfile USER)
  Maybe<bool> read_only_root;
  std::vector<Fact<Capability>> cap_add;
  std::vector<Fact<Capability>> cap_drop;
  Maybe<Seccomp> seccomp;
  Maybe<std::string> apparmor;      // "Unconfined", "RuntimeDefault", "localhost/x", profile
  Maybe<std::string> selinux_type;  // seLinuxOptions.type, label=type:
  Maybe<bool> selinux_disabled;     // label=disable
  Maybe<std::string> proc_mount;    // "Default" | "Unmasked"
  std::vector<Fact<std::string>> unmasked_paths;  // --security-opt unmask=...
  Maybe<bool> systempaths_unconfined;
  Maybe<bool> host_users;     // Kubernetes hostUsers; false = user namespace
  Maybe<std::string> userns;  // podman/docker --userns value
};

enum class MountKind : std::uint8_t {
  HostPath,     // Kubernetes hostPath, -v /host:/ctr, bind mount
  NamedVolume,  // podman/docker named volume, compose volume
  EmptyDir,
  Tmpfs,
  Secret,
  ConfigMap,
  Projected,
  DownwardAPI,
  PersistentVolumeClaim,
  Ephemeral,
  Image,
  Other,
};

enum class Propagation : std::uint8_t { Private, HostToContainer, Bidirectional };

struct Mount {
  MountKind kind = MountKind::Other;
  std::string volume_name;  // Kubernetes volume name
  std::string source;       // host path, named volume, secret name, claim name
  // Display only: a launcher's source with the parts its script left unknown named
  // (`$HOME/.sb/<unknown: $1>/home`, model/invocation.h UnknownPart); "" when it has none.
  // Messages print shown_source() (shown_target()); checks and fingerprints read `source`.
  std::string source_shown;
  // The source starts with a part the script left unknown (`"$DIR/home"`): `source` holds
  // only the known rest (`/home`), and where the directory is on the host is not known.
  bool source_unknown_root = false;
  std::string target;        // path inside the container ("" when the volume is unmounted)
  std::string target_shown;  // display only, as source_shown
  Maybe<bool> read_only;
  Maybe<Propagation> propagation;
  bool relabel_shared = false;     // :z
  bool relabel_private = false;    // :Z
  bool chown = false;              // :U
  bool overlay = false;            // :O
  bool projects_sa_token = false;  // projected serviceAccountToken source
  bool holds_secret = false;       // Secret volume or projected secret
  Maybe<std::string> size_limit;   // emptyDir.sizeLimit, tmpfs size=
  std::string host_path_type;      // hostPath.type
  Provenance source_from;          // the hostPath `path:` / the -v argument
  Provenance mount_from;           // the volumeMount entry

  const std::string& shown_source() const { return source_shown.empty() ? source : source_shown; }
  const std::string& shown_target() const { return target_shown.empty() ? target : target_shown; }
};

enum class EnvSource : std::uint8_t {
  Literal,       // value written in the input
  SecretRef,     // valueFrom.secretKeyRef
  ConfigMapRef,  // valueFrom.configMapKeyRef
  FieldRef,      // downward API
  HostCopy,      // bare -e NAME: copied from the launcher's environment
  Symbolic,      // a launcher value the evaluator could not resolve
};

struct EnvVar {
  std::string name;
  std::string value;  // literal value; NEVER printed unredacted (see report/redact)
  EnvSource source = EnvSource::Literal;
  std::string ref;       // secret / configmap name
  bool on_argv = false;  // -e NAME=value on a command line: visible in the process list
  Provenance from;
  // The launcher computes the value from a secret: a credential helper, a secret file, a
  // secret-named variable (secrets::is_secret_source of the word's origin).
  bool secret_source = false;
};

enum class EnvBulkKind : std::uint8_t {
  SecretEnvFrom,     // envFrom.secretRef: a whole Secret
  ConfigMapEnvFrom,  // envFrom.configMapRef
  HostEnvironment,   // --env-host
  EnvFile,           // --env-file, compose env_file
};

struct EnvBulk {
  EnvBulkKind kind = EnvBulkKind::SecretEnvFrom;
  std::string name;  // secret/configmap name or file path
  Provenance from;
};

struct RbacGrant {
  std::string role;  // "ClusterRole/name" or "Role/ns/name"
  std::vector<std::string> verbs;
  std::vector<std::string> resources;  // "pods/exec", "secrets", "*"
  std::vector<std::string> api_groups;
  std::vector<std::string> resource_names;  // empty = every object of those resources
  std::string subject_kind;                 // "ServiceAccount" or "Group": who the binding names
  Provenance rule_from;                     // the rule in the Role
  Provenance binding_from;                  // the subject entry in the binding
};

struct ServiceAccess {
  std::string account;  // effective service account name ("default" when unset)
  Maybe<bool> pod_automount;
  Maybe<bool> account_automount;
  Provenance account_from;  // the ServiceAccount object, when in the input
  bool account_in_input = false;
  std::vector<RbacGrant> grants;
};

enum class QosClass : std::uint8_t { BestEffort, Burstable, Guaranteed };

struct Resources {
  Maybe<std::string> memory_limit;
  Maybe<std::string> memory_request;
  Maybe<std::string> cpu_limit;
  Maybe<std::string> cpu_request;
  Maybe<std::string> ephemeral_limit;
  Maybe<std::string> memory_swap;
  Maybe<std::int64_t> pids_limit;
  std::optional<QosClass> qos;  // Kubernetes only: computed for the pod
  bool defaults_from_limit_range = false;
  std::vector<Fact<std::string>> gpus;     // --gpus value, nvidia.com/gpu limits
  std::vector<Fact<std::string>> devices;  // --device, host device passthrough
};

struct Lifecycle {
  Controller controller = Controller::Pod;
  Maybe<std::int64_t> ttl_after_finished;
  Maybe<std::int64_t> active_deadline;  // activeDeadlineSeconds (pod or Job)
  Maybe<std::int64_t> timeout;          // podman --timeout, timeout(1) wrapper
  Maybe<std::string> shutdown_time;     // Sandbox spec.lifecycle.shutdownTime
  Maybe<bool> remove_on_exit;           // --rm
  Maybe<std::string> restart;           // restartPolicy / --restart
};

// Another container the workload shares namespaces with (same pod, compose service:x).
struct Sibling {
  std::string name;
  std::string image;
  bool shares_network = true;
  bool shares_processes = false;  // shareProcessNamespace
  Provenance from;
};

// A Namespace's Pod Security Admission labels, when the Namespace is in the input.
struct PodSecurityLabels {
  std::string enforce, audit, warn;
  Provenance from;
};

// Where a workload's threat class came from. Configuration and annotations win over inference.
enum class ThreatSource : std::uint8_t { Inferred, Annotation, Config };

// What one observation says about who is untrusted (INVARIANTS.md "Threat class and engine").
enum class ThreatSignal : std::uint8_t {
  SandboxKind,     // an agent-sandbox kind, or a pod made from a SandboxTemplate
  Harness,         // the command runs an agent harness, or it mounts a harness's config dir
  PermissionFlag,  // the command passes a harness's permission-skipping flag
  Devcontainer,    // a devcontainer: the agent's working container
  Launcher,        // started by a launcher script (weak: platform evidence outweighs it)
  PodRunsCode,     // another container of its pod runs untrusted code (shared token, network)
  CodeImage,       // its image runs the code it is sent (a code interpreter, a Jupyter server)
  SandboxName,     // a compose service whose name or image says it is the sandbox
  RbacSandboxes,   // its ServiceAccount may manage sandbox objects
  RbacPods,        // its ServiceAccount may create pods
  RbacWrites,      // its ServiceAccount may write other cluster state (Secrets, nodes...)
  Webhook,         // an admission webhook's Service selects it
  InstallBundle,   // shipped in the same install bundle as the sandbox CRDs
  NetworkJoined,   // another workload joins its network namespace (service:X, container:X)
  ProxyOf,         // another workload names it in HTTP(S)_PROXY
  ServiceImage,    // a well-known service image: a database, cache, queue, proxy, web server
  Orchestrator,    // it holds a container runtime socket: it starts the other containers
  AppServer,       // a compose service that talks to its project's sandbox service
  PodPlatform,     // an init container without evidence in a pod whose containers are platform
  NetworkSidecar,  // it joins the sandbox's network namespace holding NET_ADMIN: it sets it up
  HelperStep,      // a launcher's own file-handling command on a stock image
  PlatformName,    // named as the platform, in a stack whose orchestrator starts the sandboxes
  TestScript,      // a launch written in a test suite's script
};

// One input of the threat-class inference, kept so that `diff` can tell a class got weaker
// and which evidence a change added. `text` is the reader's words, without the class.
struct ThreatEvidence {
  ThreatSignal signal = ThreatSignal::SandboxKind;
  ThreatClass points_to = ThreatClass::UntrustedCode;
  std::string text;
  Provenance from;
};

// What an image's build gives the user beyond its own uid, as written in the Dockerfile or in a
// file it copies from the repository. Judged by invariants/inv2_image.cpp.
enum class ImageGrantKind : std::uint8_t {
  PasswordlessSudo,  // a sudoers rule with NOPASSWD
  PrivilegedGroup,   // usermod -aG docker|sudo|wheel|root, gpasswd -a, adduser U sudo
  SetuidBit,         // chmod u+s / 4755 on a file
};
// One command of a NOPASSWD rule's command list: its path, and whether the rule lets the
// caller pass arguments (a bare path allows any, `path ""` none; written arguments are fixed).
struct SudoCommand {
  std::string path;
  bool open_arguments = false;
};

struct ImageGrant {
  ImageGrantKind kind = ImageGrantKind::PasswordlessSudo;
  std::string detail;  // the commands after NOPASSWD:, the group, the file made setuid
  std::string via;     // the sudoers file written or copied, the command that adds the group
  Provenance from;     // the RUN or COPY line
  std::vector<SudoCommand> sudo_commands{};  // PasswordlessSudo: the commands of `detail`
};

struct Workload {
  WorkloadId id;
  Engine engine = Engine::Kubelet;
  Maybe<bool> rootful;             // podman run as root on the host
  bool engine_unresolved = false;  // "$ENGINE" run: judged as docker
  ContainerRole role = ContainerRole::Main;
  ThreatClass threat = ThreatClass::UntrustedCode;
  Provenance threat_from;  // annotation or .sbreview.yaml entry; default when invalid
  ThreatSource threat_source = ThreatSource::Inferred;
  std::string threat_reason;  // why, in words (engine/threat_class.h; config or annotation)
  std::vector<ThreatEvidence> threat_evidence;  // the inference's inputs, in a stable order

  Provenance object_from;     // the object's `kind:` line / the invocation's first line
  Provenance pod_spec_from;   // the pod spec's `spec:` line
  Provenance container_from;  // the container's `- name:` line
  // Where a missing security field would be written: the `securityContext:` key of the
  // container / of the pod spec, when the input has one (invalid otherwise).
  Provenance security_context_from;
  Provenance pod_security_context_from;
  // Fields a chart's template guard left out (`{{- with .Values.runtimeClassName }}`): where an
  // absent field is reported, at the guard with the values key that decided it as a step.
  // Pod fields are "pod.<field>" ("pod.runtimeClassName"), container fields "<field>".
  struct Omitted {
    std::string field;
    Provenance from;
  };
  std::vector<Omitted> omitted;
  // A pod spec without containers (an invalid object): the workload stands for the pod, and
  // only its pod-level fields are judged, since no container exists to judge.
  bool pod_only = false;

  std::string image;
  std::vector<Fact<std::string>> command;  // entrypoint + args as they would run
  // A launch's command words that its launcher does not write (unknown, or from the caller,
  // the environment or a file), by index into `command`: what a helper step's class asks.
  std::vector<std::size_t> command_open;
  // When the command is a shell's `-c` text whose every word the launcher wrote: the text's
  // simple commands, each as its words as written (`mkdir -p /d`, `chown 1000 /d`), those in
  // loops and substitutions included. Empty otherwise, or when a program in the text is not
  // written out. What a helper step's class asks (engine/threat_helpers.cpp).
  std::vector<std::vector<std::string>> script_commands;
  // The directory the command (and a devcontainer's lifecycle commands) start in: `-w`,
  // compose `working_dir`, Kubernetes `workingDir`, devcontainer `workspaceFolder`, else the
  // image's WORKDIR. A relative path the command runs is resolved against it.
  Maybe<std::string> working_dir;
  std::map<std::string, std::string> pod_labels;
  std::map<std::string, std::string> annotations;  // sbreview.dev/ ones only (the object's win)

  Maybe<std::string> runtime_class;                  // runtimeClassName / --runtime
  std::optional<Fact<std::string>> runtime_handler;  // from a RuntimeClass object in the input

  Identity identity;
  std::vector<Mount> mounts;
  std::vector<EnvVar> env;
  std::vector<EnvBulk> env_bulk;
  ServiceAccess service;
  Network network;
  Resources resources;
  Lifecycle lifecycle;
  std::vector<Sibling> siblings;
  Maybe<bool> share_process_namespace;
  // Launcher options sbreview does not know: kept (never dropped) for --dump-model and review.
  std::vector<Fact<std::string>> unknown_options;
  Maybe<bool> init;  // --init / devcontainer init: a reaper process as PID 1
  // Commands run inside the container around its start (devcontainer postCreateCommand...);
  // their shell forms are also rendered by the bash frontend into the model's scripts.
  std::vector<Fact<std::string>> setup_commands;
  // Commands the tool runs on the HOST before any container exists (devcontainer
  // initializeCommand), from the repository's own configuration.
  std::vector<Fact<std::string>> host_commands;
  // devcontainer `features` by reference ("ghcr.io/devcontainers/features/git:1"); `modelled`:
  // the frontend applied the feature's effect to this workload, or knows it has none judged.
  struct Feature {
    std::string ref;
    bool modelled = false;
    Provenance from;
  };
  std::vector<Feature> features;
  // devcontainer `dockerComposeFile` (paths in the source set) + `service`: the devcontainer
  // is that compose service; link_launches merges the two into the compose workload. On a
  // compose workload a launcher starts (`compose -f a -f b`): the files of its project.
  std::vector<std::string> compose_files;
  Maybe<std::string> compose_service;
  // Compose `depends_on` and `links`: the services of its project it starts after or reaches
  // by name (the threat-class inference reads who talks to the sandbox).
  std::vector<Fact<std::string>> depends_on;
  std::string dockerfile;     // path (in the source set) of the Dockerfile the image is built from
  std::string build_context;  // its build context directory in the source set ("" = unknown)
  // Grants of the image resolved against the build context: the Dockerfile's own and those of
  // repository files it copies (a sudoers.d drop-in).
  std::vector<ImageGrant> image_grants;
  // Repository files the image's COPY/ADD put into the container, by in-container path (a
  // later COPY to the same path wins), and the ENTRYPOINT/CMD scripts among them. A path no
  // COPY/ADD resolves is unknown: it is never matched to a repository file by its name.
  struct ImageFile {
    std::string container_path;
    std::string repo_path;
    Provenance from;  // the COPY/ADD line; for a start script the ENTRYPOINT or CMD line
  };
  std::vector<ImageFile> image_files;
  std::vector<ImageFile> start_scripts;
  // The devcontainer.json (path in the source set) this Kubernetes container builds and runs
  // itself from (envbuilder), with where the input says so; link_envbuilder folds the
  // devcontainer into this workload and drops its standalone one. For a compose service, the
  // devcontainer that runs as it (`dockerComposeFile` + `service`, link_devcontainers).
  Maybe<std::string> runs_devcontainer;
  // A devcontainer this Kubernetes container builds and runs itself that is not in the input
  // (a remote ENVBUILDER_GIT_URL, a setting from a Secret): why, in words, where it is chosen.
  Maybe<std::string> devcontainer_not_in_input;
  // A compose `build:` whose Dockerfile is not in the input (its path as the build names it,
  // where): what the image holds was not seen. `from_environment`: the `dockerfile:` name is
  // a variable's (a launcher that assembles the Dockerfile at run time).
  struct UnseenBuild {
    std::string dockerfile;
    bool from_environment = false;
    Provenance from;
  };
  std::optional<UnseenBuild> unseen_build;
  // Paths its command or lifecycle commands run (or `nft -f` loads) inside the container that
  // nothing in the configuration fills from the repository (link_gates): they are linked to no
  // repository file, whatever its name.
  struct UnresolvedRun {
    std::string path;
    std::string runner;  // "the container's command", "its postStartCommand"
    bool loaded = false;
    Provenance from;
  };
  std::vector<UnresolvedRun> unresolved_runs;
  std::optional<PodSecurityLabels> pod_security;
  // A workload read from a fenced code block of a document (docs/doc-claims.md, "Examples"):
  // "README.md:12", the block's place; "" for the real configuration.
  std::string example_of;
};

// Whether the workload runs as a Kubernetes pod: on a kubelet, or from a pod manifest through
// `podman kube play`.
inline bool is_kubernetes(const Workload& w) {
  return w.engine == Engine::Kubelet || w.engine == Engine::PodmanKubePlay;
}

}  // namespace sbr
