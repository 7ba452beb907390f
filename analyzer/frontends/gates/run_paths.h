// The files a container's command line, or a lifecycle command, runs or loads, as paths inside
// the container: the program of each simple command past the wrappers that run another
// (`sudo`, `env`, `exec`, `tini --`, `su-exec USER`, `sh -c '...'`), the script a shell or
// `source` is given, and the file `nft -f` / `iptables-restore` reads. Which repository file
// each path is, if any, is container_paths.h's question.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/container_paths.h"
#include "analyzer/model/provenance.h"

namespace sbr {

struct RunPath {
  std::string path;  // as written
  PathUse use = PathUse::Program;
  bool loaded = false;  // read as a ruleset (`nft -f`), not run
  Provenance from;      // the word, or the command text it is part of
};

// An argv (a container's command and arguments): a word after a shell's `-c` is shell text.
std::vector<RunPath> run_paths_of_argv(const std::vector<Fact<std::string>>& argv);
// Shell text (a lifecycle command string, `sh -c` text): its simple commands, split at `&&`,
// `||`, `;`, `|`, `&` and newlines outside quotes.
std::vector<RunPath> run_paths_of_shell(std::string_view text, const Provenance& from);

}  // namespace sbr
