#include "analyzer/report/report.h"

namespace sbr {

void write_json(const ReportContext& ctx, std::ostream& out) {
  (void)ctx;
  out << "{}\n";
}

}  // namespace sbr
