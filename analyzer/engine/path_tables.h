// The host path classifier's data (paths.cpp): runtime sockets, system paths, and the entries
// under a home directory that hold credentials, instructions, what the host runs unprompted, and
// harness logins. Kept apart from the matching logic so that a new entry is a one-line change.
#pragma once

#include <array>
#include <string_view>

namespace sbr::engine::path_tables {

// Runtime sockets by file name, wherever they live (Docker Desktop and colima keep them under
// the home directory).
inline constexpr std::array<std::string_view, 8> kSocketNames = {
    "docker.sock", "podman.sock",      "containerd.sock", "containerd.sock.ttrpc",
    "crio.sock",   "cri-dockerd.sock", "dockershim.sock", "io.podman"};

// Directories (relative to /run; /var/run is the same directory through a symlink) that hold
// runtime sockets: their whole subtree counts, and their parents up to / do too.
inline constexpr std::array<std::string_view, 8> kSocketDirs = {
    "run/docker",         "run/containerd",    "run/podman",        "run/crio",
    "run/k3s/containerd", "run/user/*/podman", "run/user/*/docker", "run/user/*/containerd"};

// Host system paths (INVARIANTS 3) plus the places whose write access is host code execution or
// whose read access discloses cluster secrets: binaries and libraries, CNI plugins, the kubelet's
// and runtimes' state, etcd, and /var/log (kubelet follows symlinks placed there). /root is
// judged as a home directory.
inline constexpr std::array<std::string_view, 19> kSystemPaths = {"/etc",
                                                                  "/boot",
                                                                  "/proc",
                                                                  "/sys",
                                                                  "/var/lib/kubelet",
                                                                  "/var/lib/docker",
                                                                  "/var/lib/containers",
                                                                  "/var/lib/containerd",
                                                                  "/var/lib/rancher",
                                                                  "/var/lib/etcd",
                                                                  "/var/log",
                                                                  "/run",
                                                                  "/usr",
                                                                  "/bin",
                                                                  "/sbin",
                                                                  "/lib",
                                                                  "/lib32",
                                                                  "/lib64",
                                                                  "/opt/cni"};

// Children of system paths that hold nothing secret; mounting them read-only is routine.
inline constexpr std::array<std::string_view, 10> kPublicSystemFiles = {
    "/etc/localtime",
    "/etc/timezone",
    "/etc/ssl/certs",
    "/etc/pki/tls/certs",
    "/etc/pki/ca-trust/extracted",
    "/etc/ca-certificates",
    "/usr/share/zoneinfo",
    "/usr/share/ca-certificates",
    "/etc/os-release",
    "/usr/lib/os-release"};

// Relative to a home directory.
inline constexpr std::array<std::string_view, 34> kCredentialStores = {
    ".ssh",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".kube",
    ".docker",
    ".gnupg",
    ".netrc",
    ".git-credentials",
    ".config/gh",
    ".config/hub",
    ".npmrc",
    ".pypirc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".terraform.d/credentials.tfrc.json",
    ".vault-token",
    ".password-store",
    ".local/share/keyrings",
    ".config/github-copilot",
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".config/op",
    ".oci",
    ".config/containers/auth.json",
    ".config/doctl",
    ".mozilla",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    "Library/Application Support/Google/Chrome",
    "Library/Application Support/Firefox",
    "Library/Keychains"};

// Relative to a home directory: what an agent could plant for a human (or the agent's next,
// trusted run) to execute later.
inline constexpr std::array<std::string_view, 12> kInstructionDirs = {
    ".agents",          ".claude",        ".claude.json", ".codex",
    ".gemini",          ".cursor",        ".continue",    ".aider.conf.yml",
    ".config/opencode", ".config/claude", ".githooks",    ".local/bin"};

// Relative to a home directory: what the host runs with no prompt at all, the next time a
// person opens a shell, runs git or attaches to their terminal session.
inline constexpr std::array<std::string_view, 11> kAutoRun = {
    ".gitconfig", ".config/git", ".bashrc", ".bash_profile", ".bash_login", ".profile",
    ".zshrc",     ".zprofile",   ".zshenv", ".tmux.conf",    ".screenrc"};

// Where harnesses keep a login or the configuration that holds one, relative to a home.
inline constexpr std::array<std::string_view, 16> kLoginDirs = {
    ".claude",          ".claude.json",
    ".codex",           ".gemini",
    ".config/gh",       ".aws",
    ".config/gcloud",   ".docker",
    ".git-credentials", ".npmrc",
    ".config/opencode", ".kube",
    ".netrc",           ".config/github-copilot",
    ".azure",           ".cursor"};

struct HomeSplit {
  bool is_home = false;
  std::string home;  // "~", "~alice", "/root", "/home/alice"
  std::vector<std::string> rel;
  bool collection = false;  // /home, /Users: every user's home
};

}  // namespace sbr::engine::path_tables
