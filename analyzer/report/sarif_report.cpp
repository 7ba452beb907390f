#include "analyzer/report/report.h"

namespace sbr {

void write_sarif(const ReportContext& ctx, std::ostream& out) {
  (void)ctx;
  out << "{}\n";
}

}  // namespace sbr
