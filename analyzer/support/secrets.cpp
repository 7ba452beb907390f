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

namespace {

std::string secret_upper(std::string_view s) {
  std::string up(s);
  std::transform(up.begin(), up.end(), up.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return up;
}

std::string secret_lower(std::string_view s) {
  std::string low(s);
  std::transform(low.begin(), low.end(), low.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return low;
}

// A command that prints a credential: what a helper or a secret file's name says.
bool prints_secret(std::string_view command) {
  static constexpr std::string_view kWords[] = {"token",
                                                "secret",
                                                "credential",
                                                "passw",
                                                ".netrc",
                                                "api_key",
                                                "apikey",
                                                "api-key",
                                                "private",
                                                "id_rsa",
                                                "id_ed25519",
                                                ".pem",
                                                "op read",
                                                "op item get",
                                                "pass show",
                                                "secret-tool",
                                                "find-generic-password",
                                                "find-internet-password",
                                                "vault ",
                                                "bw get",
                                                "lpass show",
                                                "keyring get",
                                                "docker-credential-",
                                                "get-login-password",
                                                "export-credentials",
                                                "auth print"};
  std::string low = secret_lower(command);
  return std::any_of(std::begin(kWords), std::end(kWords),
                     [&](std::string_view w) { return low.find(w) != std::string::npos; });
}

// The variable name at the start of `s` ("GITHUB_TOKEN" of "GITHUB_TOKEN, default x").
std::string_view leading_name(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) != 0 || s[n] == '_')) ++n;
  return s.substr(0, n);
}

}  // namespace

bool flag_value(std::string_view value) {
  static constexpr std::string_view kFlags[] = {"true", "false", "yes", "no", "on",
                                                "off",  "0",     "1",   "y",  "n"};
  std::string low = secret_lower(value);
  return std::find(std::begin(kFlags), std::end(kFlags), low) != std::end(kFlags);
}

bool names_no_secret(std::string_view name) {
  static constexpr std::string_view kNotSecrets[] = {
      "NAME",   "NAMES", "REF",     "FILE",   "PATH",    "DIR",      "SOCK",
      "SOCKET", "CMD",   "COMMAND", "REGION", "PROFILE", "ENDPOINT", "URL",
      "HOST",   "PORT",  "TYPE",    "MODE",   "USERNAME"};
  std::string up = secret_upper(name);
  // A value that says it is not a real one by its first word: a test's CANARY_TOKEN (a marker
  // to catch a leak), FAKE_API_KEY, DUMMY_PASSWORD.
  static constexpr std::string_view kNotReal[] = {"CANARY",  "FAKE",   "DUMMY",      "MOCK",
                                                  "EXAMPLE", "SAMPLE", "PLACEHOLDER"};
  const std::string_view first = std::string_view(up).substr(0, up.find_first_of("_-."));
  if (up.find_first_of("_-.") != std::string::npos &&
      std::find(std::begin(kNotReal), std::end(kNotReal), first) != std::end(kNotReal))
    return true;
  // A name of one word is its last word: a service binding's Secret has `host`, `port`, `type`
  // and `username` beside its `password` (bitnami's `*-svcbind-*`), and redacting its host
  // `release-name-mongodb` mangled the name of every object named after it.
  std::size_t sep = up.find_last_of("_-.");
  std::string_view last = std::string_view(up).substr(sep == std::string::npos ? 0 : sep + 1);
  return std::find(std::begin(kNotSecrets), std::end(kNotSecrets), last) != std::end(kNotSecrets);
}

bool is_secret_name(std::string_view name) {
  std::string up = secret_upper(name);
  auto ends = [&](std::string_view s) {
    return up.size() >= s.size() && up.compare(up.size() - s.size(), s.size(), s) == 0;
  };
  auto has = [&](std::string_view s) { return up.find(s) != std::string::npos; };
  if (names_no_secret(name)) return false;
  return ends("_TOKEN") || ends("TOKEN") || ends("_KEY") || ends("APIKEY") || has("SECRET") ||
         has("PASSWORD") || has("PASSWD") || up.rfind("AWS_", 0) == 0 || has("CREDENTIAL") ||
         has("PRIVATE_KEY") || ends("_PAT") || has("API_KEY");
}

bool has_secret_word(std::string_view name) {
  static constexpr std::string_view kWords[] = {"TOKEN",  "AUTH",   "PIN",   "PASSPHRASE",
                                                "COOKIE", "BEARER", "CREDS", "APIKEY"};
  // The last word says what the value is: GH_AUTH_FILE is a path, SSH_AUTH_SOCK a socket.
  if (names_no_secret(name)) return false;
  std::string up = secret_upper(name);
  std::size_t start = 0;
  while (start <= up.size()) {
    std::size_t end = up.find('_', start);
    if (end == std::string::npos) end = up.size();
    std::string_view word = std::string_view(up).substr(start, end - start);
    if (std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords)) return true;
    start = end + 1;
  }
  return false;
}

bool is_secret_source(std::string_view origin) {
  constexpr std::string_view kEnv = "env ";
  constexpr std::string_view kSubst = "command substitution `";
  constexpr std::string_view kConfig = "config file ";
  if (origin.rfind(kEnv, 0) == 0) {
    std::string_view name = leading_name(origin.substr(kEnv.size()));
    return is_secret_name(name) || has_secret_word(name);
  }
  if (origin.rfind(kSubst, 0) == 0) return prints_secret(origin.substr(kSubst.size()));
  if (origin.rfind(kConfig, 0) == 0) {
    std::size_t open = origin.rfind('(');
    std::string_view name =
        open == std::string_view::npos ? "" : leading_name(origin.substr(open + 1));
    return is_secret_name(name) || has_secret_word(name);
  }
  return false;
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
