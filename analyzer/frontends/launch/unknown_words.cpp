// Nothing unknown is silent: a launch word whose value the script leaves open and that stands
// where an option goes can add any option at run time (`podman run $EXTRA img`: EXTRA may be
// `--privileged -v /:/host`). The review cannot see those options, so the launch says so
// (invariant 0, SB0013) instead of the model treating the word as the image. Which open words
// stand for options rather than the image is the parser's choice (run_options.cpp).
#include <fmt/format.h>

#include "analyzer/frontends/launch/run_options.h"

namespace sbr::launch {
namespace {

std::string shown_open_word(const Word& w) {
  if (!w.origin.empty()) return w.origin;
  return w.text.empty() ? "an unknown word" : "`" + w.text + "`";
}

}  // namespace

std::vector<Problem> unknown_option_words(const ParsedRun& run) {
  std::vector<Problem> out;
  for (const ParsedOption& o : run.options) {
    // A flag word the script does not fix (`${NET_FLAG:---network=none}`): parsed by its
    // default, but the environment chooses it. An open word the parser kept as options where
    // the image goes (`$(build_flags)`) is one too.
    if (!o.flag.symbolic) continue;
    // `--memory="$memory"`: a known option written with its `=` and a quoted value is one
    // argument; the value is open, but it cannot add an option.
    if (o.known && o.flag.one_argument && o.flag.text.starts_with("--") &&
        o.flag.text.find('=') != std::string::npos)
      continue;
    std::string where = "where an option goes";
    if (!o.known && run.open_before_image && !o.flag.text.starts_with("-")) {
      where = run.has_image ? fmt::format("before the image {}", run.image.text.empty()
                                                                     ? shown_open_word(run.image)
                                                                     : run.image.text)
                            : "where an option or the image goes, and no word after it is "
                              "certainly the image";
    }
    out.push_back({ProblemKind::ArgvPartlyUnknown,
                   fmt::format("container launch argument list partly unknown: {} stands {}; its "
                               "value at run time can add options (`--privileged`, `-v /:/host`) "
                               "that were not reviewed",
                               shown_open_word(o.flag), where),
                   o.flag.from.at});
  }
  return out;
}

}  // namespace sbr::launch
