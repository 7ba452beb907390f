// Compiled by tests/compile/rule_id_typo.cmake, never linked. With -DSBR_RULE=privileged_container
// it compiles; with a misspelt rule name, or with SBR_FROM_TEXT (a check making an id from a
// string literal), it must not.
#include "generated/rule_ids.h"

constexpr sbr::RuleId kRule = sbr::rule::SBR_RULE;
static_assert(kRule.str() == "SB1001");

#ifdef SBR_FROM_TEXT
constexpr sbr::RuleId kFromText{std::string_view("SB1001")};
#endif
