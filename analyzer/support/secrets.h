// Recognising secrets: names that look secret and values in known key formats. Shared by the
// invariant-4 checks and by every output's redaction, so what is judged secret is redacted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbr::secrets {

// *_TOKEN, *_KEY, *SECRET*, *PASSWORD*, AWS_*, ... (case-insensitive), unless names_no_secret.
bool is_secret_name(std::string_view name);

// A switch's value (`true`, `no`, `1`, `on`...): MYSQL_ALLOW_EMPTY_PASSWORD=yes and
// RABBITMQ_SECURE_PASSWORD=no are settings, whatever the name says.
bool flag_value(std::string_view value);

// A name whose last word says what its value is, and that it is not the secret: SECRET_NAME
// (a Secret object's name), PASSWORD_FILE (a path), SECRET_KEY_CMD (a command), MONGODB_HOST,
// AWS_DEFAULT_REGION, SSH_AUTH_SOCK; or whose first word says the value is not a real one
// (CANARY_TOKEN, FAKE_API_KEY, DUMMY_PASSWORD). `_`, `-` and `.` separate words (a ConfigMap's
// `api-key-secret-name`). is_secret_name and has_secret_word both defer to it.
bool names_no_secret(std::string_view name);

// A name with a word that says "secret" which is_secret_name leaves out, because it also
// appears mid-name: TF_TOKEN_app_terraform_io, KBUILD_SIGN_PIN, SESSION_COOKIE, GH_AUTH.
// Words are `_`-separated and whole: GIT_AUTHOR_NAME and MAX_OUTPUT_TOKENS are not.
bool has_secret_word(std::string_view name);

// Whether a value that the launcher computes comes from a secret, by the origin the bash
// evaluator gives its unknown part (analyzer/model/invocation.h, Word::origin): a credential
// helper or a secret file (`command substitution `gh auth token``, `cat ~/.config/x/token`),
// or a variable whose name is secret (`env GITHUB_TOKEN`, `config file .env (API_KEY)`).
bool is_secret_source(std::string_view origin);

// The first recognisable key format in `value` ("AWS access key id", "GitHub token",
// "private key block", "OpenAI-style API key", ...), or "" when none.
std::string key_format(std::string_view value);

// Replaces every recognisable key in `text` with a redaction marker.
std::string redact_key_formats(std::string_view text);

inline constexpr std::string_view kRedacted = "<redacted>";

}  // namespace sbr::secrets
