#include "analyzer/support/secrets.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace sbr::secrets {
namespace {

struct KeyFormat {
  const char* name;
  const char* pattern;
};

// Formats with a distinctive prefix or structure: few false positives on ordinary strings.
constexpr KeyFormat kFormats[] = {
    {"AWS access key id", R"((?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})"},
    {"GitHub token", R"(gh[pousr]_[A-Za-z0-9]{36,255})"},
    {"GitHub fine-grained token", R"(github_pat_[A-Za-z0-9_]{50,255})"},
    {"GitLab token", R"(glpat-[A-Za-z0-9_\-]{20,})"},
    {"private key block", R"(-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----)"},
    {"Anthropic API key", R"(sk-ant-[A-Za-z0-9_\-]{20,})"},
    {"OpenAI-style API key", R"(sk-(?:proj-)?[A-Za-z0-9_\-]{20,})"},
    {"Slack token", R"(xox[baprs]-[A-Za-z0-9\-]{10,})"},
    {"Google API key", R"(AIza[0-9A-Za-z_\-]{35})"},
    {"Stripe secret key", R"((?:sk|rk)_live_[0-9A-Za-z]{20,})"},
};

const std::vector<std::unique_ptr<RE2>>& compiled() {
  static const std::vector<std::unique_ptr<RE2>> res = [] {
    std::vector<std::unique_ptr<RE2>> v;
    for (const auto& f : kFormats) v.push_back(std::make_unique<RE2>(f.pattern));
    return v;
  }();
  return res;
}

}  // namespace

bool is_secret_name(std::string_view name) {
  std::string up(name);
  std::transform(up.begin(), up.end(), up.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  auto ends = [&](std::string_view s) {
    return up.size() >= s.size() && up.compare(up.size() - s.size(), s.size(), s) == 0;
  };
  auto has = [&](std::string_view s) { return up.find(s) != std::string::npos; };
  return ends("_TOKEN") || ends("TOKEN") || ends("_KEY") || ends("APIKEY") || has("SECRET") ||
         has("PASSWORD") || has("PASSWD") || up.rfind("AWS_", 0) == 0 || has("CREDENTIAL") ||
         has("PRIVATE_KEY") || ends("_PAT") || has("API_KEY");
}

std::string key_format(std::string_view value) {
  const auto& res = compiled();
  for (size_t i = 0; i < res.size(); ++i) {
    if (RE2::PartialMatch(re2::StringPiece(value.data(), value.size()), *res[i])) {
      return kFormats[i].name;
    }
  }
  return "";
}

std::string redact_key_formats(std::string_view text) {
  // Every output string passes here: one scan with the union of the formats decides whether
  // anything needs replacing, instead of one scan per format.
  static const RE2 any_format = [] {
    std::string alternation;
    for (const auto& f : kFormats) {
      alternation += (alternation.empty() ? "(?:" : "|(?:") + std::string(f.pattern) + ")";
    }
    return alternation;
  }();
  std::string out(text);
  if (!RE2::PartialMatch(out, any_format)) return out;
  RE2::GlobalReplace(&out, any_format, std::string(kRedacted));
  return out;
}

}  // namespace sbr::secrets
