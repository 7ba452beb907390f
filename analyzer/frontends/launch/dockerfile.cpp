// Dockerfile/Containerfile into ImageBuild facts: base images (pinned or not), the final USER,
// ENV, ADD from a URL, RUN lines. Instructions are read line by line with continuations.
#include <cctype>
#include <map>

#include "analyzer/frontends/bash/bash_frontend.h"
#include "analyzer/frontends/launch/apply_options.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/frontends/launch/specs.h"

namespace sbr {
namespace launch {
namespace {

struct Instruction {
  std::string keyword;  // upper-cased
  std::string args;     // continuation lines joined with a space
  std::uint32_t line = 0;
  std::uint32_t args_column = 0;
};

std::vector<Instruction> instructions(std::string_view text) {
  std::vector<Instruction> out;
  std::vector<std::string> lines = split(text, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string l = lines[i];
    if (!l.empty() && l.back() == '\r') l.pop_back();
    std::size_t b = l.find_first_not_of(" \t");
    if (b == std::string::npos || l[b] == '#') continue;
    Instruction ins;
    ins.line = static_cast<std::uint32_t>(i + 1);
    std::size_t e = l.find_first_of(" \t", b);
    ins.keyword = l.substr(b, e == std::string::npos ? std::string::npos : e - b);
    for (auto& c : ins.keyword) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::size_t a = e == std::string::npos ? l.size() : l.find_first_not_of(" \t", e);
    if (a == std::string::npos) a = l.size();
    ins.args_column = static_cast<std::uint32_t>(a + 1);
    std::string args = l.substr(a);
    // Backslash continuations; comment lines inside a continued instruction are skipped.
    while (!args.empty() && args.back() == '\\' && i + 1 < lines.size()) {
      args.pop_back();
      std::string next = lines[++i];
      if (!next.empty() && next.back() == '\r') next.pop_back();
      std::size_t nb = next.find_first_not_of(" \t");
      if (nb != std::string::npos && next[nb] == '#') {
        args.push_back('\\');
        continue;
      }
      args += " " + (nb == std::string::npos ? "" : next.substr(nb));
    }
    ins.args = args;
    out.push_back(std::move(ins));
  }
  return out;
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// Words with Dockerfile quoting: "a b" and 'a b' are one word (quotes removed), \x escapes.
std::vector<std::string> quoted_words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < s.size()) {
        cur.push_back(s[++i]);
      } else {
        cur.push_back(c);
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < s.size()) {
      cur.push_back(s[++i]);
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) out.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur.push_back(c);
      in_word = true;
    }
  }
  if (in_word) out.push_back(cur);
  return out;
}

std::string expand(const std::string& s, const std::map<std::string, std::string>& args) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '$') {
      out.push_back(s[i]);
      continue;
    }
    bool brace = i + 1 < s.size() && s[i + 1] == '{';
    std::size_t j = i + (brace ? 2 : 1), k = j;
    while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_')) ++k;
    std::string name = s.substr(j, k - j);
    auto it = args.find(name);
    if (it == args.end()) return "";  // unresolved: the base cannot be judged
    out += it->second;
    i = (brace && k < s.size() && s[k] == '}') ? k : k - 1;
  }
  return out;
}

// ENV A=1 B="2" or the legacy ENV A 1.
std::vector<std::pair<std::string, std::string>> env_pairs(const std::string& args) {
  std::vector<std::pair<std::string, std::string>> out;
  auto ws = words(args);
  if (ws.empty()) return out;
  if (ws[0].find('=') == std::string::npos) {
    std::size_t sp = args.find_first_of(" \t");
    std::string v = sp == std::string::npos ? "" : args.substr(args.find_first_not_of(" \t", sp));
    out.emplace_back(ws[0], v);
    return out;
  }
  for (const auto& w : quoted_words(args)) {
    std::size_t eq = w.find('=');
    if (eq == std::string::npos) continue;
    out.emplace_back(w.substr(0, eq), w.substr(eq + 1));
  }
  return out;
}

}  // namespace

