// Helpers shared by the function files of the chart engine (funcs_*.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/render/helm/exec.h"

namespace re2 {
class RE2;
}  // namespace re2

namespace sbr::render::helm {

// Go's path.Clean: the shortest path with the same meaning, lexically.
std::string path_clean(const std::string& p);

void add_builtin_functions(FunctionTable& t);   // Go's text/template builtins
void add_string_functions(FunctionTable& t);    // sprig strings
void add_list_functions(FunctionTable& t);      // sprig lists, dicts, defaults
void add_helm_functions(FunctionTable& t);      // helm's include, tpl, toYaml...
void add_misc_functions(FunctionTable& t);      // sprig math, encoding, semver, placeholders
void add_float_functions(FunctionTable& t);     // sprig float math, sha1sum, adler32sum
void add_path_functions(FunctionTable& t);      // sprig paths, untilStep, the must* forms
void add_text_functions(FunctionTable& t);      // sprig case, wrap, abbrev, initials, splitn
void add_date_functions(FunctionTable& t);      // sprig dates and durations (go_time.h)
void add_crypto_functions(FunctionTable& t);    // sprig keys, passwords, random: placeholders
void add_encoding_functions(FunctionTable& t);  // base32, sha512, pretty and raw JSON, regex
void add_url_functions(FunctionTable& t);       // sprig urlParse, urlJoin
void add_reflect_functions(FunctionTable& t);   // deepEqual, typeIsLike, seq, chunk, call...

// Throws "wrong number of args" unless `args` has between `min` and `max` values.
void arity(const std::vector<Value>& args, std::size_t min, std::size_t max, const char* name,
           const Location& at);
// reflect's Kind name of a value, as sprig's kindOf prints it ("slice", "map", "struct" for a
// time...); also the word sprig's list functions use in their type errors.
std::string kind_of(const Value& v);
// Sprig's toString: "" for nil, %v otherwise.
std::string text_of(const Value& v);
std::int64_t int_of(const Value& v);
// Go's fmt.Sprintf for the verbs charts use (%s %d %v %q %f %g %x %t %%, width, precision).
std::string go_sprintf(const std::string& format, const std::vector<Value>& args,
                       std::size_t first);
// sigs.k8s.io/yaml's Marshal as Helm's toYaml prints it (keys sorted, go-yaml's quoting).
std::string to_yaml(const Value& v, LineOrigins* lines);
// go-yaml v3's encoder with indent 2, as Helm's toYamlPretty: lists indented under their key,
// floats as strconv's %g, no JSON round trip.
std::string to_yaml_pretty(const Value& v);
std::string to_json(const Value& v);
// Go's json.MarshalIndent(v, "", indent) ("" for Marshal), escaping <, > and & only with
// `escape_html` (toRawJson's encoder turns it off).
std::string to_json_styled(const Value& v, const std::string& indent, bool escape_html);
// huandu/xstrings v1.5.0 (xstrings_case.cpp): ToSnakeCase/ToKebabCase with `connector`, and
// ToPascalCase.
std::string xstrings_lower_case(std::string_view str, char connector);
std::string xstrings_pascal_case(std::string_view str);
// A command operand as Go's parse tree prints it (`.Values.x`, `$v`, `"text"`): `call` names
// its callee with it.
std::string operand_text(const Arg& arg);
// A Go regexp pattern compiled by RE2 (cached); throws RenderError when it does not compile.
const re2::RE2& regex_of(const std::string& pattern, const Location& at);
// BurntSushi/toml's Encoder as Helm's toToml uses it; an error comes back as its text.
std::string to_toml(const Value& v);
// The nodes one YAML text may expand into when read as values (`values.yaml`, `fromYaml`).
constexpr std::uint64_t kMaxValueNodes = 500'000;
// Values read from YAML as Helm reads them: numbers are float64, YAML 1.1 booleans.
// `budget_hit` (when given) tells a text past kMaxValueNodes from one that does not parse.
bool parse_yaml_value(std::string_view text, FileId file, const std::string& prefix, Value& out,
                      std::string& error, bool as_list = false, bool* budget_hit = nullptr);
bool parse_json_value(std::string_view text, Value& out, std::string& error);
// BurntSushi/toml's Unmarshal into a map, as Helm's fromToml (toml_parse.cpp).
bool parse_toml_value(std::string_view text, Value& out, std::string& error);

// The escapes Go's %q, YAML's double-quoted scalars and JSON strings share: `"`, `\`, newline,
// tab and carriage return. False (nothing appended) for any other byte, which each format
// escapes in its own way.
bool append_common_escape(unsigned char c, std::string& out);

}  // namespace sbr::render::helm
