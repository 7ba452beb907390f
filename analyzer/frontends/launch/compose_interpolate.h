// Compose interpolation (compose-spec "Interpolation"): `${VAR}`, `$VAR`, `${VAR:-d}`,
// `${VAR-d}`, `${VAR:?e}`, `${VAR?e}`, `${VAR:+x}`, `${VAR+x}` and `$$`, with the values of the
// `.env` file beside the compose file. Compose substitutes before it splits a value, so
// `${WS:-.}:/workspace` is split after `.` is in place. Pure text -> text; never executes.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::launch {

// The variables a compose project sees from its repository: the `.env` file's KEY=VALUE lines.
// The host's shell environment is not in the input; a variable it would supply is unknown.
struct ComposeEnv {
  std::map<std::string, std::string, std::less<>> values;
};

// Parses a `.env` file as compose does: `KEY=VALUE` per line, optional `export `, `#` comments
// (whole-line, or after whitespace in an unquoted value), single quotes literal, double quotes
// with \n \t \\ \" escapes. Read only; nothing in it is evaluated.
ComposeEnv parse_dot_env(std::string_view text);

struct Interpolated {
  std::string text;                  // the value, with unknown parts as `<unknown $NAME>`
  std::vector<std::string> unknown;  // names of variables that have no value and no default
  bool changed = false;              // a `$` form was expanded (or `$$` unescaped)
};

// The placeholder an unknown variable leaves in the text. It holds no `:` or `,` so the value
// languages split around it, and no `${`, so a message never prints an unexpanded form.
std::string unknown_placeholder(std::string_view name);
bool has_unknown(std::string_view text);

// Expands every `$` form of `text`. Variables the host always has (HOME, PWD, XDG_*) stay as
// `$NAME` when unset so path classification still reads them as the home or project directory.
Interpolated interpolate(std::string_view text, const ComposeEnv& env);

}  // namespace sbr::launch
