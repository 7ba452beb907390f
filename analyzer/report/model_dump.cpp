#include "analyzer/report/report.h"

namespace sbr {

void write_model_dump(const Model& model, std::ostream& out) {
  out << "workloads " << model.workloads.size() << "\n";
}

}  // namespace sbr
