// Model-level kinds: image builds (Dockerfiles), seccomp profiles and the cluster objects that
// are not workloads (model/image_build.h, model/k8s_objects.h).
#include "analyzer/check/fields.h"
#include "analyzer/check/fields_util.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/support/secrets.h"

namespace sbr::match {
namespace {

void add_image_kinds(std::vector<KindDef>& out) {
  KindDef img;
  img.name = "image";
  img.model_path = "Model::images";
  img.doc = "A Dockerfile or Containerfile in the input, once per file.";
  img.key = "path";
  img.each = [](const Scope& root, ChildVisitor v, void* u) {
    for (const ImageBuild& b : root.model->images) v(&b, u);
  };
  img.fields.push_back({"path", FieldType::String, "the file",
                        [](const Scope& s) { return text(s.as<ImageBuild>().path); }});
  img.fields.push_back({"final_user", FieldType::String,
                        "USER of the last stage (unset: the base image's user, usually root)",
                        [](const Scope& s) { return of(s.as<ImageBuild>().final_user); }});
  img.fields.push_back({"final_from", FieldType::Location, "the last FROM line",
                        [](const Scope& s) { return place(s.as<ImageBuild>().final_from); }});
  img.fields.push_back(
      {"run_lines", FieldType::Int, "how many RUN lines the final image has", [](const Scope& s) {
         return of(static_cast<std::int64_t>(s.as<ImageBuild>().run_lines.size()));
       }});
  out.push_back(std::move(img));

  KindDef env;
  env.name = "image_env";
  env.parent = "image";
  env.model_path = "ImageBuild::env";
  env.doc = "An ENV or ARG default of the final stage.";
  env.key = "name";
  env.each = [](const Scope& p, ChildVisitor v, void* u) {
    for (const EnvVar& e : p.as<ImageBuild>().env) v(&e, u);
  };
  env.fields.push_back({"name", FieldType::String, "the variable", [](const Scope& s) {
                          const auto& e = s.as<EnvVar>();
                          return text(e.name, &e.from);
                        }});
  env.fields.push_back({"value", FieldType::String, "its literal value",
                        [](const Scope& s) {
                          const auto& e = s.as<EnvVar>();
                          return e.source == EnvSource::Literal ? text(e.value, &e.from) : Value{};
                        },
                        false, true});
  env.fields.push_back({"source", FieldType::String, "literal or symbolic",
                        [](const Scope& s) { return of(env_source_name(s.as<EnvVar>().source)); }});
  out.push_back(std::move(env));

  KindDef base;
  base.name = "base_image";
  base.parent = "image";
  base.model_path = "ImageBuild::bases";
  base.doc = "A FROM line.";
  base.key = "reference";
  base.each = [](const Scope& p, ChildVisitor v, void* u) {
    for (const BaseImage& b : p.as<ImageBuild>().bases) v(&b, u);
  };
  base.fields.push_back(
      {"reference", FieldType::String, "the image as written after FROM", [](const Scope& s) {
         const auto& b = s.as<BaseImage>();
         return text(b.reference, &b.from);
       }});
  base.fields.push_back({"pinned", FieldType::Bool, "pinned by @sha256 digest",
                         [](const Scope& s) { return of(s.as<BaseImage>().pinned); }});
  base.fields.push_back({"is_stage", FieldType::Bool, "an earlier build stage: nothing is pulled",
                         [](const Scope& s) { return of(s.as<BaseImage>().is_stage); }});
  base.fields.push_back({"is_scratch", FieldType::Bool, "FROM scratch",
                         [](const Scope& s) { return of(s.as<BaseImage>().is_scratch); }});
  out.push_back(std::move(base));

  KindDef url;
  url.name = "added_url";
  url.parent = "image";
  url.model_path = "ImageBuild::added_urls";
  url.doc = "`ADD https://...`: a file downloaded into the image.";
  url.key = "value";
  url.each = [](const Scope& p, ChildVisitor v, void* u) {
    for (const auto& a : p.as<ImageBuild>().added_urls) v(&a, u);
  };
  url.fields.push_back({"value", FieldType::String, "the URL", [](const Scope& s) {
                          const auto& f = s.as<Fact<std::string>>();
                          return of(std::string_view(f.value), &f.from);
                        }});
  out.push_back(std::move(url));
}

void add_seccomp_kinds(std::vector<KindDef>& out) {
  KindDef p;
  p.name = "seccomp_profile";
  p.model_path = "Model::seccomp_profiles";
  p.doc = "A seccomp JSON profile in the input.";
  p.key = "path";
  p.each = [](const Scope& root, ChildVisitor v, void* u) {
    for (const SeccompProfile& x : root.model->seccomp_profiles) v(&x, u);
  };
  p.fields.push_back({"path", FieldType::String, "the file",
                      [](const Scope& s) { return text(s.as<SeccompProfile>().path); }});
  p.fields.push_back({"default_action", FieldType::String, "defaultAction as written",
                      [](const Scope& s) { return of(s.as<SeccompProfile>().default_action); }});
  out.push_back(std::move(p));

  KindDef r;
  r.name = "syscall";
  r.parent = "seccomp_profile";
  r.model_path = "SeccompProfile::rules";
  r.doc = "One syscall entry of a profile.";
  r.key = "name";
  r.each = [](const Scope& parent, ChildVisitor v, void* u) {
    for (const SeccompRule& x : parent.as<SeccompProfile>().rules) v(&x, u);
  };
  r.fields.push_back({"name", FieldType::String, "the syscall", [](const Scope& s) {
                        const auto& x = s.as<SeccompRule>();
                        return text(x.syscall, &x.from);
                      }});
  r.fields.push_back({"action", FieldType::String, "its action as written",
                      [](const Scope& s) { return text(s.as<SeccompRule>().action); }});
  r.fields.push_back({"unconditional", FieldType::Bool,
                      "no includes.caps / minKernel / argument condition",
                      [](const Scope& s) { return of(s.as<SeccompRule>().unconditional); }});
  out.push_back(std::move(r));
}

void add_cluster_kinds(std::vector<KindDef>& out) {
  KindDef ns;
  ns.name = "namespace";
  ns.model_path = "ClusterObjects::namespaces";
  ns.doc = "A Namespace object in the input.";
  ns.key = "name";
  ns.each = [](const Scope& root, ChildVisitor v, void* u) {
    for (const NamespaceObject& x : root.model->cluster.namespaces) v(&x, u);
  };
  ns.fields.push_back({"name", FieldType::String, "the namespace", [](const Scope& s) {
                         const auto& x = s.as<NamespaceObject>();
                         return text(x.ref.name, &x.ref.from);
                       }});
  ns.fields.push_back({"pod_security.enforce", FieldType::String,
                       "pod-security.kubernetes.io/enforce", [](const Scope& s) {
                         const auto& l = s.as<NamespaceObject>().labels;
                         return text(l.enforce, &l.from);
                       }});
  ns.fields.push_back({"pod_security.audit", FieldType::String, "pod-security.kubernetes.io/audit",
                       [](const Scope& s) {
                         const auto& l = s.as<NamespaceObject>().labels;
                         return text(l.audit, &l.from);
                       }});
  ns.fields.push_back({"pod_security.warn", FieldType::String, "pod-security.kubernetes.io/warn",
                       [](const Scope& s) {
                         const auto& l = s.as<NamespaceObject>().labels;
                         return text(l.warn, &l.from);
                       }});
  ns.fields.push_back(
      {"labels_from", FieldType::Location, "the labels, else the object", [](const Scope& s) {
         const auto& x = s.as<NamespaceObject>();
         return place(x.labels.from.at.valid() ? x.labels.from : x.ref.from);
       }});
  out.push_back(std::move(ns));

  KindDef d;
  d.name = "config_data";
  d.model_path = "ClusterObjects::data";
  d.doc = "A key of a ConfigMap or Secret in the input, and other literal strings.";
  d.key = "key";
  d.each = [](const Scope& root, ChildVisitor v, void* u) {
    for (const DataEntry& x : root.model->cluster.data) v(&x, u);
  };
  d.fields.push_back({"object", FieldType::String, "`ConfigMap/ns/name`",
                      [](const Scope& s) { return text(s.as<DataEntry>().object); }});
  d.fields.push_back({"key", FieldType::String, "the key", [](const Scope& s) {
                        const auto& x = s.as<DataEntry>();
                        return text(x.key, &x.from);
                      }});
  d.fields.push_back({"value", FieldType::String, "the value",
                      [](const Scope& s) {
                        const auto& x = s.as<DataEntry>();
                        return text(x.value, &x.from);
                      },
                      false, true});
  d.fields.push_back({"key_format", FieldType::String, "the key format of the value, if any",
                      [](const Scope& s) {
                        const auto& x = s.as<DataEntry>();
                        return cached_text(
                            s, 0, [&] { return secrets::key_format(x.value); }, &x.from);
                      },
                      true});
  out.push_back(std::move(d));

  KindDef svc;
  svc.name = "service";
  svc.model_path = "ClusterObjects::services";
  svc.doc = "A Service object in the input.";
  svc.key = "name";
  svc.each = [](const Scope& root, ChildVisitor v, void* u) {
    for (const ServiceObject& x : root.model->cluster.services) v(&x, u);
  };
  svc.fields.push_back({"name", FieldType::String, "the Service", [](const Scope& s) {
                          const auto& x = s.as<ServiceObject>();
                          return text(x.ref.name, &x.ref.from);
                        }});
  svc.fields.push_back({"namespace", FieldType::String, "its namespace as written",
                        [](const Scope& s) { return text(s.as<ServiceObject>().ref.ns); }});
  svc.fields.push_back(
      {"type", FieldType::String, "ClusterIP, NodePort, LoadBalancer...", [](const Scope& s) {
         const auto& x = s.as<ServiceObject>();
         return text(x.type, &x.type_from);
       }});
  svc.fields.push_back({"external_ips", FieldType::List, "externalIPs", [](const Scope& s) {
                          const auto& x = s.as<ServiceObject>();
                          return of(x.external_ips, &x.external_ips_from);
                        }});
  out.push_back(std::move(svc));
}

}  // namespace

void add_model_kinds(std::vector<KindDef>& out) {
  add_image_kinds(out);
  add_seccomp_kinds(out);
  add_cluster_kinds(out);
}

}  // namespace sbr::match
