// Nothing unknown is silent: a launch word whose value the script leaves open and that stands
// where an option goes can add any option at run time (`podman run $EXTRA img`: EXTRA may be
// `--privileged -v /:/host`). The review cannot see those options, so the launch says so
// (invariant 0, SB0013) instead of the model treating the word as the image.
#include <fmt/format.h>

#include "analyzer/frontends/launch/run_options.h"

namespace sbr::launch {
namespace {

// `ghcr.io/acme/agent:1.2`, `alpine`, `localhost/agent@sha256:...`: what an image looks like,
// as opposed to a command (`bash`, `/bin/sh`) or a flag.
bool looks_like_image(const Word& w) {
  if (w.symbolic || w.text.empty() || w.text[0] == '-' || w.text[0] == '/') return false;
  if (w.text.find_first_of(" \t=") != std::string::npos) return false;
  return w.text.find('/') != std::string::npos || w.text.find(':') != std::string::npos ||
         w.text.find('@') != std::string::npos;
}

std::string shown(const Word& w) {
  if (!w.origin.empty()) return w.origin;
  return w.text.empty() ? "an unknown word" : "`" + w.text + "`";
}

}  // namespace

std::vector<Problem> unknown_option_words(ParsedRun& run) {
  std::vector<Problem> out;
  auto report = [&](const Word& w, std::string_view where) {
    out.push_back({ProblemKind::ArgvPartlyUnknown,
                   fmt::format("container launch argument list partly unknown: {} stands {}; its "
                               "value at run time can add options (`--privileged`, `-v /:/host`) "
                               "that were not reviewed",
                               shown(w), where),
                   w.from.at});
  };
  for (const ParsedOption& o : run.options) {
    // A flag word the script does not fix (`${NET_FLAG:---network=none}`): parsed by its
    // default, but the environment chooses it.
    if (o.flag.symbolic) report(o.flag, "where an option goes");
  }
  // A symbolic word taken for the image, followed by a word that is plainly the image: the
  // model takes that word as the image and keeps the open one as an unknown option.
  if (run.has_image && run.image.symbolic && !run.command.empty() &&
      looks_like_image(run.command.front())) {
    report(run.image, fmt::format("before the image {}", run.command.front().text));
    ParsedOption open;
    open.flag = run.image;
    open.name = run.image.origin;
    open.known = false;
    run.options.push_back(std::move(open));
    run.image = run.command.front();
    run.command.erase(run.command.begin());
  }
  return out;
}

}  // namespace sbr::launch