ImageBuild parse_dockerfile(const SourceFile& file) {
  ImageBuild b;
  b.file = file.id;
  std::map<std::string, std::string> global_args;
  std::vector<std::string> stages;
  bool in_stage = false;
  for (const auto& ins : instructions(file.bytes)) {
    Provenance at{Location{file.id, ins.line, ins.args_column}, Frontend::Dockerfile, {}};
    if (ins.keyword == "ARG") {
      auto ws = words(ins.args);
      if (!ws.empty()) {
        std::size_t eq = ws[0].find('=');
        std::string name = ws[0].substr(0, eq);
        std::string value = eq == std::string::npos ? "" : ws[0].substr(eq + 1);
        if (!in_stage && eq != std::string::npos) global_args[name] = value;
      }
    } else if (ins.keyword == "FROM") {
      in_stage = true;
      b.final_user.reset();  // USER and ENV are per stage: only the last one runs
      b.env.clear();
      auto ws = words(ins.args);
      std::size_t k = 0;
      while (k < ws.size() && ws[k].rfind("--", 0) == 0) ++k;
      if (k >= ws.size()) continue;
      BaseImage base;
      base.reference = ws[k];
      base.from = at;
      std::string resolved = expand(ws[k], global_args);
      base.pinned = resolved.find("@sha256:") != std::string::npos;
      base.is_scratch = resolved == "scratch";
      for (const auto& s : stages) base.is_stage = base.is_stage || s == resolved;
      if (resolved.empty()) base.is_stage = true;  // unresolved ARG: not judged
      if (k + 2 < ws.size()) {
        std::string as = ws[k + 1];
        for (auto& c : as) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (as == "as") stages.push_back(ws[k + 2]);
      }
      b.bases.push_back(std::move(base));
    } else if (ins.keyword == "USER") {
      auto ws = words(ins.args);
      if (!ws.empty()) b.final_user = fact(ws[0], at);
    } else if (ins.keyword == "ENV") {
      for (auto& [k, v] : env_pairs(ins.args)) {
        // ENV X=$ARG takes a build argument: not a value written in the file.
        EnvSource src = v.find('$') != std::string::npos ? EnvSource::Symbolic : EnvSource::Literal;
        b.env.push_back({k, v, src, "", false, at});
      }
    } else if (ins.keyword == "ADD") {
      // ADD --checksum=sha256:... verifies what it downloads.
      if (ins.args.find("--checksum=") != std::string::npos) continue;
      for (const auto& w : words(ins.args)) {
        if (w.rfind("http://", 0) == 0 || w.rfind("https://", 0) == 0) {
          b.added_urls.push_back(fact(w, at));
        }
      }
    } else if (ins.keyword == "RUN") {
      b.run_lines.push_back(fact(ins.args, at));
    }
  }
  return b;
}

void attach_dockerfile(const SourceSet* sources, const std::string& path, Workload& w) {
  const SourceFile* f = find_source(sources, path);
  if (f == nullptr || !f->readable) return;
  ImageBuild b = parse_dockerfile(*f);
  w.dockerfile = f->path;
  bool user_set = w.identity.run_as_user || w.identity.user_name;
  if (!user_set && b.final_user) {
    apply_user(b.final_user->value, b.final_user->from, w);  // same reading as --user
  }
  for (auto& e : b.env) w.env.push_back(e);
}

}  // namespace launch

void read_dockerfile(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  ImageBuild b = launch::parse_dockerfile(file);
  // Shell-form RUN lines run under /bin/sh -c: render them like any script, so a build that
  // pipes a download into a shell is reported where it is written. Exec form (a JSON array)
  // runs no shell.
  for (const auto& run : b.run_lines) {
    std::string_view body = run.value;
    if (body.empty() || body.front() == '[') continue;
    read_embedded_shell(file.id, body, run.from.at.line, run.from.at.column, ctx, out);
  }
  out.images.push_back(std::move(b));
}

}  // namespace sbr
