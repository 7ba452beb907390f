// The kinds of a workload's smaller lists (model/workload.h): what it loads in bulk into its
// environment, its devcontainer features, what its image grants, its sibling containers, the
// files its image copies in, other network modes of its script, and its threat evidence.
#include "analyzer/check/fields.h"
#include "analyzer/check/fields_util.h"
#include "analyzer/model/enum_names.h"

namespace sbr::match {
namespace {

void add_env_bulk(std::vector<KindDef>& out) {
  KindDef bulk;
  bulk.name = "env_bulk";
  bulk.parent = "workload";
  bulk.model_path = "Workload::env_bulk";
  bulk.doc = "A whole environment loaded at once (envFrom, --env-host, --env-file).";
  bulk.key = "name";
  bulk.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<EnvBulk>(
        p, v, u, [](const Workload& w) -> auto& { return w.env_bulk; });
  };
  bulk.fields.push_back(
      {"kind", FieldType::Enum, "what is loaded",
       [](const Scope& s) { return of(env_bulk_kind_name(s.as<EnvBulk>().kind)); }, false, false,
       names_of<EnvBulkKind>(env_bulk_kind_name, 4)});
  bulk.fields.push_back(
      {"name", FieldType::String, "the Secret, ConfigMap or file", [](const Scope& s) {
         const EnvBulk& b = s.as<EnvBulk>();
         return text(b.name, &b.from);
       }});
  out.push_back(std::move(bulk));
}

void add_feature(std::vector<KindDef>& out) {
  KindDef feat;
  feat.name = "feature";
  feat.parent = "workload";
  feat.model_path = "Workload::features";
  feat.doc = "A devcontainer feature by reference.";
  feat.key = "ref";
  feat.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<Workload::Feature>(
        p, v, u, [](const Workload& w) -> auto& { return w.features; });
  };
  feat.fields.push_back({"ref", FieldType::String, "the feature reference", [](const Scope& s) {
                           const auto& f = s.as<Workload::Feature>();
                           return text(f.ref, &f.from);
                         }});
  feat.fields.push_back({"modelled", FieldType::Bool, "sbreview applied its effect",
                         [](const Scope& s) { return of(s.as<Workload::Feature>().modelled); }});
  out.push_back(std::move(feat));
}

void add_image_grant(std::vector<KindDef>& out) {
  KindDef grant;
  grant.name = "image_grant";
  grant.parent = "workload";
  grant.model_path = "Workload::image_grants";
  grant.doc = "What the image's build gives the user beyond its uid.";
  grant.key = "detail";
  grant.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<ImageGrant>(
        p, v, u, [](const Workload& w) -> auto& { return w.image_grants; });
  };
  grant.fields.push_back({"kind", FieldType::Enum, "the grant",
                          [](const Scope& s) {
                            const ImageGrant& g = s.as<ImageGrant>();
                            return of(image_grant_kind_name(g.kind), &g.from);
                          },
                          false, false, names_of<ImageGrantKind>(image_grant_kind_name, 3)});
  grant.fields.push_back(
      {"detail", FieldType::String, "the commands, group or file", [](const Scope& s) {
         const ImageGrant& g = s.as<ImageGrant>();
         return text(g.detail, &g.from);
       }});
  grant.fields.push_back({"via", FieldType::String, "the sudoers file or command",
                          [](const Scope& s) { return text(s.as<ImageGrant>().via); }});
  out.push_back(std::move(grant));
}

void add_sibling(std::vector<KindDef>& out) {
  KindDef sib;
  sib.name = "sibling";
  sib.parent = "workload";
  sib.model_path = "Workload::siblings";
  sib.doc = "Another container the workload shares namespaces with (same pod, service:x).";
  sib.key = "name";
  sib.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<Sibling>(
        p, v, u, [](const Workload& w) -> auto& { return w.siblings; });
  };
  sib.fields.push_back({"name", FieldType::String, "its container name", [](const Scope& s) {
                          const Sibling& x = s.as<Sibling>();
                          return text(x.name, &x.from);
                        }});
  sib.fields.push_back({"image", FieldType::String, "its image",
                        [](const Scope& s) { return text(s.as<Sibling>().image); }});
  sib.fields.push_back({"shares_network", FieldType::Bool, "the network namespace is shared",
                        [](const Scope& s) { return of(s.as<Sibling>().shares_network); }});
  sib.fields.push_back({"shares_processes", FieldType::Bool, "shareProcessNamespace",
                        [](const Scope& s) { return of(s.as<Sibling>().shares_processes); }});
  out.push_back(std::move(sib));
}

