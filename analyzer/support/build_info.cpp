#include "analyzer/support/build_info.h"

namespace sbr {

extern const char* const kBuildCommit;  // generated: build/generated/build_info.cpp

std::string_view build_version() {
  return SBR_VERSION;
}

std::string_view build_commit() {
  return kBuildCommit;
}

std::string semantic_version() {
  std::string v(build_version());
  if (build_commit() != "unknown") v += "+" + std::string(build_commit());
  return v;
}

}  // namespace sbr
