#include "analyzer/frontends/frontend.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <exception>

#include "analyzer/frontends/bash/bash_frontend.h"
#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/k8s/k8s_frontend.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/markdown/markdown.h"

namespace sbr {

namespace {

// A Workload is ~4.5 KB: letting a 10,000-document stream's vector grow by doubling keeps the
// old and new buffers alive together at each step. One workload per document is the usual
// shape, so reserve that; reserved pages that are never written cost no memory.
void reserve_for_stream(const SourceFile& file, FilePart& out) {
  size_t docs = 1;
  for (size_t at = file.bytes.find("\n---"); at != std::string::npos;
       at = file.bytes.find("\n---", at + 4)) {
    ++docs;
  }
  if (docs > 64) out.workloads.reserve(docs);
}

// JSON is read by the YAML reader (JSON is YAML 1.2), which has gaps of its own (a surrogate
// pair in a `\u` escape): where a real JSON parser accepts the file, the parse error is
// sbreview's, not the repository's.
void settle_json_parse_errors(const SourceFile& file, std::vector<Problem>& problems, size_t from) {
  bool valid = false, asked = false;
  for (size_t i = from; i < problems.size(); ++i) {
    Problem& p = problems[i];
    if (p.kind != ProblemKind::ParseError || p.at.file != file.id) continue;
    if (!asked) valid = nlohmann::json::accept(file.bytes);
    asked = true;
    if (!valid) continue;
    p.cause = Cause::Analyzer;
    p.message += " (the file is valid JSON: sbreview's YAML reader cannot read it)";
  }
}

// The first line that starts with a Go template action (`{{- if .Values.crds.create }}`), or 0.
std::uint32_t template_line(const std::string& bytes) {
  std::uint32_t line = 1;
  for (size_t at = 0; at < bytes.size(); ++line) {
    const size_t end = std::min(bytes.find('\n', at), bytes.size());
    const size_t text = bytes.find_first_not_of(" \t", at);
    if (text < end && bytes.compare(text, 2, "{{") == 0) return line;
    at = end + 1;
  }
  return 0;
}

// YAML with Go template actions outside a chart's templates/ (otel's `conf/crds/*.yaml` that a
// chart reads with `.Files` and `tpl`, cert-manager's build-step templates) does not parse as it
// stands, and is no broken manifest: a note that it is not analysed until filled in there.
void settle_template_parse_errors(const SourceFile& file, std::vector<Problem>& problems,
                                  size_t from) {
  const std::uint32_t line = template_line(file.bytes);
  if (line == 0) return;
  for (size_t i = from; i < problems.size(); ++i) {
    Problem& p = problems[i];
    if (p.kind != ProblemKind::ParseError || p.at.file != file.id) continue;
    p = Problem(ProblemKind::SourceUnresolved,
                fmt::format("Go template text (`{{{{` at line {}): a file that a chart's `tpl` or "
                            "a build step fills in, not a manifest as it stands; it is not "
                            "analysed here",
                            line),
                Location{file.id, line, 1}, Cause::Analyzer);
  }
}

bool parse_error_since(const FilePart& part, const SourceFile& file, size_t from) {
  for (size_t i = from; i < part.problems.size(); ++i) {
    const Problem& p = part.problems[i];
    if (p.kind == ProblemKind::ParseError && p.at.file == file.id) return true;
  }
  return false;
}

// The four hex digits at `at`, or -1.
int hex4(const std::string& s, size_t at) {
  int v = 0;
  const char* first = s.data() + at;
  auto [end, ec] = std::from_chars(first, first + 4, v, 16);
  return ec == std::errc() && end == first + 4 ? v : -1;
}

// The JSON text with each surrogate-pair escape (`\uD83D\uDE00`, a character beyond the BMP,
// which the YAML reader refuses) replaced by the character's UTF-8 bytes, decoded by the JSON
// library; every other byte and every line stays where it is. "" when there is none.
std::string decode_surrogate_pairs(const std::string& bytes) {
  std::string out;
  size_t copied = 0;
  for (size_t at = bytes.find("\\u"); at != std::string::npos; at = bytes.find("\\u", at + 1)) {
    size_t slashes = 0;  // `\\uD83D` is a backslash and text, not an escape
    while (at > slashes && bytes[at - 1 - slashes] == '\\') ++slashes;
    if (slashes % 2 != 0 || at + 12 > bytes.size() || bytes[at + 6] != '\\' || bytes[at + 7] != 'u')
      continue;
    const int hi = hex4(bytes, at + 2), lo = hex4(bytes, at + 8);
    if (hi < 0xD800 || hi > 0xDBFF || lo < 0xDC00 || lo > 0xDFFF) continue;
    out.append(bytes, copied, at - copied);
    out += nlohmann::json::parse("\"" + bytes.substr(at, 12) + "\"").get<std::string>();
    copied = at + 12;
    at += 11;
  }
  if (copied == 0) return "";
  out.append(bytes, copied, std::string::npos);
  return out;
}

// JSON manifests through the YAML reader; a valid JSON file it refuses for a surrogate pair is
// read again with those characters as UTF-8 (ContainAI's `.flow/*.json` hold emoji).
void read_json_manifest(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  const size_t before = out.problems.size();
  read_kubernetes_file(file, out, ctx.max_documents);
  if (!parse_error_since(out, file, before) || before != 0 || !out.workloads.empty()) {
    settle_json_parse_errors(file, out.problems, before);
    return;
  }
  std::string decoded =
      nlohmann::json::accept(file.bytes) ? decode_surrogate_pairs(file.bytes) : std::string();
  if (!decoded.empty()) {
    FilePart retry;
    const SourceFile copy{file.id, file.path, file.type, std::move(decoded), true};
    read_kubernetes_file(copy, retry, ctx.max_documents);
    if (!parse_error_since(retry, file, 0)) {
      out = std::move(retry);
      return;
    }
  }
  settle_json_parse_errors(file, out.problems, before);
}

}  // namespace

void analyze_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  if (!file.readable) return;  // already an invariant-0 problem from the walk
  // A NUL byte in a file named as a format sbreview reads: the parsers would read a prefix or
  // nothing at all, and a change that turns a manifest binary would hide its findings.
  if (size_t nul = file.bytes.find('\0');
      nul != std::string::npos && file.type != FileType::Other && file.type != FileType::Config) {
    out.skipped = "binary content (a NUL byte at offset " + std::to_string(nul) +
                  ") in a file whose name says it is read as configuration: not analysed";
    out.problems.push_back(
        {ProblemKind::ParseError, out.skipped, Location{file.id, 1, 1}, Cause::Repository});
    return;
  }
  try {
    switch (file.type) {
      case FileType::Yaml: {
        reserve_for_stream(file, out);
        const size_t before = out.problems.size();
        read_kubernetes_file(file, out, ctx.max_documents);
        settle_template_parse_errors(file, out.problems, before);
        break;
      }
      case FileType::Json:
        // A seccomp profile is JSON too; its root names a default action.
        if (file.bytes.find("\"defaultAction\"") != std::string::npos) {
          read_seccomp_profile(file, ctx, out);
        } else {
          read_json_manifest(file, ctx, out);
        }
        break;
      case FileType::Shell:
        read_bash_file(file, ctx, out);
        break;
      case FileType::Compose:
        read_compose_file(file, ctx, out);
        break;
      case FileType::Devcontainer:
        read_devcontainer_file(file, ctx, out);
        break;
      case FileType::Dockerfile:
        read_dockerfile(file, ctx, out);
        break;
      case FileType::Nft:
        read_nft_file(file, out);
        break;
      case FileType::Squid:
        read_squid_file(file, out);
        break;
      case FileType::Markdown:
        read_markdown_file(file, ctx, out);
        break;
      case FileType::Config:
      case FileType::Other:
        break;
    }
  } catch (const std::exception& e) {
    // A frontend defect must not lose the file silently: report it where it happened.
    out.problems.push_back({ProblemKind::ParseError,
                            std::string("internal error while reading: ") + e.what(),
                            Location{file.id, 1, 1}, Cause::Analyzer});
  }
}

