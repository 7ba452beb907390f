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
  // An open word where the image goes was read as options (open_word_is_options): the image
  // is the first word after it that is certainly not an option, or unknown when there is none.
  bool open_before_image = false;
};

// Parses `argv[start..]` as `run` options. With `options_only` (devcontainer runArgs, pod
// create) every positional word is kept as an unknown option instead of becoming the image.
ParsedRun parse_run_args(const std::vector<Word>& argv, std::size_t start, bool options_only);

// A word that reads as an image reference (a registry path, a tag or a digest), never a
// command such as `bash`: what follows an open word that is then not the image.
bool plain_image_reference(const Word& w);
// The same test on text alone: also the guess of an open word (its default).
bool reads_as_image(std::string_view text);

// Whether a long option (without dashes) takes a value; false for flags and unknown names.
bool option_takes_value(std::string_view long_name);
bool option_is_known(std::string_view long_name);

// Words of a parsed run that the script leaves open where an option goes, as invariant-0
// problems (unknown_words.cpp), also the open words the parser read as options where the image
// goes.
std::vector<Problem> unknown_option_words(const ParsedRun& run);

// Skips engine-global options (`podman --root X run`) from `i`; returns the subcommand index.
std::size_t skip_global_options(const std::vector<Word>& argv, std::size_t i);

}  // namespace sbr::launch
