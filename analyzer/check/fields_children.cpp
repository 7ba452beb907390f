// The kinds inside a workload: mounts, environment, capabilities, devices and the other lists
// a Workload holds (model/workload.h).
#include <algorithm>

#include "analyzer/check/fields.h"
#include "analyzer/check/fields_util.h"
#include "analyzer/engine/paths.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/support/secrets.h"
#include "invariants/workload_facts.h"

namespace sbr::match {
namespace {

const Workload& parent_workload(const Scope& s) {
  return *s.workload();
}

std::string_view host_class_name(engine::HostPathKind k) {
  static constexpr std::string_view kNames[] = {
      "none",     "device", "runtime-socket", "credential-store",  "instruction-dir",
      "auto-run", "home",   "system-path",    "public-system-file"};
  return kNames[static_cast<int>(k)];
}

// Mount cache slots: the host path's class, computed once for all four fields.
enum MountSlot : size_t { kClass = 0, kNormalized, kWhy, kWhat };  // 4: login_dir, 5: source

const std::string& host_class_part(const Scope& s, MountSlot part) {
  auto& c = s.cache.text;
  if (!c[kClass]) {
    const Mount& m = s.as<Mount>();
    auto hc = engine::classify_host_path(m.source, m.source_unknown_root);
    c[kClass] = std::string(host_class_name(hc.kind));
    c[kNormalized] = std::move(hc.normalized);
    c[kWhy] = std::move(hc.why);
    c[kWhat] = std::move(hc.what);
  }
  return *c[part];
}

Value host_class_value(const Scope& s, MountSlot part) {
  const Mount& m = s.as<Mount>();
  if (m.kind != MountKind::HostPath || m.source.empty()) return {};
  const std::string& v = host_class_part(s, part);
  return v.empty() ? Value{} : of(std::string_view(v), &m.source_from);
}

void mount_fields(std::vector<FieldDef>& f) {
  f.push_back({"kind", FieldType::Enum, "hostPath (any bind mount), volume (a named volume)...",
               [](const Scope& s) { return of(mount_kind_name(s.as<Mount>().kind)); }, false, false,
               names_of<MountKind>(mount_kind_name, 12)});
  f.push_back({"volume_name", FieldType::String, "the Kubernetes volume's name",
               [](const Scope& s) { return text(s.as<Mount>().volume_name); }});
  f.push_back({"source", FieldType::Path,
               "host path, named volume, Secret or claim name; at the hostPath `path:` or the -v "
               "argument",
               [](const Scope& s) {
                 const Mount& m = s.as<Mount>();
                 return text(m.source, m.source_shown, &m.source_from);
               }});
  f.push_back({"target", FieldType::Path, "the path inside the container; at the volumeMount",
               [](const Scope& s) {
                 const Mount& m = s.as<Mount>();
                 return text(m.target, m.target_shown, &m.mount_from);
               }});
  f.push_back({"read_only", FieldType::Bool, "readOnly / :ro",
               [](const Scope& s) { return of(s.as<Mount>().read_only); }});
  f.push_back({"propagation", FieldType::Enum, "mountPropagation / :rshared...",
               [](const Scope& s) {
                 const auto& p = s.as<Mount>().propagation;
                 return p ? of(propagation_name(p->value), &p->from) : Value{};
               },
               false, false, names_of<Propagation>(propagation_name, 3)});
  f.push_back({"relabel_shared", FieldType::Bool, ":z",
               [](const Scope& s) { return of(s.as<Mount>().relabel_shared); }});
  f.push_back({"relabel_private", FieldType::Bool, ":Z",
               [](const Scope& s) { return of(s.as<Mount>().relabel_private); }});
  f.push_back({"chown", FieldType::Bool, ":U (chowns the host path)",
               [](const Scope& s) { return of(s.as<Mount>().chown); }});
  f.push_back({"overlay", FieldType::Bool, ":O (writes go to an overlay)",
               [](const Scope& s) { return of(s.as<Mount>().overlay); }});
  f.push_back({"projects_sa_token", FieldType::Bool, "a projected serviceAccountToken source",
               [](const Scope& s) { return of(s.as<Mount>().projects_sa_token); }});
  f.push_back({"holds_secret", FieldType::Bool, "a Secret volume or projected Secret",
               [](const Scope& s) { return of(s.as<Mount>().holds_secret); }});
  f.push_back({"size_limit", FieldType::String, "emptyDir.sizeLimit / tmpfs size=",
               [](const Scope& s) { return of(s.as<Mount>().size_limit); }});
  f.push_back({"host_path_type", FieldType::String, "hostPath.type",
               [](const Scope& s) { return text(s.as<Mount>().host_path_type); }});
  f.push_back({"source_class",
               FieldType::Enum,
               "what the engine knows about a host path (the most specific class)",
               [](const Scope& s) { return host_class_value(s, kClass); },
               true,
               false,
               {"none", "device", "runtime-socket", "credential-store", "instruction-dir",
                "auto-run", "home", "system-path", "public-system-file"}});
  f.push_back({"source_normalized", FieldType::Path,
               "the source normalised ($HOME -> ~, $PWD -> ., '..' resolved)",
               [](const Scope& s) {
                 const Mount& m = s.as<Mount>();
                 if (m.source.empty()) return Value{};
                 return cached_text(
                     s, 5, [&] { return engine::normalize_path(m.source); }, &m.source_from);
               },
               true});
  f.push_back({"source_why", FieldType::String, "the entry of the class it matched (`~/.ssh`)",
               [](const Scope& s) { return host_class_value(s, kWhy); }, true});
  f.push_back({"source_what", FieldType::String,
               "what the path is, when the path alone does not say",
               [](const Scope& s) { return host_class_value(s, kWhat); }, true});
  f.push_back({"source_from", FieldType::Location, "the hostPath `path:` / the -v argument",
               [](const Scope& s) { return place(s.as<Mount>().source_from); }});
  f.push_back({"mount_from", FieldType::Location, "the volumeMount entry",
               [](const Scope& s) { return place(s.as<Mount>().mount_from); }});
  f.push_back({"in_workspace", FieldType::Bool,
               "a host path inside the workspace (declared, else the launcher's directory)",
               [](const Scope& s) {
                 const Mount& m = s.as<Mount>();
                 if (m.kind != MountKind::HostPath || m.source.empty()) return Value{};
                 return of(engine::in_workspace(m.source, s.model->workspace_paths),
                           &m.source_from);
               },
               true});
  f.push_back({"writes_host", FieldType::Bool,
               "the container can write the source (not read-only, not an overlay)",
               [](const Scope& s) { return of(inv::writes_host(s.as<Mount>())); }, true});
  f.push_back(
      {"outlives_run", FieldType::Bool,
       "still there after the run: a host path, named volume or claim",
       [](const Scope& s) { return of(inv::outlives_run(s.as<Mount>(), parent_workload(s))); },
       true});
  f.push_back({"login_dir", FieldType::String,
               "the harness login or configuration directory the target is (`~/.claude`)",
               [](const Scope& s) {
                 return cached_text(
                     s, 4, [&] { return engine::login_dir_of(s.as<Mount>().target); },
                     &s.as<Mount>().mount_from);
               },
               true});
}

void env_fields(std::vector<FieldDef>& f) {
  f.push_back({"name", FieldType::String, "the variable's name", [](const Scope& s) {
                 const EnvVar& e = s.as<EnvVar>();
                 return text(e.name, &e.from);
               }});
  f.push_back({"value", FieldType::String, "the literal value",
               [](const Scope& s) {
                 const EnvVar& e = s.as<EnvVar>();
                 return e.source == EnvSource::Literal ? text(e.value, &e.from) : Value{};
               },
               false, true});
  f.push_back({"source", FieldType::Enum, "where the value comes from",
               [](const Scope& s) { return of(env_source_name(s.as<EnvVar>().source)); }, false,
               false, names_of<EnvSource>(env_source_name, 6)});
  f.push_back({"ref", FieldType::String, "the Secret or ConfigMap it references",
               [](const Scope& s) { return text(s.as<EnvVar>().ref); }});
  f.push_back({"on_argv", FieldType::Bool, "-e NAME=value on an engine command line",
               [](const Scope& s) { return of(s.as<EnvVar>().on_argv); }});
  f.push_back({"secret_name", FieldType::Bool,
               "the name looks secret (*_TOKEN, *_KEY, *SECRET*, *PASSWORD*, AWS_*)",
               [](const Scope& s) { return of(secrets::is_secret_name(s.as<EnvVar>().name)); },
               true});
  f.push_back({"secret_word", FieldType::Bool,
               "a word of the name says secret where secret_name does not look (TOKEN, AUTH, "
               "PIN, PASSPHRASE, COOKIE mid-name: TF_TOKEN_app_terraform_io)",
               [](const Scope& s) { return of(secrets::has_secret_word(s.as<EnvVar>().name)); },
               true});
  f.push_back({"secret_source", FieldType::Bool,
               "the launcher computes the value from a secret: a credential helper, a secret "
               "file, a secret-named variable (`$(gh auth token)`, `$(cat ~/.token)`, `$GH_TOKEN`)",
               [](const Scope& s) { return of(s.as<EnvVar>().secret_source); }});
  f.push_back({"key_format", FieldType::String,
               "the key format a literal value is in (`GitHub token`), unset when none",
               [](const Scope& s) {
                 const EnvVar& e = s.as<EnvVar>();
                 if (e.source != EnvSource::Literal) return Value{};
                 return cached_text(
                     s, 0, [&] { return secrets::key_format(e.value); }, &e.from);
               },
               true});
  f.push_back({"intended", FieldType::Bool, "declared in secrets.intended of .sbreview.yaml",
               [](const Scope& s) {
                 const auto& in = s.model->intended_secrets;
                 return of(std::find(in.begin(), in.end(), s.as<EnvVar>().name) != in.end());
               },
               true});
}

// A kind whose objects are Fact<std::string>s of one Workload list.
KindDef fact_list_kind(std::string_view name, std::string_view path, std::string_view doc,
                       Enumerate each, std::string_view value_doc) {
  KindDef k;
  k.name = name;
  k.parent = "workload";
  k.model_path = path;
  k.doc = doc;
  k.key = "value";
  k.each = each;
  k.fields.push_back({"value", FieldType::String, value_doc, [](const Scope& s) {
                        const auto& f = s.as<Fact<std::string>>();
                        return of(std::string_view(f.value), &f.from);
                      }});
  return k;
}

void add_fact_lists(std::vector<KindDef>& out) {
  out.push_back(fact_list_kind(
      "device", "Workload::resources.devices", "A host device passed through (--device).",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.resources.devices; });
      },
      "the device as written"));
  out.push_back(fact_list_kind(
      "gpu", "Workload::resources.gpus", "GPUs asked for (--gpus, nvidia.com/gpu).",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.resources.gpus; });
      },
      "the --gpus value or the count"));
  out.push_back(fact_list_kind(
      "unmasked_path", "Workload::identity.unmasked_paths", "--security-opt unmask=PATH.",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.identity.unmasked_paths; });
      },
      "the path unmasked"));
  out.push_back(fact_list_kind(
      "host_loopback", "Workload::network.host_loopback",
      "A way the host's own loopback services are reachable from inside.",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.network.host_loopback; });
      },
      "how (`--add-host=...:host-gateway`, slirp4netns allow_host_loopback...)"));
  out.push_back(fact_list_kind(
      "unknown_option", "Workload::unknown_options",
      "A launcher option sbreview does not model, kept as written.",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.unknown_options; });
      },
      "the option word (`--cgroupns=host`)"));
  out.push_back(fact_list_kind(
      "depends_on", "Workload::depends_on",
      "A compose service this one starts after or reaches by name (depends_on, links).",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.depends_on; });
      },
      "the service's name"));
  out.push_back(fact_list_kind(
      "setup_command", "Workload::setup_commands",
      "A command run inside the container around its start (postCreateCommand...).",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.setup_commands; });
      },
      "`key: command` as written"));
  KindDef host = fact_list_kind(
      "host_command", "Workload::host_commands",
      "A command the tool runs on the host before the container exists (initializeCommand).",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.host_commands; });
      },
      "`key: command` as written");
  host.fields.push_back(
      {"key", FieldType::String, "the devcontainer key (`initializeCommand`)", [](const Scope& s) {
         const auto& f = s.as<Fact<std::string>>();
         std::string_view v = f.value;
         return of(v.substr(0, v.find(':')), &f.from);
       }});
  out.push_back(std::move(host));
  KindDef args = fact_list_kind(
      "command_arg", "Workload::command", "One word of the entrypoint and arguments.",
      [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<std::string>>(
            p, v, u, [](const Workload& w) -> auto& { return w.command; });
      },
      "the word");
  args.fields.push_back(
      {"index", FieldType::Int, "its position, 0 = the program", [](const Scope& s) {
         const auto& cmd = s.workload()->command;
         auto* f = &s.as<Fact<std::string>>();
         return of(static_cast<std::int64_t>(f - cmd.data()), &f->from);
       }});
  args.fields.push_back({"key_format", FieldType::String,
                         "the key format the word is in (`GitHub token`), unset when none",
                         [](const Scope& s) {
                           const auto& f = s.as<Fact<std::string>>();
                           return cached_text(
                               s, 0, [&] { return secrets::key_format(f.value); }, &f.from);
                         },
                         true});
  out.push_back(std::move(args));
}

