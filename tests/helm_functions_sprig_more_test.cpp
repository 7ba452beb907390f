// helm v4.2's function surface, continued: placeholders for keys and randomness, encodings,
// JSON forms, regex, URLs, reflection, lists (sprig's slice and chunk), call, and TOML.
#include <catch2/catch.hpp>

#include "tests/helm_engine_helpers.h"

namespace helm_functions_sprig_more_test {

namespace {

std::string run(const std::string& text, const std::string& values = "{}") {
  return sbr::test::render_ok(text, values);
}

bool has(const std::string& text, const std::string& part) {
  INFO(text);
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("passwords and keys are fixed placeholders with sprig's checks", "[helm][functions]") {
  CHECK(run("{{ htpasswd \"user\" \"pw\" }}") == "user:$2a$10$SBREVIEW-PLACEHOLDER-BCRYPT");
  CHECK(run("{{ htpasswd \"a:b\" \"pw\" }}") == "invalid username: a:b");
  CHECK(run("{{ bcrypt (repeat 73 \"x\") }}") ==
        "failed to encrypt string with bcrypt: bcrypt: password length exceeds 72 bytes");
  CHECK(run("{{ derivePassword 1 \"long\" \"pw\" \"user\" \"example.com\" }}") ==
        "SBREVIEW-PLACEHOLDER-PASSWORD");
  CHECK(run("{{ derivePassword 1 \"nope\" \"pw\" \"user\" \"example.com\" }}") ==
        "cannot find password template nope");
  CHECK(run("{{ genPrivateKey \"ecdsa\" }}") ==
        "-----BEGIN EC PRIVATE KEY-----\nSBREVIEW-PLACEHOLDER-KEY\n-----END EC PRIVATE KEY-----\n");
  CHECK(run("{{ genPrivateKey \"foo\" }}") == "Unknown type foo");
  CHECK(
      run("{{ encryptAES \"k\" \"\" }}|{{ encryptAES \"k\" \"t\" }}|{{ decryptAES \"k\" \"\" }}") ==
      "|SBREVIEW-PLACEHOLDER-ENCRYPTED|");
  CHECK(has(sbr::test::render_error("{{ decryptAES \"k\" \"YWJj\" }}"),
            "slice bounds out of range [:16]"));
}

TEST_CASE("certificates with the chart's own key keep that key", "[helm][functions]") {
  CHECK(run("{{ $ca := genCAWithKey \"ca\" 365 (genPrivateKey \"rsa\") }}{{ $ca.Cert }}|{{ "
            "$ca.Key }}") ==
        "SBREVIEW-PLACEHOLDER-CERT|-----BEGIN RSA PRIVATE KEY-----\nSBREVIEW-PLACEHOLDER-KEY\n"
        "-----END RSA PRIVATE KEY-----\n");
  CHECK(run("{{ (genSelfSignedCertWithKey \"a\" (list) (list) 1 (genPrivateKey \"\")).Cert }}") ==
        "SBREVIEW-PLACEHOLDER-CERT");
  CHECK(has(sbr::test::render_error(
                "{{ genSignedCertWithKey \"a\" nil nil 1 (genCA \"x\" 1) \"nokey\" }}"),
            "parsing private key: no PEM data in input"));
  // The chart's own certificate and key come back decoded, as given.
  const char* pems =
      "c: \"-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----\\n\"\n"
      "k: \"-----BEGIN EC PRIVATE KEY-----\\nMHc\\n-----END EC PRIVATE KEY-----\\n\"";
  CHECK(run("{{ $c := buildCustomCert (b64enc .Values.c) (b64enc .Values.k) }}{{ $c.Cert }}{{ "
            "$c.Key }}",
            pems) ==
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
        "-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----\n");
  CHECK(has(sbr::test::render_error("{{ buildCustomCert \"\" \"\" }}"),
            "unable to decode certificate"));
  CHECK(has(sbr::test::render_error("{{ buildCustomCert \"!\" \"\" }}"),
            "unable to decode base64 certificate"));
}

TEST_CASE("randomness and DNS give fixed results", "[helm][functions]") {
  CHECK(run("{{ randBytes 3 }} {{ randBytes 4 }} {{ randInt 5 10 }} {{ shuffle \"hello\" }}") ==
        "AAAA AAAAAA== 5 hello");
  CHECK(has(sbr::test::render_error("{{ randInt 5 5 }}"), "invalid argument to Intn"));
  CHECK(run("[{{ getHostByName \"example.com\" }}]") == "[]");
}

TEST_CASE("base32 and sha512sum", "[helm][functions]") {
  CHECK(run("{{ b32enc \"f\" }} {{ b32enc \"fo\" }} {{ b32enc \"foo\" }} {{ b32enc \"foob\" }} "
            "{{ b32enc \"fooba\" }} {{ b32enc \"foobar\" }}") ==
        "MY====== MZXQ==== MZXW6=== MZXW6YQ= MZXW6YTB MZXW6YTBOI======");
  CHECK(run("{{ b32dec \"MZXW6YTBOI======\" }} {{ b32dec \"NBSWY3DP\" }} {{ b32dec \"MY======\" "
            "}}") == "foobar hello f");
  CHECK(run("{{ b32dec \"!!!\" }}") == "illegal base32 data at input byte 0");
  CHECK(run("{{ sha512sum \"abc\" }}") ==
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a"
        "3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  CHECK(run("{{ sha512sum \"\" }}") ==
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d28"
        "77eec2f63b931bd47417a81a538327af927da3e");
}

TEST_CASE("toPrettyJson indents as MarshalIndent, toRawJson keeps HTML", "[helm][functions]") {
  CHECK(run("{{ toPrettyJson (dict \"a\" 1 \"b\" (list 1 \"x\") \"c\" (dict) \"d\" \"<x>\" \"e\" "
            "(list)) }}") ==
        "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    \"x\"\n  ],\n  \"c\": {},\n  \"d\": "
        "\"\\u003cx\\u003e\",\n  \"e\": []\n}");
  CHECK(run("{{ toRawJson (dict \"d\" \"<x>&\") }} {{ toJson (dict \"d\" \"<x>&\") }}") ==
        "{\"d\":\"<x>&\"} {\"d\":\"\\u003cx\\u003e\\u0026\"}");
  CHECK(run("{{ mustToRawJson (list 1) }} {{ mustToPrettyJson \"s\" }}") == "[1] \"s\"");
  CHECK(run("{{ mustFromJson \"[1, 2]\" }} {{ (mustFromJson \"{\\\"a\\\": \\\"b\\\"}\").a }}") ==
        "[1 2] b");
  CHECK_FALSE(sbr::test::render_error("{{ mustFromJson \"{\" }}").empty());
}

TEST_CASE("regexQuoteMeta and regexFindAll as Go's regexp", "[helm][functions]") {
  CHECK(run("{{ regexQuoteMeta \"1.5-2.0?\" }}") == "1\\.5-2\\.0\\?");
  CHECK(run("{{ regexFindAll \"[2,4,6,8]\" \"123456789\" -1 }} {{ regexFindAll \"[2,4,6,8]\" "
            "\"123456789\" 2 }}") == "[2 4 6 8] [2 4]");
  CHECK(run("{{ mustRegexFindAll \"a.\" \"aXaYaZ\" -1 }}") == "[aX aY aZ]");
  CHECK(has(sbr::test::render_error("{{ regexFindAll \"(\" \"x\" 1 }}"), "missing"));
}

TEST_CASE("urlParse and urlJoin as net/url", "[helm][functions]") {
  CHECK(run("{{ urlParse \"http://admin:secret@server.com:8080/api?list=false#anchor\" }}") ==
        "map[fragment:anchor host:server.com:8080 hostname:server.com opaque: path:/api "
        "query:list=false scheme:http userinfo:admin:secret]");
  CHECK(run("{{ urlJoin (dict \"fragment\" \"fragment\" \"host\" \"host:80\" \"path\" \"/path\" "
            "\"query\" \"query\" \"scheme\" \"http\") }}") == "http://host:80/path?query#fragment");
  CHECK(run("{{ $u := urlParse \"mailto:a@b.c\" }}{{ $u.scheme }} {{ $u.opaque }}") ==
        "mailto a@b.c");
  CHECK(run("{{ (urlParse \"/a%20b\").path }} {{ urlJoin (dict \"path\" \"/a b\") }}") ==
        "/a b /a%20b");
  CHECK(has(sbr::test::render_error("{{ urlParse \":x\" }}"),
            "unable to parse url: parse \":x\": missing protocol scheme"));
  CHECK(has(sbr::test::render_error("{{ urlJoin (dict \"host\" 1) }}"),
            "unable to parse host key, must be of type string, but int found"));
}

TEST_CASE("deepEqual, typeIsLike, biggest, round, toDecimal", "[helm][functions]") {
  CHECK(run("{{ deepEqual (list 1 2) (list 1 2) }} {{ deepEqual (dict \"a\" 1) (dict \"a\" 2) "
            "}} {{ deepEqual 1 .Values.one }}",
            "one: 1") == "true false false");
  CHECK(run("{{ typeIsLike \"string\" \"x\" }} {{ typeIsLike \"map[string]interface {}\" (dict) "
            "}} {{ typeIsLike \"int\" \"x\" }}") == "true true false");
  CHECK(run("{{ biggest 1 5 3 }} {{ round 3.14159 2 }} {{ round 2.5 0 }} {{ round -2.5 0 }} {{ "
            "round 2.675 2 }}") == "5 3.14 3 -3 2.68");
  CHECK(run("{{ toDecimal \"0777\" }} {{ toDecimal 777 }} {{ toDecimal \"8\" }}") == "511 511 0");
}

TEST_CASE("seq counts as sprig's GNU-like seq", "[helm][functions]") {
  CHECK(run("{{ seq 5 }}|{{ seq -3 }}|{{ seq 0 2 }}|{{ seq 2 -2 }}") ==
        "1 2 3 4 5|1 0 -1 -2 -3|0 1 2|2 1 0 -1 -2");
  CHECK(run("{{ seq 0 2 10 }}|{{ seq 0 -2 -5 }}|{{ seq 0 2 -5 }}|{{ seq }}") ==
        "0 2 4 6 8 10|0 -2 -4||");
}

TEST_CASE("sprig's slice and chunk work on lists only", "[helm][functions]") {
  CHECK(run("{{ chunk 2 (list 1 2 3 4 5) }} {{ mustChunk 2 (list) }}") == "[[1 2] [3 4] [5]] []");
  CHECK(has(sbr::test::render_error("{{ mustChunk 2 \"abc\" }}"), "Cannot chunk type string"));
  CHECK(run("{{ slice (list 1 2 3 4) 1 3 }} {{ mustSlice (list 1 2 3) 1 }} [{{ slice (list) }}]") ==
        "[2 3] [2 3] []");
  CHECK(has(sbr::test::render_error("{{ slice \"abc\" 1 2 }}"),
            "list should be type of slice or array but string"));
  CHECK(has(sbr::test::render_error("{{ mustSlice (list 1 2) 1 5 }}"), "slice index out of range"));
}

TEST_CASE("call has no function to call in a chart", "[helm][functions]") {
  CHECK(has(sbr::test::render_error("{{ call .Values.x 1 }}", "x: s"),
            "error calling call: non-function .Values.x of type string"));
  CHECK(has(sbr::test::render_error("{{ call .Values.missing }}"),
            "error calling call: call of nil"));
}

TEST_CASE("fromToml reads TOML into a dict, its errors as helm reports them", "[helm][functions]") {
  CHECK(run("{{ fromToml \"hello = \\\"world\\\"\" }}") == "map[hello:world]");
  CHECK(run("{{ fromToml .Values.t }}",
            "t: \"[table]\\nkeyInTable = \\\"valueInTable\\\"\\n[table.subtable]\\nkeyInSubtable = "
            "\\\"valueInSubTable\\\"\"") ==
        "map[table:map[keyInTable:valueInTable subtable:map[keyInSubtable:valueInSubTable]]]");
  CHECK(run("{{ fromToml .Values.t }}",
            "t: \"[[tableArray]]\\nkeyInElement0 = \\\"valueInElement0\\\"\\n[[tableArray]]\\n"
            "keyInElement1 = \\\"valueInElement1\\\"\"") ==
        "map[tableArray:[map[keyInElement0:valueInElement0] map[keyInElement1:valueInElement1]]]");
  CHECK(run("{{ fromToml \"one\" }}") ==
        "map[Error:toml: line 1: unexpected EOF; expected key separator '=']");
  CHECK(run("{{ fromToml .Values.t }}",
            "t: \"a = 1_000 # n\\nb = -1.5e1\\nc = true\\nd = [1, 2,]\\ne = { x = 'y' }\\nf = "
            "0x10\\ng = 'lit\\\\eral'\\nh.i = \\\"\\\\u00e9\\\"\\n\"") ==
        "map[a:1000 b:-15 c:true d:[1 2] e:map[x:y] f:16 g:lit\\eral h:map[i:é]]");
  CHECK(run("{{ (fromToml \"d = 1979-05-27T07:32:00Z\").d | date \"2006-01-02 15:04\" }}") ==
        "1979-05-27 07:32");
  CHECK(has(run("{{ fromToml \"a = 1\\na = 2\" }}"), "has already been defined"));
}

TEST_CASE("mustToToml and toYamlPretty", "[helm][functions]") {
  CHECK(run("{{ mustToToml (dict \"foo\" \"bar\") }}") == "foo = \"bar\"\n");
  CHECK(has(sbr::test::render_error("{{ mustToToml (list 1) }}"),
            "error calling mustToToml: toml: top-level values must be Go maps or structs"));
  CHECK(run("{{ toYamlPretty (dict \"baz\" (list 1 2 3)) }}") == "baz:\n  - 1\n  - 2\n  - 3");
  CHECK(run("{{ toYamlPretty .Values }}", "a: {l: [x, {k: v}]}\nn: 1000000\nm: 1.5\ns: \"1:20\"") ==
        "a:\n  l:\n    - x\n    - k: v\nm: 1.5\n\"n\": 1e+06\ns: \"1:20\"");
}

}  // namespace helm_functions_sprig_more_test
