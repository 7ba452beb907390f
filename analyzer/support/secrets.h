// Recognising secrets: names that look secret and values in known key formats. Shared by the
// invariant-4 checks and by every output's redaction, so what is judged secret is redacted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbr::secrets {

// *_TOKEN, *_KEY, *SECRET*, *PASSWORD*, AWS_*, ... (case-insensitive).
bool is_secret_name(std::string_view name);

// The first recognisable key format in `value` ("AWS access key id", "GitHub token",
// "private key block", "OpenAI-style API key", ...), or "" when none.
std::string key_format(std::string_view value);

// Replaces every recognisable key in `text` with a redaction marker.
std::string redact_key_formats(std::string_view text);

inline constexpr std::string_view kRedacted = "<redacted>";

}  // namespace sbr::secrets
