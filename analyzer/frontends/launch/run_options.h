// The podman/docker `run` option table and a parser that splits an argument list into options,
// the image and the command. Shared by podman/docker run, `pod create`, compose-free runArgs in
// devcontainer.json: one parser, so a flag means the same thing wherever it is written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/invocation.h"
#include "analyzer/model/model.h"

namespace sbr::launch {

struct ParsedOption {
  std::string name;  // canonical long name without dashes ("publish", "volume")
  Word flag;         // the word that names the option
  Word value;        // the value (its own word, or the part after `=`)
  bool has_value = false;
  bool known = true;  // false: not in the table; kept, never dropped
};

struct ParsedRun {
  std::vector<ParsedOption> options;
  bool has_image = false;
  Word image;
  std::vector<Word> command;
  // An unknown option without `=` is assumed to be a flag; the image chosen after it may be
  // its value. Kept so the model says so rather than guessing silently.
  bool image_uncertain = false;
};

// Parses `argv[start..]` as `run` options. With `options_only` (devcontainer runArgs, pod
// create) every positional word is kept as an unknown option instead of becoming the image.
ParsedRun parse_run_args(const std::vector<Word>& argv, std::size_t start, bool options_only);

// Whether a long option (without dashes) takes a value; false for flags and unknown names.
bool option_takes_value(std::string_view long_name);
bool option_is_known(std::string_view long_name);

// Words of a parsed run that the script leaves open where an option goes, as invariant-0
// problems (unknown_words.cpp). An open word read as the image before a plain image reference
// becomes an unknown option, and that reference the image.
std::vector<Problem> unknown_option_words(ParsedRun& run);

// Skips engine-global options (`podman --root X run`) from `i`; returns the subcommand index.
std::size_t skip_global_options(const std::vector<Word>& argv, std::size_t i);

}  // namespace sbr::launch
