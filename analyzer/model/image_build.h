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

// A COPY or ADD of the final image (its own stage or a stage it is built FROM).
struct ImageCopy {
  std::vector<std::string> sources;  // as written after ARG/ENV expansion, relative to the context
  std::string dest;         // in the container, WORKDIR applied; "/" at the end: a directory
  std::string from_stage;   // --from=STAGE|IMAGE: not from the repository
  std::string inline_text;  // COPY <<EOF DEST: the heredoc's content
  Provenance from;
};

struct ImageBuild {
  FileId file = kNoFile;
  std::string path;  // in the source set
  std::vector<BaseImage> bases;
  // USER of the last stage, as written, or inherited from the stage it is built FROM; absent
  // when none is written, and then the image runs as root (final_from: where to say so).
  Maybe<std::string> final_user;
  Provenance final_from;                      // the last FROM line
  std::vector<EnvVar> env;                    // ENV / ARG defaults of the last stage
  Fact<std::string> final_workdir{"/", {}};   // WORKDIR of the last stage (inherited), "/" if none
  std::vector<Fact<std::string>> added_urls;  // ADD https://...
  std::vector<Fact<std::string>>
      run_lines;  // RUN bodies (shell form is rendered by the bash frontend)
  // ENTRYPOINT/CMD programs that are files (`/usr/local/bin/entrypoint.sh`, `./start.sh`), as
  // in-container paths with WORKDIR applied; a bare name is looked up in the usual PATH.
  std::vector<Fact<std::string>> entrypoint_scripts;
  std::vector<Fact<std::string>> cmd_scripts;
  std::vector<ImageCopy> copies;   // of the final image's stages
  std::vector<ImageGrant> grants;  // written by RUN lines or COPY heredocs of the final image
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