void add_image_files(std::vector<KindDef>& out) {
  for (std::string_view name : {"image_file", "start_script"}) {
    KindDef f;
    f.name = name;
    f.parent = "workload";
    bool files = name == "image_file";
    f.model_path = files ? "Workload::image_files" : "Workload::start_scripts";
    f.doc = files ? "A repository file the image's COPY/ADD put into the container."
                  : "An ENTRYPOINT/CMD script among the image's files.";
    f.key = "container_path";
    if (files) {
      f.each = [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Workload::ImageFile>(
            p, v, u, [](const Workload& w) -> auto& { return w.image_files; });
      };
    } else {
      f.each = [](const Scope& p, ChildVisitor v, void* u) {
        each_of<Workload::ImageFile>(
            p, v, u, [](const Workload& w) -> auto& { return w.start_scripts; });
      };
    }
    f.fields.push_back(
        {"container_path", FieldType::Path, "its path in the container", [](const Scope& s) {
           const auto& x = s.as<Workload::ImageFile>();
           return text(x.container_path, &x.from);
         }});
    f.fields.push_back({"repo_path", FieldType::Path, "the repository file", [](const Scope& s) {
                          return text(s.as<Workload::ImageFile>().repo_path);
                        }});
    out.push_back(std::move(f));
  }
}

void add_mode_alternative(std::vector<KindDef>& out) {
  KindDef alt;
  alt.name = "mode_alternative";
  alt.parent = "workload";
  alt.model_path = "Workload::network.mode_alternatives";
  alt.doc = "A network mode a launcher sets on another path of its script.";
  alt.key = "mode";
  alt.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<Fact<NetMode>>(
        p, v, u, [](const Workload& w) -> auto& { return w.network.mode_alternatives; });
  };
  alt.fields.push_back({"mode", FieldType::Enum, "the mode on that path",
                        [](const Scope& s) {
                          const auto& m = s.as<Fact<NetMode>>();
                          return of(net_mode_name(m.value), &m.from);
                        },
                        false, false, names_of<NetMode>(net_mode_name, 10)});
  out.push_back(std::move(alt));
}

void add_threat_evidence(std::vector<KindDef>& out) {
  KindDef ev;
  ev.name = "threat_evidence";
  ev.parent = "workload";
  ev.model_path = "Workload::threat_evidence";
  ev.doc = "One input of the threat-class inference.";
  ev.key = "signal";
  ev.each = [](const Scope& p, ChildVisitor v, void* u) {
    each_of<ThreatEvidence>(
        p, v, u, [](const Workload& w) -> auto& { return w.threat_evidence; });
  };
  ev.fields.push_back({"signal", FieldType::Enum, "what was observed",
                       [](const Scope& s) {
                         const ThreatEvidence& e = s.as<ThreatEvidence>();
                         return of(threat_signal_name(e.signal), &e.from);
                       },
                       false, false, names_of<ThreatSignal>(threat_signal_name, 23)});
  ev.fields.push_back(
      {"points_to", FieldType::Enum, "the class it points to",
       [](const Scope& s) { return of(threat_class_name(s.as<ThreatEvidence>().points_to)); },
       false, false, names_of<ThreatClass>(threat_class_name, 4)});
  ev.fields.push_back({"text", FieldType::String, "the evidence in words",
                       [](const Scope& s) { return text(s.as<ThreatEvidence>().text); }});
  out.push_back(std::move(ev));
}

}  // namespace

void add_misc_kinds(std::vector<KindDef>& out) {
  add_env_bulk(out);
  add_feature(out);
  add_image_grant(out);
  add_sibling(out);
  add_image_files(out);
  add_mode_alternative(out);
  add_threat_evidence(out);
}

}  // namespace sbr::match
