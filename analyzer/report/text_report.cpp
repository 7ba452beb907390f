#include <fmt/format.h>

#include "analyzer/report/report.h"

namespace sbr {

void write_text(const ReportContext& ctx, std::ostream& out, bool color) {
  (void)color;
  for (const Finding& f : ctx.findings) {
    out << fmt::format("{}:{}:{}: {} [{}] {} (invariant {})\n", ctx.model.files.path(f.at.file),
                       f.at.line, f.at.column, severity_name(f.severity), f.rule_id, f.message,
                       f.invariant);
  }
}

}  // namespace sbr
