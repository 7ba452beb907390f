// A ruleset file in the repository (`*.nft`, nftables.conf): the gates it would load.
#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/gates/nft_parser.h"

namespace sbr {

void read_nft_file(const SourceFile& file, FilePart& out) {
  std::vector<gates::Token> tokens;
  gates::Segment seg{file.bytes, Provenance{Location{file.id, 1, 1}, Frontend::Nft, {}}};
  if (!gates::lex_nft({seg}, tokens, out.problems)) return;
  gates::Ruleset rs;
  if (!gates::apply_nft(tokens, rs, out.problems)) return;  // nft loads nothing on an error
  ScriptFacts sf;
  sf.file = file.id;
  sf.gates = gates::evaluate(rs, GateKind::Nft, file.path);
  if (!sf.gates.empty()) out.scripts.push_back(std::move(sf));
}

}  // namespace sbr
