// The wrapper table: for each command that runs another, the options that take a separate value
// and the operands it reads before the command. Options written `--opt=value` are one word and
// need no entry. Anything else that starts with `-` is taken for a flag.
// `env -S 'cmd args'` is not split: the string stays the command word, recorded (and unknown)
// rather than taken for an option value, which would leave no command at all.
// Not here: setpriv, capsh, gosu and the other user switchers. They are security steps whose own
// arguments are judged (facts.cpp: is the bounding set dropped?), so they stay the command.
#include "analyzer/render/bash/wrappers.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

enum class Kind { Plain, Sudo, Env, Command, Exec };

struct WrapperSpec {
  std::string_view name;
  Kind kind = Kind::Plain;
  std::vector<std::string_view> valued;  // options whose value is the next word
  int operands = 0;                      // positionals before the command (timeout's DURATION)
};

const std::vector<WrapperSpec>& specs() {
  static const std::vector<WrapperSpec> table = {
      {"sudo", Kind::Sudo, {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}},
      {"doas", Kind::Sudo, {"-u", "-C"}},
      {"env", Kind::Env, {"-u", "--unset", "-C", "--chdir"}},
      {"command", Kind::Command, {}},
      {"builtin", Kind::Command, {}},
      {"exec", Kind::Exec, {"-a"}},
      {"nohup", Kind::Plain, {}},
      {"setsid", Kind::Plain, {}},
      {"stdbuf", Kind::Plain, {"-i", "-o", "-e"}},
      {"timeout", Kind::Plain, {"-s", "--signal", "-k", "--kill-after"}, 1},
      {"nice", Kind::Plain, {"-n", "--adjustment"}},
      {"ionice", Kind::Plain, {"-c", "--class", "-n", "--classdata"}},
      {"chrt",
       Kind::Plain,
       {"-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"},
       1},
      {"taskset", Kind::Plain, {}, 1},
      {"unshare",
       Kind::Plain,
       {"-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd", "--propagation",
        "--map-user", "--map-group", "--map-users", "--map-groups"}},
      {"systemd-run",
       Kind::Plain,
       {"-u", "--unit", "-p", "--property", "--description", "--slice", "-E", "--setenv", "--uid",
        "--gid", "-M", "--machine", "--working-directory", "-H", "--host", "--on-active",
        "--on-boot", "--on-calendar"}},
  };
  return table;
}

const WrapperSpec* find_spec(std::string_view name) {
  for (const WrapperSpec& s : specs()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

bool is_assignment(const std::string& w) {
  return w.find('=') != std::string::npos && !starts(w, "=");
}

// `env` with nothing after its options and assignments prints the environment: it is the command.
bool env_runs_command(const std::vector<EWord>& argv, std::size_t i) {
  std::size_t j = i + 1;
  while (j < argv.size() && (starts(argv[j].w.text, "-") || is_assignment(argv[j].w.text))) ++j;
  return j < argv.size();
}

bool takes_value(const WrapperSpec& spec, const std::string& opt) {
  return std::find(spec.valued.begin(), spec.valued.end(), opt) != spec.valued.end();
}

// The wrapper's own words after its name: options (with their values), then for `env` the
// assignments, then its operands. Returns the index of the wrapped command.
std::size_t own_words(const std::vector<EWord>& argv, std::size_t i, const WrapperSpec& spec,
                      WrapperUse& use, Unwrapped& u) {
  while (i < argv.size()) {
    const std::string& o = argv[i].w.text;
    if (o == "--") {
      use.args.push_back(o);
      ++i;
      break;
    }
    if (starts(o, "-") && o != "-") {
      if (spec.kind == Kind::Command && (o == "-v" || o == "-V")) u.lookup_only = true;
      use.args.push_back(o);
      bool valued = takes_value(spec, o) && i + 1 < argv.size();
      if (valued) use.args.push_back(argv[i + 1].w.text);
      i += valued ? 2 : 1;
      continue;
    }
    if (spec.kind == Kind::Env && is_assignment(o)) {
      u.env_prefix.push_back(argv[i]);
      ++i;
      continue;
    }
    break;
  }
  for (int k = 0; k < spec.operands && i < argv.size(); ++k, ++i) {
    use.operand = argv[i].w.text;
    use.args.push_back(use.operand);
  }
  return i;
}

}  // namespace

Unwrapped unwrap(const std::vector<EWord>& argv) {
  Unwrapped u;
  std::size_t i = 0;
  while (i < argv.size() && !u.lookup_only) {
    if (argv[i].w.symbolic) break;
    const WrapperSpec* spec = find_spec(base_name(argv[i].w.text));
    if (spec == nullptr) break;
    if (spec->kind == Kind::Env && !env_runs_command(argv, i)) break;
    WrapperUse use{std::string(spec->name), {}, "", argv[i].w.from};
    i = own_words(argv, i + 1, *spec, use, u);
    u.via_sudo = u.via_sudo || spec->kind == Kind::Sudo;
    u.via_exec = u.via_exec || spec->kind == Kind::Exec;
    // Each of them execs a program by its path: a shell function of that name is not called.
    u.bypass_functions = true;
    if (spec->kind == Kind::Exec && i >= argv.size()) u.redirects_only = true;
    u.wrappers.push_back(std::move(use));
  }
  u.start = i;
  return u;
}

}  // namespace sbr::bash
