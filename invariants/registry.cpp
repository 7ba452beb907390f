#include "analyzer/check/registry.h"

#include "invariants/modules.h"

namespace sbr {

const std::vector<InvariantCheck>& invariant_checks() {
  static const std::vector<InvariantCheck> checks = {
      {0, "integrity", &inv::check_integrity}, {1, "isolation", &inv::check_isolation},
      {2, "privilege", &inv::check_privilege}, {3, "filesystem", &inv::check_filesystem},
      {4, "secrets", &inv::check_secrets},     {5, "network", &inv::check_network},
      {6, "resources", &inv::check_resources}, {7, "lifecycle", &inv::check_lifecycle},
  };
  return checks;
}

}  // namespace sbr
