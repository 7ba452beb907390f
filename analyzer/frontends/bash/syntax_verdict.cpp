#include "analyzer/frontends/bash/syntax_verdict.h"

#include <map>
#include <optional>

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

}  // namespace

void settle_syntax_errors(std::vector<Problem>& problems, const SourceFile& script,
                          const SourceSet* sources, bool ask_bash) {
  std::map<FileId, std::optional<bash::BashVerdict>> verdicts;  // one bash run per file
  for (Problem& p : problems) {
    if (p.kind != ProblemKind::ParseError) continue;
    auto [it, fresh] = verdicts.try_emplace(p.at.file);
    if (fresh && ask_bash) {
      if (const SourceFile* f = file_of(p.at.file, script, sources)) {
        it->second = bash::bash_verdict(f->bytes);
      }
    }
    const std::optional<bash::BashVerdict>& v = it->second;
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