void add_capability_kinds(std::vector<KindDef>& out) {
  for (std::string_view name : {"cap_add", "cap_drop"}) {
    KindDef k;
    k.name = name;
    k.parent = "workload";
    k.model_path = name == "cap_add" ? "Workload::identity.cap_add" : "Workload::identity.cap_drop";
    k.doc = name == "cap_add" ? "A capability added (capabilities.add, --cap-add, cap_add)."
                              : "A capability dropped (capabilities.drop, --cap-drop, cap_drop).";
    k.key = "name";
    if (name == "cap_add") {
      k.each = [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<Capability>>(
            p, v, u, [](const Workload& w) -> auto& { return w.identity.cap_add; });
      };
    } else {
      k.each = [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Fact<Capability>>(
            p, v, u, [](const Workload& w) -> auto& { return w.identity.cap_drop; });
      };
    }
    k.fields.push_back(
        {"name", FieldType::Enum, "the capability, without CAP_",
         [](const Scope& s) {
           const auto& c = s.as<Fact<Capability>>();
           return of(capability_name(c.value), &c.from);
         },
         false, false,
         names_of<Capability>(capability_name, static_cast<int>(Capability::Unknown) + 1)});
    out.push_back(std::move(k));
  }
}

}  // namespace

void add_workload_child_kinds(std::vector<KindDef>& out) {
  KindDef m;
  m.name = "mount";
  m.parent = "workload";
  m.model_path = "Workload::mounts";
  m.doc = "A volume or bind mount: hostPath, -v, --mount, compose volumes, devcontainer mounts.";
  m.key = "target";
  m.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<Mount>(
        p, v, u, [](const Workload& w) -> auto& { return w.mounts; });
  };
  mount_fields(m.fields);
  out.push_back(std::move(m));

  KindDef e;
  e.name = "env";
  e.parent = "workload";
  e.model_path = "Workload::env";
  e.doc = "One environment variable.";
  e.key = "name";
  e.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<EnvVar>(
        p, v, u, [](const Workload& w) -> auto& { return w.env; });
  };
  env_fields(e.fields);
  out.push_back(std::move(e));

  add_capability_kinds(out);
  add_fact_lists(out);
  add_misc_kinds(out);
}

}  // namespace sbr::match
