// Script kinds: a launcher script, the commands it runs as rendered, and the bash renderer's
// neutral observations around them (model/script.h, model/script_observations.h).
#include "analyzer/check/fields.h"
#include "analyzer/check/fields_util.h"
#include "analyzer/support/strings.h"

namespace sbr::match {
namespace {

template <class E>
std::vector<std::string_view> c_names(const char* (*name)(E), int count) {
  std::vector<std::string_view> out;
  out.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) out.emplace_back(name(static_cast<E>(i)));
  return out;
}

const ScriptObservations& obs(const Scope& s) {
  return s.as<ScriptFacts>().observed;
}

// A kind of script observation.
KindDef observation(std::string_view name, std::string_view path, std::string_view doc,
                    std::string_view key, Enumerate each) {
  KindDef k;
  k.name = name;
  k.parent = "script";
  k.model_path = path;
  k.doc = doc;
  k.key = key;
  k.each = each;
  return k;
}

#define SBR_EACH(T, member)                     \
  [](const Scope& p, ChildVisitor v, void* u) { \
    for (const T& x : obs(p).member) v(&x, u);  \
  }

void add_steps(std::vector<KindDef>& out) {
  auto k = observation("step", "ScriptObservations::steps",
                       "A security step (gate load, capability drop, user switch) "
                       "and how its exit status is used.",
                       "line", SBR_EACH(SecurityStep, steps));
  k.fields.push_back({"kind", FieldType::Enum, "what the step configures",
                      [](const Scope& s) {
                        const auto& x = s.as<SecurityStep>();
                        return of(std::string_view(step_kind_name(x.kind)), &x.from);
                      },
                      false, false, c_names<StepKind>(step_kind_name, 3)});
  k.fields.push_back({"command", FieldType::String, "its first words", [](const Scope& s) {
                        const auto& x = s.as<SecurityStep>();
                        return text(x.command, &x.from);
                      }});
  k.fields.push_back({"line", FieldType::String, "its whole command line", [](const Scope& s) {
                        const auto& x = s.as<SecurityStep>();
                        return text(x.line, &x.from);
                      }});
  k.fields.push_back({"status", FieldType::Enum, "how its exit status is used",
                      [](const Scope& s) {
                        return of(std::string_view(status_use_name(s.as<SecurityStep>().status)));
                      },
                      false, false, c_names<StatusUse>(status_use_name, 8)});
  k.fields.push_back({"errexit_applies", FieldType::Bool, "errexit stops the script on failure",
                      [](const Scope& s) { return of(s.as<SecurityStep>().errexit_applies); }});
  k.fields.push_back({"effect", FieldType::Enum, "what it does to traffic",
                      [](const Scope& s) {
                        return of(std::string_view(step_effect_name(s.as<SecurityStep>().effect)));
                      },
                      false, false, c_names<StepEffect>(step_effect_name, 4)});
  out.push_back(std::move(k));

  auto sp = observation("splice", "ScriptObservations::splices",
                        "A value from outside the script spliced into code.", "variable",
                        SBR_EACH(Splice, splices));
  sp.fields.push_back({"sink", FieldType::Enum, "the code it reaches",
                       [](const Scope& s) {
                         const auto& x = s.as<Splice>();
                         return of(std::string_view(sink_kind_name(x.sink)), &x.from);
                       },
                       false, false, c_names<SinkKind>(sink_kind_name, 6)});
  sp.fields.push_back({"sink_command", FieldType::String, "eval, bash, nft, sed...",
                       [](const Scope& s) { return text(s.as<Splice>().sink_command); }});
  sp.fields.push_back({"variable", FieldType::String, "the value's identifier", [](const Scope& s) {
                         const auto& x = s.as<Splice>();
                         return text(x.variable, &x.from);
                       }});
  sp.fields.push_back({"source", FieldType::Enum, "where the value comes from",
                       [](const Scope& s) {
                         return of(std::string_view(value_source_name(s.as<Splice>().source)));
                       },
                       false, false, c_names<ValueSource>(value_source_name, 7)});
  sp.fields.push_back({"validated", FieldType::Bool, "an earlier test constrained it",
                       [](const Scope& s) { return of(s.as<Splice>().validated); }});
  sp.fields.push_back({"one_argument", FieldType::Bool, "the value is one quoted argument",
                       [](const Scope& s) { return of(s.as<Splice>().one_argument); }});
  out.push_back(std::move(sp));
}

void add_resources(std::vector<KindDef>& out) {
  auto r = observation("resource", "ScriptObservations::resources",
                       "Something the script starts on the host.", "name",
                       SBR_EACH(ResourceStart, resources));
  r.fields.push_back({"kind", FieldType::Enum, "what is started",
                      [](const Scope& s) {
                        const auto& x = s.as<ResourceStart>();
                        return of(std::string_view(resource_kind_name(x.kind)), &x.from);
                      },
                      false, false, c_names<ResourceKind>(resource_kind_name, 6)});
  r.fields.push_back(
      {"name", FieldType::String, "container, tool, network or file", [](const Scope& s) {
         const auto& x = s.as<ResourceStart>();
         return text(x.name, x.name_shown, &x.from);
       }});
  r.fields.push_back({"publishes_ports", FieldType::Bool, "it publishes ports",
                      [](const Scope& s) { return of(s.as<ResourceStart>().publishes_ports); }});
  r.fields.push_back({"has_cleanup", FieldType::Bool, "a trap removes it", [](const Scope& s) {
                        return of(s.as<ResourceStart>().cleanup_trap.has_value());
                      }});
  r.fields.push_back(
      {"cleanup_installed_before", FieldType::Bool, "that trap was in force when it started",
       [](const Scope& s) { return of(s.as<ResourceStart>().cleanup_installed_before); }});
  out.push_back(std::move(r));

  auto e = observation("exec", "ScriptObservations::execs", "`exec` replacing the shell.",
                       "user_switch", SBR_EACH(ExecHandover, execs));
  e.fields.push_back(
      {"container_launch", FieldType::Bool, "it execs a container launch", [](const Scope& s) {
         const auto& x = s.as<ExecHandover>();
         return of(x.container_launch, &x.from);
       }});
  e.fields.push_back({"bounding_set_dropped", FieldType::Bool,
                      "setpriv --bounding-set -all / capsh --drop before it", [](const Scope& s) {
                        return of(s.as<ExecHandover>().bounding_set_dropped);
                      }});
  e.fields.push_back({"user_switch", FieldType::String, "gosu, su-exec, setpriv...",
                      [](const Scope& s) { return text(s.as<ExecHandover>().user_switch); }});
  e.fields.push_back(
      {"traps_in_force", FieldType::Int, "how many traps it discards", [](const Scope& s) {
         return of(static_cast<std::int64_t>(s.as<ExecHandover>().traps_in_force.size()));
       }});
  out.push_back(std::move(e));

  auto l = observation("launch", "ScriptObservations::launches",
                       "A container launch with the shell options in force.", "command",
                       SBR_EACH(ContainerLaunch, launches));
  l.fields.push_back({"command", FieldType::String, "`podman run`...", [](const Scope& s) {
                        const auto& x = s.as<ContainerLaunch>();
                        return text(x.command, &x.from);
                      }});
  l.fields.push_back({"errexit", FieldType::Bool, "set -e in force",
                      [](const Scope& s) { return of(s.as<ContainerLaunch>().errexit); }});
  l.fields.push_back({"nounset", FieldType::Bool, "set -u in force",
                      [](const Scope& s) { return of(s.as<ContainerLaunch>().nounset); }});
  l.fields.push_back({"pipefail", FieldType::Bool, "set -o pipefail in force",
                      [](const Scope& s) { return of(s.as<ContainerLaunch>().pipefail); }});
  out.push_back(std::move(l));
}

void add_secret_observations(std::vector<KindDef>& out) {
  auto u = observation("url_userinfo", "ScriptObservations::urls",
                       "A URL word with userinfo (`scheme://user:pass@host`).", "secret_variable",
                       SBR_EACH(UrlUserinfo, urls));
  u.fields.push_back(
      {"secret_variable", FieldType::String, "the secret variable it holds", [](const Scope& s) {
         const auto& x = s.as<UrlUserinfo>();
         return text(x.secret_variable, &x.from);
       }});
  u.fields.push_back({"has_password", FieldType::Bool, "a password part is written",
                      [](const Scope& s) { return of(s.as<UrlUserinfo>().has_password); }});
  out.push_back(std::move(u));

  auto f =
      observation("secret_file", "ScriptObservations::secret_files", "A secret written to a file.",
                  "path", SBR_EACH(SecretFileWrite, secret_files));
  f.fields.push_back({"path", FieldType::String, "the file", [](const Scope& s) {
                        const auto& x = s.as<SecretFileWrite>();
                        return text(x.path, x.path_shown, &x.from);
                      }});
  f.fields.push_back({"variable", FieldType::String, "the secret variable",
                      [](const Scope& s) { return text(s.as<SecretFileWrite>().variable); }});
  f.fields.push_back({"created_private", FieldType::Bool, "umask 077 or mktemp",
                      [](const Scope& s) { return of(s.as<SecretFileWrite>().created_private); }});
  f.fields.push_back({"chmod_private", FieldType::Bool, "chmod 600 of the path",
                      [](const Scope& s) { return of(s.as<SecretFileWrite>().chmod_private); }});
  out.push_back(std::move(f));

  auto g = observation("sudo_grant", "ScriptObservations::grants",
                       "A sudoers rule or sudo group the script grants.", "target",
                       SBR_EACH(PrivilegeGrant, grants));
  g.fields.push_back(
      {"target", FieldType::String, "the sudoers file or command", [](const Scope& s) {
         const auto& x = s.as<PrivilegeGrant>();
         return text(x.target, &x.from);
       }});
  g.fields.push_back({"grants_all", FieldType::Bool, "ALL commands",
                      [](const Scope& s) { return of(s.as<PrivilegeGrant>().grants_all); }});
  g.fields.push_back({"nopasswd", FieldType::Bool, "NOPASSWD",
                      [](const Scope& s) { return of(s.as<PrivilegeGrant>().nopasswd); }});
  out.push_back(std::move(g));
}

void add_option_observations(std::vector<KindDef>& out) {
  auto w = observation("engine_option", "ScriptObservations::engine_options",
                       "A symbolic word among a launch's engine options.", "variable",
                       SBR_EACH(EngineOptionWord, engine_options));
  w.fields.push_back({"variable", FieldType::String, "the variable or `$@`", [](const Scope& s) {
                        const auto& x = s.as<EngineOptionWord>();
                        return text(x.variable, &x.from);
                      }});
  w.fields.push_back({"source", FieldType::Enum, "where its value comes from",
                      [](const Scope& s) {
                        return of(
                            std::string_view(value_source_name(s.as<EngineOptionWord>().source)));
                      },
                      false, false, c_names<ValueSource>(value_source_name, 7)});
  out.push_back(std::move(w));

  auto b = observation("option_branch", "ScriptObservations::option_branches",
                       "A `case` item for a long option.", "option",
                       SBR_EACH(OptionBranch, option_branches));
  b.fields.push_back({"option", FieldType::String, "the pattern", [](const Scope& s) {
                        const auto& x = s.as<OptionBranch>();
                        return text(x.option, &x.from);
                      }});
  b.fields.push_back({"warns", FieldType::Bool, "its branch warns",
                      [](const Scope& s) { return of(s.as<OptionBranch>().warns); }});
  out.push_back(std::move(b));

  auto p = observation("fetch_pipe", "ScriptObservations::fetch_pipes",
                       "A download piped into a later stage.", "consumer",
                       SBR_EACH(FetchPipe, fetch_pipes));
  p.fields.push_back({"producer", FieldType::String, "curl, wget",
                      [](const Scope& s) { return text(s.as<FetchPipe>().producer); }});
  p.fields.push_back(
      {"consumer", FieldType::String, "the later stage's command", [](const Scope& s) {
         const auto& x = s.as<FetchPipe>();
         return text(x.consumer, &x.from);
       }});
  out.push_back(std::move(p));

  auto t = observation("tool_guard", "ScriptObservations::tool_guards",
                       "A tool-presence check that skips the security steps.", "tool",
                       SBR_EACH(ToolGuard, tool_guards));
  t.fields.push_back({"tool", FieldType::String, "the tool", [](const Scope& s) {
                        const auto& x = s.as<ToolGuard>();
                        return text(x.tool, &x.from);
                      }});
  t.fields.push_back({"warns", FieldType::Bool, "the skipping branch warns",
                      [](const Scope& s) { return of(s.as<ToolGuard>().warns); }});
  out.push_back(std::move(t));
}

std::string joined_words(const std::vector<Word>& words, size_t from) {
  std::string out;
  for (size_t i = from; i < words.size(); ++i) {
    if (i > from) out += ' ';
    out += words[i].text;
  }
  return out;
}

void add_invocations(std::vector<KindDef>& out) {
  KindDef k;
  k.name = "invocation";
  k.parent = "script";
  k.model_path = "ScriptFacts::invocations";
  k.doc = "A command as the script would run it, after partial evaluation.";
  k.key = "line";
  k.each = [](const Scope& p, ChildVisitor v, void* u) {
    for (const Invocation& x : p.as<ScriptFacts>().invocations) v(&x, u);
  };
  k.fields.push_back({"command", FieldType::String, "argv[0]'s base name", [](const Scope& s) {
                        const auto& x = s.as<Invocation>();
                        if (x.argv.empty()) return Value{};
                        return cached_text(
                            s, 0, [&] { return base_name(x.argv[0].text); }, &x.from);
                      }});
  k.fields.push_back({"args", FieldType::List, "the words after argv[0]", [](const Scope& s) {
                        const auto& x = s.as<Invocation>();
                        auto& c = s.cache.list;
                        if (!c) {
                          c.emplace();
                          for (size_t i = 1; i < x.argv.size(); ++i) c->push_back(x.argv[i].text);
                        }
                        return of(*c, &x.from);
                      }});
  k.fields.push_back({"line", FieldType::String, "the whole command line", [](const Scope& s) {
                        const auto& x = s.as<Invocation>();
                        return cached_text(
                            s, 1, [&] { return joined_words(x.argv, 0); }, &x.from);
                      }});
  k.fields.push_back({"via_sudo", FieldType::Bool, "run through sudo",
                      [](const Scope& s) { return of(s.as<Invocation>().via_sudo); }});
  k.fields.push_back({"via_exec", FieldType::Bool, "`exec cmd`",
                      [](const Scope& s) { return of(s.as<Invocation>().via_exec); }});
  out.push_back(std::move(k));
}

}  // namespace

void add_script_kinds(std::vector<KindDef>& out) {
  KindDef s;
  s.name = "script";
  s.model_path = "Model::scripts";
  s.doc = "A shell script the bash frontend rendered (launchers, entrypoints, RUN lines).";
  s.key = "path";
  s.each = [](const Scope& root, ChildVisitor v, void* u) {
    for (const ScriptFacts& x : root.model->scripts) v(&x, u);
  };
  s.fields.push_back({"path", FieldType::String, "the script", [](const Scope& x) {
                        return of(std::string_view(x.model->files.path(x.as<ScriptFacts>().file)));
                      }});
  s.fields.push_back({"posix_sh", FieldType::Bool, "run by sh: EXIT traps miss INT/TERM",
                      [](const Scope& x) { return of(obs(x).posix_sh); }});
  out.push_back(std::move(s));
  add_invocations(out);
  add_steps(out);
  add_resources(out);
  add_secret_observations(out);
  add_option_observations(out);
}

}  // namespace sbr::match