template <class T>
static void append(std::vector<T>& to, std::vector<T>& from) {
  if (to.empty()) {  // a single large file: take its vector instead of copying it
    to = std::move(from);
    return;
  }
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

void merge_part(FilePart&& part, Model& model) {
  append(model.workloads, part.workloads);
  append(model.scripts, part.scripts);
  append(model.problems, part.problems);
  append(model.images, part.images);
  append(model.seccomp_profiles, part.seccomp_profiles);
  append(model.suppressions, part.suppressions);
  append(model.documents, part.documents);
  ClusterObjects& c = model.cluster;
  append(c.runtime_classes, part.cluster.runtime_classes);
  append(c.service_accounts, part.cluster.service_accounts);
  append(c.roles, part.cluster.roles);
  append(c.bindings, part.cluster.bindings);
  append(c.network_policies, part.cluster.network_policies);
  append(c.limit_ranges, part.cluster.limit_ranges);
  append(c.namespaces, part.cluster.namespaces);
  append(c.services, part.cluster.services);
  append(c.ingresses, part.cluster.ingresses);
  append(c.data, part.cluster.data);
  append(c.crds, part.cluster.crds);
  append(c.webhooks, part.cluster.webhooks);
  model.summary.kubernetes_documents += part.summary.kubernetes_documents;
  model.summary.other_yaml_documents += part.summary.other_yaml_documents;
  model.summary.scripts += part.summary.scripts;
}

}  // namespace sbr
