// Secret values never leave sbreview: the redactor alone, then every format end to end.
#include <catch2/catch.hpp>

#include "analyzer/report/redact.h"
#include "analyzer/support/secrets.h"
#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_redact_test {

using namespace sbr;

TEST_CASE("redactor: secret-named and key-format env values, secret data, key formats",
          "[report]") {
  Model m;
  Workload w;
  w.env.push_back({"DB_PASSWORD", "correct-horse", EnvSource::Literal, "", false, {}, false});
  w.env.push_back({"GREETING", "hello world", EnvSource::Literal, "", false, {}, false});
  w.env.push_back({"OPAQUE", "AKIAABCDEFGHIJKLMNOP", EnvSource::Literal, "", false, {}, false});
  w.env.push_back({"SHORT_TOKEN", "abc", EnvSource::Literal, "", false, {}, false});
  w.env.push_back({"API_TOKEN", "$UPSTREAM_TOKEN", EnvSource::Symbolic, "", true, {}, false});
  m.workloads.push_back(w);
  m.cluster.data.push_back({"Secret/ns/db", "conn", "postgres://u:pw@db/x", {}});
  m.cluster.data.push_back({"ConfigMap/ns/app", "mode", "production", {}});
  Redactor r(m);
  CHECK(r("password is correct-horse.") == "password is <redacted>.");
  CHECK(r("greeting is hello world") == "greeting is hello world");
  CHECK(r("key AKIAABCDEFGHIJKLMNOP here") == "key <redacted> here");
  CHECK(r("dsn postgres://u:pw@db/x") == "dsn <redacted>");
  CHECK(r("mode production") == "mode production");
  CHECK(r("-e API_TOKEN=$UPSTREAM_TOKEN") == "-e API_TOKEN=$UPSTREAM_TOKEN");
  // Too short to replace as a substring without mangling ordinary words...
  CHECK(r("abc def") == "abc def");
  // ...but key formats are always redacted, known or not.
  CHECK(r("ghp_0123456789abcdefghijABCDEFGHIJ012345") == "<redacted>");
  // The base64 form (Secret manifests) is redacted too.
  CHECK(r("conn: cG9zdGdyZXM6Ly91OnB3QGRiL3g=") == "conn: <redacted>");
}

TEST_CASE("redactor: a secret is redacted as itself, never inside other words", "[report]") {
  Model m;
  Workload w;
  // Compose's stock database password, a short one and a real one of the same stack.
  w.env.push_back({"POSTGRES_PASSWORD", "postgres", EnvSource::Literal, "", false, {}, false});
  w.env.push_back({"REDIS_PASSWORD", "default", EnvSource::Literal, "", false, {}, false});
  w.env.push_back({"API_SECRET", "s3cr3t-v4lue", EnvSource::Literal, "", false, {}, false});
  m.workloads.push_back(w);
  Redactor r(m);
  // Words and short values are no secrets to hunt for in other text.
  CHECK(r("service postgres depends on \"postgresql\"") ==
        "service postgres depends on \"postgresql\"");
  CHECK(r("runs under the engine's default runtime") == "runs under the engine's default runtime");
  // A secret is redacted where it stands as a token, not where it is part of a longer word.
  CHECK(r("API_SECRET=s3cr3t-v4lue") == "API_SECRET=<redacted>");
  CHECK(r("token: \"s3cr3t-v4lue\",") == "token: \"<redacted>\",");
  CHECK(r("xs3cr3t-v4lue2") == "xs3cr3t-v4lue2");
}

TEST_CASE("redactor: a value that names or locates a secret is not the secret", "[report]") {
  Model m;
  Workload w;
  // A setup Job's environment as a chart writes it: the Secret it creates, by name, and a
  // password read from a file.
  w.env.push_back(
      {"SECRET_NAME", "rossoctl-api-oauth-secret", EnvSource::Literal, "", false, {}, false});
  w.env.push_back(
      {"DB_PASSWORD_FILE", "/run/secrets/db-password", EnvSource::Literal, "", false, {}, false});
  w.env.push_back(
      {"CLIENT_SECRET", "k3ycl0ak-client-value", EnvSource::Literal, "", false, {}, false});
  m.workloads.push_back(w);
  Redactor r(m);
  CHECK(r("Job default/rossoctl-api-oauth-secret-job") ==
        "Job default/rossoctl-api-oauth-secret-job");
  CHECK(r("from Secret rossoctl-api-oauth-secret") == "from Secret rossoctl-api-oauth-secret");
  CHECK(r("reads /run/secrets/db-password") == "reads /run/secrets/db-password");
  // The secret itself still is.
  CHECK(r("CLIENT_SECRET=k3ycl0ak-client-value") == "CLIENT_SECRET=<redacted>");
  CHECK(secrets::is_secret_name("CLIENT_SECRET"));
  CHECK_FALSE(secrets::is_secret_name("SECRET_NAME"));
  CHECK_FALSE(secrets::is_secret_name("token_secret_ref"));
  // A ConfigMap key naming the Secret that holds the API key (DataDog's chart).
  CHECK_FALSE(secrets::is_secret_name("api-key-secret-name"));
  CHECK(secrets::is_secret_name("DB_PASSWORD"));
  // Airflow's `_CMD` variables: the command that prints the secret.
  CHECK_FALSE(secrets::is_secret_name("AIRFLOW__API__SECRET_KEY_CMD"));
  CHECK_FALSE(secrets::is_secret_name("AWS_DEFAULT_REGION"));
  CHECK(secrets::is_secret_name("AWS_ACCESS_KEY_ID"));
}

