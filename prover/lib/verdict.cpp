#include "prover/lib/verdict.h"

namespace sbr::prove {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Confirmed:
      return "confirmed";
    case Verdict::Refuted:
      return "refuted";
    case Verdict::Unverifiable:
      return "unverifiable";
  }
  return "unverifiable";
}

}  // namespace sbr::prove
