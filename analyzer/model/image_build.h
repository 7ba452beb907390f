// Facts about the files that shape a container but are not a container themselves: the
// Dockerfile/Containerfile an image is built from and a seccomp profile in the input. Kept in
// the model once per file (a Dockerfile built by three services is judged once); workloads link
// to them by path.
#pragma once

#include <string>
#include <vector>

#include "analyzer/model/provenance.h"
#include "analyzer/model/workload.h"

namespace sbr {

struct BaseImage {
  std::string reference;  // as written after FROM (without --platform / AS name)
  bool pinned = false;    // @sha256:... digest
  bool is_stage = false;  // FROM an earlier build stage: nothing is pulled
  bool is_scratch = false;
  Provenance from;
};

struct ImageBuild {
  FileId file = kNoFile;
  std::vector<BaseImage> bases;
  Maybe<std::string> final_user;              // USER of the last stage, as written
  std::vector<EnvVar> env;                    // ENV / ARG defaults of the last stage
  std::vector<Fact<std::string>> added_urls;  // ADD https://...
  std::vector<Fact<std::string>>
      run_lines;  // RUN bodies (shell form is rendered by the bash frontend)
};

// One syscall entry of a seccomp profile as written: its action, and whether the entry holds
// only under a condition (the container holds a capability, a kernel version, some arguments).
// Whether the action lets the call through is the engine's reading, not the frontend's.
struct SeccompRule {
  std::string syscall;
  std::string action;          // SCMP_ACT_ALLOW, SCMP_ACT_ERRNO, SCMP_ACT_LOG, ...
  bool unconditional = false;  // no includes.caps / minKernel / args restriction
  Provenance from;             // the syscall's name in the profile
};

struct SeccompProfile {
  FileId file = kNoFile;
  std::string path;                   // as found in the source set
  Maybe<std::string> default_action;  // SCMP_ACT_ERRNO, SCMP_ACT_ALLOW...
  std::vector<SeccompRule> rules;     // every syscall entry, in file order
};

}  // namespace sbr
