; Where a script may skip its security steps and still succeed (observe_guards.cpp).
;
; A presence check whose failure branch follows `||`:
;   command -v iptables >/dev/null 2>&1 || { echo "no iptables, skipping" >&2; return 0; }
(list . (_) @check . "||" . (_) @branch .) @or_guard
;
; An if whose condition checks a tool or tests a variable, and whose branches the C++ reads:
;   if ! command -v nft >/dev/null; then warn "nft missing"; return 0; fi
;   if [[ "${SANDBOX_MODE:-}" == permissive ]]; then exit 0; fi
(if_statement) @if
