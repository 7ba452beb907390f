#include "analyzer/report/redact.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "analyzer/support/secrets.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

// Shorter values are too likely to be ordinary words, names or numbers ("true", "datadog",
// "default"): replacing them everywhere mangled messages and source lines. Key formats are
// still redacted whatever their length.
constexpr size_t kMinSecretLength = 8;

// A value of letters only ("postgres", "changeme", "password") is a word: it also names
// services, images and packages, and redacting it turned `postgresql` into `<redacted>ql`.
bool ordinary_word(std::string_view v) {
  return std::all_of(v.begin(), v.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
}

bool worth_redacting(std::string_view v) {
  return v.size() >= kMinSecretLength && !ordinary_word(v);
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// A secret is where it stands as a whole token, never inside a longer word.
bool stands_alone(std::string_view text, size_t begin, size_t end) {
  return (begin == 0 || !word_char(text[begin - 1])) &&
         (end >= text.size() || !word_char(text[end]));
}

std::string base64(std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                 (static_cast<unsigned char>(in[i + 1]) << 8) |
                 static_cast<unsigned char>(in[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::uint32_t prefix_key(const char* p) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(p[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[3])) << 24;
}

}  // namespace

Redactor::Redactor(const Model& model) {
  for (const Workload& w : model.workloads) {
    for (const EnvVar& e : w.env) {
      // Only literal values: a symbolic one ("$TOKEN", unresolved) names where a secret comes
      // from and is what the user needs to see.
      if (e.value.empty() || e.source != EnvSource::Literal) continue;
      if (secrets::is_secret_name(e.name) || !secrets::key_format(e.value).empty()) add(e.value);
    }
  }
  for (const DataEntry& d : model.cluster.data) {
    if (d.value.empty()) continue;
    // A Secret's data is secret whatever its key; elsewhere the key name or a key format says so.
    // A key that says its value is a host, a port or a name (a Secret of connection settings)
    // holds no secret: redacting `release-name-mongodb` mangled every object named after it.
    bool secret_object = d.object.rfind("Secret/", 0) == 0 && !secrets::names_no_secret(d.key);
    if (secret_object || secrets::is_secret_name(d.key) || !secrets::key_format(d.value).empty()) {
      add(d.value);
    }
  }
  finish();
}

Redactor::Redactor(const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) add(s);
  finish();
}

void Redactor::add(std::string_view value) {
  if (worth_redacting(value)) {
    secrets_.emplace_back(value);
    // Manifests carry Secret data base64-encoded: the source line shows that form.
    secrets_.push_back(base64(value));
  }
  // A multi-line value (a PEM block, a config file kept in a Secret) never appears whole on one
  // source line: redact each line that is key material, and the value of each secret-named key.
  if (value.find('\n') != std::string_view::npos) {
    size_t start = 0;
    while (start <= value.size()) {
      size_t end = value.find('\n', start);
      if (end == std::string_view::npos) end = value.size();
      add_line(trim(value.substr(start, end - start)));
      start = end + 1;
    }
  }
}

void Redactor::add_line(std::string_view line) {
  // A line of one token (a PEM body line, a token on its own) is the secret's; a line of a
  // config file (`allowPrivilegeEscalation: false`, `runAsNonRoot: true`) is not, and
  // redacting it wherever it appears turned sbreview's own advice into `<redacted>`.
  if (line.find_first_of(" \t") == std::string_view::npos) {
    if (worth_redacting(line) && line.back() != ':' && line.front() != '#') {
      secrets_.emplace_back(line);
    }
    return;
  }
  size_t sep = line.find_first_of(":=");
  if (sep == std::string_view::npos) return;
  std::string_view key = trim(line.substr(0, sep));
  std::string_view val = trim(line.substr(sep + 1));
  if (val.size() >= 2 && (val.front() == '"' || val.front() == '\'') && val.back() == val.front())
    val = val.substr(1, val.size() - 2);
  if (secrets::is_secret_name(key) && worth_redacting(val)) secrets_.emplace_back(val);
}

void Redactor::finish() {
  // Longest first, so the first candidate that matches at a position is the longest there.
  std::sort(secrets_.begin(), secrets_.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });
  secrets_.erase(std::unique(secrets_.begin(), secrets_.end()), secrets_.end());
  for (size_t i = 0; i < secrets_.size(); ++i) {
    by_prefix_[prefix_key(secrets_[i].data())].push_back(static_cast<std::uint32_t>(i));
  }
}

std::string Redactor::operator()(std::string_view text) const {
  // Find every occurrence of every secret first, then rebuild: overlapping secrets are covered
  // whole and a marker is never itself searched.
  std::vector<std::pair<size_t, size_t>> spans;
  if (!by_prefix_.empty()) {
    for (size_t pos = 0; pos + kMinSecretLength <= text.size(); ++pos) {
      auto it = by_prefix_.find(prefix_key(text.data() + pos));
      if (it == by_prefix_.end()) continue;
      for (std::uint32_t i : it->second) {
        const std::string& s = secrets_[i];
        if (text.compare(pos, s.size(), s) == 0 && stands_alone(text, pos, pos + s.size())) {
          spans.emplace_back(pos, pos + s.size());
          break;
        }
      }
    }
  }
  std::string out;
  if (spans.empty()) {
    out.assign(text);
  } else {
    size_t cursor = 0;
    for (size_t i = 0; i < spans.size();) {
      auto [begin, end] = spans[i];
      while (++i < spans.size() && spans[i].first <= end) end = std::max(end, spans[i].second);
      out.append(text.substr(cursor, begin - cursor));
      out.append(secrets::kRedacted);
      cursor = end;
    }
    out.append(text.substr(cursor));
  }
  return secrets::redact_key_formats(out);
}

}  // namespace sbr
