// Host path classification: which host paths are sensitive and why. Shared by the isolation
// (sockets, devices) and filesystem (system paths, homes, credential stores) checks so that one
// mount is judged once, by the most specific class it falls in.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbr::engine {

// Textual normalisation: '\' -> '/', `$HOME`/`${HOME}`/`${localEnv:HOME}` -> `~`, `$PWD`,
// `$(pwd)`, `${localWorkspaceFolder}` -> `.`, '//' collapsed, '.' and '..' resolved, trailing
// '/' stripped. Relative paths stay relative ("./src" -> "src", "." stays "."). Never touches
// the file system: the analysed repository's host is not this machine.
std::string normalize_path(std::string_view raw);

// true when `path` equals `root` or lies below it (both normalised; "." covers every relative
// path that does not climb out with "..").
bool path_within(std::string_view path, std::string_view root);

enum class HostPathKind {
  None,              // nothing special known about it
  Device,            // /dev or below
  RuntimeSocket,     // a container-runtime socket or a directory that holds one
  CredentialStore,   // ~/.ssh, ~/.aws, ... (or a directory that contains one)
  InstructionDir,    // ~/.claude, ~/.codex, ~/.agents, ~/.local/bin: read by a later run
  AutoRun,           // run by the host with no prompt: git hooks and config, shell start-up
                     // files, a terminal multiplexer's socket directory
  Home,              // a home directory itself (or /home)
  SystemPath,        // /, /etc, /proc, /var/lib/kubelet ... (and their parents and children)
  PublicSystemFile,  // a system path with nothing secret in it (/etc/localtime, CA bundles):
                     // read-only is harmless, writable is still a system path
};

struct HostPathClass {
  HostPathKind kind = HostPathKind::None;
  std::string normalized;
  std::string why;   // the entry matched, e.g. "~/.ssh", "/var/run/docker.sock", "/etc"
  std::string what;  // what it is, when the path alone does not say: "tmux/screen socket directory"
};

HostPathClass classify_host_path(std::string_view raw);
// A mount source whose leading part a script left unknown (Mount::source_unknown_root,
// `$DIR/home`): it is some directory below an unknown one, so only what its own components
// say counts (a `docker.sock`, a `.ssh`), never the absolute place its known rest would be.
HostPathClass classify_host_path(std::string_view raw, bool unknown_root);

// The workspace: the declared paths, or (none declared) the launcher's directory: `$PWD`,
// `$(pwd)`, `${localWorkspaceFolder}` and relative paths that stay inside it.
bool in_workspace(std::string_view raw, const std::vector<std::string>& declared);

std::string_view host_path_kind_name(HostPathKind k);

// A harness's login or configuration directory under a home directory, as a path inside the
// container (`/home/agent/.claude`, `/root/.config/gh`, `~/.aws`): the entry it matched
// ("~/.claude"), or "" when it is none. A volume there carries a login made inside into later
// runs.
std::string login_dir_of(std::string_view container_path);

}  // namespace sbr::engine