TEST_CASE("redactor: a service binding Secret hides its password and uri and not its host",
          "[report]") {
  // bitnami's `*-svcbind-*` Secrets: one-word keys. Their host is the release's service name,
  // and redacting it turned every object named after the release into `<redacted>-sharded`.
  Model m;
  const std::string obj = "Secret/default/release-name-mongodb-svcbind-root";
  for (auto [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"host", "release-name-mongodb"},
           {"port", "27017"},
           {"type", "mongodb"},
           {"username", "root-operator"},
           {"password", "Zq81mongoPass"},
           {"uri", "mongodb://root:Zq81mongoPass@release-name-mongodb:27017/admin"}})
    m.cluster.data.push_back({obj, key, value, {}});
  Redactor r(m);
  CHECK(r("StatefulSet default/release-name-mongodb-sharded-configsvr") ==
        "StatefulSet default/release-name-mongodb-sharded-configsvr");
  CHECK(r("user root-operator") == "user root-operator");
  CHECK(r("MONGODB_ROOT_PASSWORD=Zq81mongoPass") == "MONGODB_ROOT_PASSWORD=<redacted>");
  CHECK(r("uri mongodb://root:Zq81mongoPass@release-name-mongodb:27017/admin") == "uri <redacted>");
  // A test's canary and a fake key say they are not real; a real key's name says nothing such.
  CHECK_FALSE(secrets::is_secret_name("CANARY_TOKEN"));
  CHECK_FALSE(secrets::is_secret_name("FAKE_API_KEY"));
  CHECK(secrets::is_secret_name("CANARYTOKEN_API_KEY"));
  CHECK(secrets::is_secret_name("TOKEN"));
  CHECK(secrets::names_no_secret("host"));
  CHECK(secrets::names_no_secret("username"));
  CHECK_FALSE(secrets::names_no_secret("password"));
  CHECK_FALSE(secrets::names_no_secret("token"));
}

TEST_CASE("redactor: overlapping secrets and multi-line values are covered whole", "[report]") {
  Redactor r(
      std::vector<std::string>{"secret-one", "one-two-three", "line-one-of-key\nline-two-of-key"});
  CHECK(r("x secret-one-two-three y") == "x <redacted> y");
  CHECK(r("  line-two-of-key") == "  <redacted>");
  CHECK(r("nothing here") == "nothing here");
}

TEST_CASE("redactor: a config file kept in a Secret hides its secrets, not its settings",
          "[report]") {
  Model m;
  // bitnami's charts keep whole configuration files in Secrets.
  m.cluster.data.push_back({"Secret/ns/app-config",
                            "values.yaml",
                            "securityContext:\n  allowPrivilegeEscalation: false\n"
                            "  runAsNonRoot: true\nadminPassword: \"h4rd-t0-guess\"\n"
                            "-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"
                            "-----END KEY-----",
                            {}});
  Redactor r(m);
  CHECK(r("does not set allowPrivilegeEscalation: false") ==
        "does not set allowPrivilegeEscalation: false");
  CHECK(r("sets no runAsNonRoot: true") == "sets no runAsNonRoot: true");
  CHECK(r("password h4rd-t0-guess here") == "password <redacted> here");
  CHECK(r("  MIIEvQIBADANBgkqhkiG9w0BAQEFAASC") == "  <redacted>");
}

TEST_CASE("no secret value appears in any format", "[report]") {
  test::ReportFixture fx;
  for (const std::string& out : {fx.text(false), fx.text(true), fx.json(), fx.sarif()}) {
    CHECK(out.find(test::kDbPassword) == std::string::npos);
    CHECK(out.find("sk-ant-") == std::string::npos);
    CHECK(out.find("AAAAbbbbCCCC") == std::string::npos);
    CHECK(out.find(secrets::kRedacted) != std::string::npos);
  }
  // The variable is still named: the user must know what to fix.
  CHECK(fx.text().find("k8s/agent.yaml:13:14: high [SB4001] DB_PASSWORD holds the literal "
                       "<redacted> (invariant 4)\n"
                       " 13 |       value: <redacted>\n"
                       "    |              ^\n"
                       "  related: k8s/agent.yaml:15:14: also ANTHROPIC_API_KEY=<redacted>\n") !=
        std::string::npos);
}

TEST_CASE("a key in a file that no model fact holds is still redacted", "[report]") {
  test::ReportFixture fx;
  fx.model.workloads.clear();  // the redactor only has the key formats left
  fx.sources.files[2].bytes =
      "#!/bin/bash\nexport X=1\n\tcurl -H sk-ant-api03-ZZZZyyyyXXXXwwww9876\n";
  for (const std::string& out : {fx.text(false), fx.json(), fx.sarif()}) {
    CHECK(out.find("sk-ant-") == std::string::npos);
  }
}

TEST_CASE("redactor: tens of thousands of secrets, each found where it is", "[report]") {
  std::vector<std::string> secrets;
  for (int i = 0; i < 30000; ++i) secrets.push_back("value-" + std::to_string(i * 7919) + "-x");
  Redactor r(secrets);
  for (int i = 0; i < 30000; i += 997) {
    std::string s = "env FOO" + std::to_string(i) + "=" + secrets[static_cast<size_t>(i)] + ";";
    CHECK(r(s) == "env FOO" + std::to_string(i) + "=<redacted>;");
  }
  CHECK(r("value-12-y is not a secret") == "value-12-y is not a secret");
}

}  // namespace report_redact_test
