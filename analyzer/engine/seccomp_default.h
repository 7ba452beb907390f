// What the engines' default seccomp profiles allow only to a container holding a capability.
// A custom profile that allows one of these unconditionally is weaker than the default it
// replaces (INVARIANTS.md 2).
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "analyzer/model/capability.h"

namespace sbr::engine {

struct GatedSyscall {
  std::string_view name;
  Capability capability;  // what the default profile requires for it
};

// Syscalls that BOTH podman's (containers/common) and docker's (moby) default profiles gate
// behind a capability. Syscalls one of them allows outright (podman: clone, keyctl, mount,
// ptrace, setns, unshare) are not listed: a profile allowing them is no weaker than that
// engine's default.
std::span<const GatedSyscall> capability_gated_syscalls();

// The gating capability when `syscall` is in that list.
std::optional<Capability> gated_by(std::string_view syscall);

// Default actions that let every unlisted syscall through.
bool default_action_allows(std::string_view action);

}  // namespace sbr::engine
