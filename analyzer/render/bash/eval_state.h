// What the bash evaluator carries along a path (evaluator.h): the shell's state (variables,
// functions, positional parameters, options, traps) and the context of the command being
// evaluated (its path condition, how its status is used, the tree it is read from), and what a
// substitution captures of what it prints.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/render/bash/render.h"
#include "analyzer/render/bash/syntax.h"
#include "analyzer/render/bash/value.h"

namespace sbr::bash {

using FunctionMap = std::map<std::string, std::pair<TSNode, const SyntaxTree*>>;

struct Trap {
  std::vector<std::string> signals;
  std::string handler;   // as written
  std::string expanded;  // handler text plus the bodies of functions it calls
  Location at;
};

struct Resource {
  ResourceStart start;              // what the model records
  std::vector<std::string> idents;  // names a cleanup would mention: var names, container names
  bool idle = false;                // a container whose command only waits (`sleep infinity`)
};

struct Options {
  bool errexit = false;
  bool nounset = false;
  bool pipefail = false;
  bool xtrace = false;
  bool umask_strict = false;
  Location xtrace_at;
};

struct State {
  Cow<VarMap> globals;
  std::vector<Cow<VarMap>> frames;  // function locals, innermost last
  std::vector<EWord> positional;
  bool positional_unknown = true;  // top level: the script's arguments
  int shifted = 0;                 // ... shifted this many times (-1: a count not known)
  Cow<FunctionMap> functions;
  Options opts;
  std::vector<Trap> traps;
  bool dead = false;       // after exit / exec: nothing further runs on this path
  bool returning = false;  // after `return` in a function
  int breaking = 0;        // pending `break`
  bool may_break = false;  // a `break` on an undecided path: the loop's bound is unknown
};

struct Ctx {
  Condition cond;  // the path condition
  bool errexit_suppressed = false;
  StatusUse status = StatusUse::Unchecked;  // how this command's exit status is used
  Location status_at;                       // the `||` that decides it, for related locations
  // The statement's status is its body's: the last of a function or of a `-c` text, whose
  // caller uses it as `status` and `errexit_suppressed` say (`f() { A && B; }`: A's failure is
  // f's, which errexit stops at the call).
  bool status_returned = false;
  // Of a `-c` text's returned statement: whether errexit applies in the shell that ran the text
  // (the text's own shell starts without it).
  std::optional<bool> caller_errexit;
  bool background = false;
  bool in_pipeline_not_last = false;
  bool stdout_piped = false;
  const SyntaxTree* tree = nullptr;
  std::string assign_target;  // `x=$(cmd)`: the variable capturing the output
  // The last stage of a pipeline whose producer reads the host's network (`ip route | awk`).
  std::string pipe_host_network;
  // Set while command() runs another argument list of a command (a value of another path):
  // that list's path, so that what it prints inside `$(...)` is that path's output.
  const Condition* printed_on = nullptr;
};

State merge_states(State a, State b, const Condition& ca, const Condition& cb, bool a_default,
                   bool a_tagged = false);

// What `echo`/`printf` print inside a `$(...)` or `<(...)` (capture.cpp).
struct Capture {
  // What was printed on every path: each alternative the pieces printed on it, in order,
  // each with the place of the statement that printed it.
  Value out;
  bool known = true;  // false once anything else wrote to the captured output
  // Lines whose text is not all known (capture_lines): a reader of lines can use them, a
  // `$(...)` split on blanks cannot.
  bool lines_only = false;
  // The repository file whose text a text tool printed (awk, sed, cat... of a file of the
  // tree), and whether anything else printed output that is not known.
  const SourceFile* repository_text = nullptr;
  bool other_output = false;
  // What the output was computed from, when that is the host's network (Word::host_network).
  std::string host_network;
};

}  // namespace sbr::bash
