// The spelling of the model's enums, in one table per enum: the configuration parses these
// names, and every report and dump prints them. The enums are model types, so their names live
// here (support/ sits below the model and cannot know them).
#pragma once

#include <optional>
#include <string_view>

#include "analyzer/model/model.h"
#include "analyzer/model/workload.h"

namespace sbr {

std::string_view threat_class_name(ThreatClass t);
std::optional<ThreatClass> parse_threat_class(std::string_view s);
std::string_view threat_signal_name(ThreatSignal s);
std::string_view engine_name(Engine e);
std::optional<Engine> parse_engine(std::string_view s);
std::string_view mount_kind_name(MountKind k);  // Kubernetes spelling: hostPath, emptyDir, ...
std::string_view dest_kind_name(DestKind d);
std::string_view qos_name(QosClass q);
std::string_view file_status_name(FileStatus s);  // analysed, not-applicable, skipped, excluded

// The rule language's and the model dump's spelling of the other model enums (kebab-case, or the
// input's own spelling where it has one: `RuntimeDefault`, `hostPath`).
std::string_view container_role_name(ContainerRole r);
std::string_view controller_name(Controller c);
std::string_view seccomp_kind_name(SeccompKind k);
std::string_view net_mode_name(NetMode m);
std::string_view propagation_name(Propagation p);
std::string_view env_source_name(EnvSource s);
std::string_view env_bulk_kind_name(EnvBulkKind k);
std::string_view gate_kind_name(GateKind k);
std::string_view gate_hook_name(GateHook h);
std::string_view exposure_kind_name(ExposureKind k);
std::string_view threat_source_name(ThreatSource s);
std::string_view image_grant_kind_name(ImageGrantKind k);

}  // namespace sbr
