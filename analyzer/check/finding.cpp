#include "analyzer/check/finding.h"

namespace sbr {

void Findings::add(Finding f) {
  for (SharedText* t :
       {&f.subject, &f.fact_path, &f.threat_reason, &f.identity, &f.engine, &f.label}) {
    texts_.intern(*t);
  }
  f.message.share(texts_);
  items_.push_back(std::move(f));
}

}  // namespace sbr
