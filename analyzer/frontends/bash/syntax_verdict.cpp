#include "analyzer/frontends/bash/syntax_verdict.h"

#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "analyzer/render/bash/bash_n.h"

namespace sbr {
namespace {

const SourceFile* file_of(FileId id, const SourceFile& script, const SourceSet* sources) {
  if (id == script.id) return &script;
  if (sources != nullptr && id < sources->files.size() && sources->files[id].id == id) {
    return &sources->files[id];
  }
  return nullptr;
}

using Verdicts = std::map<FileId, std::optional<bash::BashVerdict>>;  // one bash run per file

const std::optional<bash::BashVerdict>& verdict_of(FileId id, Verdicts& verdicts,
                                                   const SourceFile& script,
                                                   const SourceSet* sources, bool ask_bash) {
  auto [it, fresh] = verdicts.try_emplace(id);
  if (fresh && ask_bash) {
    if (const SourceFile* f = file_of(id, script, sources))
      it->second = bash::bash_verdict(f->bytes);
  }
  return it->second;
}

// A file parsed only with constructs neutralised (SB0018) is trusted only as far as bash -n
// accepts it: a rewrite must never hide a syntax error the repository has. Where bash rejects
// the file, or cannot be asked, the file gets the SB0001 it would have had without recovery.
void check_recovered_files(std::vector<Problem>& problems, Verdicts& verdicts,
                           const SourceFile& script, const SourceSet* sources, bool ask_bash) {
  std::set<FileId> settled;
  for (const Problem& p : problems) {
    if (p.kind == ProblemKind::ParseError) settled.insert(p.at.file);
  }
  std::vector<Problem> added;
  for (const Problem& p : problems) {
    if (p.kind != ProblemKind::ParseRecovered || !settled.insert(p.at.file).second) continue;
    const auto& v = verdict_of(p.at.file, verdicts, script, sources, ask_bash);
    if (v && v->accepts) continue;
    added.push_back({ProblemKind::ParseError,
                     "tree-sitter-bash parsed the file only with constructs it lacks "
                     "neutralised (SB0018)",
                     p.at});
  }
  problems.insert(problems.end(), added.begin(), added.end());
}

}  // namespace

void settle_syntax_errors(std::vector<Problem>& problems, const SourceFile& script,
                          const SourceSet* sources, bool ask_bash) {
  Verdicts verdicts;
  check_recovered_files(problems, verdicts, script, sources, ask_bash);
  for (Problem& p : problems) {
    if (p.kind != ProblemKind::ParseError) continue;
    const auto& v = verdict_of(p.at.file, verdicts, script, sources, ask_bash);
    if (v && !v->accepts) {
      // bash's own position and words for the error are the ones a reader can act on.
      p.cause = Cause::Repository;
      if (v->line > 0) {
        p.at = Location{p.at.file, v->line, 1};
        p.message = fmt::format("bash -n: {}", v->message);
      } else {
        p.message += "; bash -n rejects the file too: a syntax error of the script";
      }
    } else {
      p.cause = Cause::Analyzer;
      p.message += v ? "; bash -n accepts the file: a gap of sbreview's parser, and what the "
                       "unparsed part does is not known"
                     : "; bash could not be asked whether the file is valid, so this is taken "
                       "as a gap of sbreview's parser";
    }
  }
}

}  // namespace sbr
