// What a workload's image says it is. A database, cache, queue, search engine, object store,
// proxy or web server pulled by its well-known name is a program of the platform that parses
// what reaches it (untrusted-input); a code interpreter runs what it is sent (untrusted-code).
// In a compose project, a service named as the sandbox is taken at its word: that only ever
// makes it stricter, and it tells the app server beside it (threat_stack.cpp) which one it is.
// The tables are data: a new image is one line.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "analyzer/engine/threat_evidence.h"
#include "analyzer/support/strings.h"

namespace sbr::engine::threat {
namespace {

struct ServiceImage {
  std::string_view name;  // the repository's last component, without registry or tag
  std::string_view role;
};

// Official, bitnami and vendor spellings of the same service are separate lines: the match is
// exact, so `postgres-exporter` or `redis-commander` is not taken for the service itself.
constexpr std::array<ServiceImage, 85> kServiceImages = {{
    {"postgres", "database"},
    {"postgresql", "database"},
    {"postgresql-repmgr", "database"},
    {"pgvector", "database"},
    {"postgis", "database"},
    {"timescaledb", "database"},
    {"timescaledb-ha", "database"},
    {"mysql", "database"},
    {"mysql-server", "database"},
    {"mariadb", "database"},
    {"mariadb-galera", "database"},
    {"percona-server", "database"},
    {"mongo", "database"},
    {"mongodb", "database"},
    {"mongodb-sharded", "database"},
    {"mongodb-community-server", "database"},
    {"cassandra", "database"},
    {"couchdb", "database"},
    {"neo4j", "database"},
    {"clickhouse-server", "database"},
    {"influxdb", "database"},
    {"etcd", "key-value store"},
    {"redis", "cache"},
    {"redis-cluster", "cache"},
    {"redis-sentinel", "cache"},
    {"redis-stack", "cache"},
    {"redis-stack-server", "cache"},
    {"valkey", "cache"},
    {"valkey-cluster", "cache"},
    {"valkey-sentinel", "cache"},
    {"keydb", "cache"},
    {"dragonfly", "cache"},
    {"memcached", "cache"},
    {"rabbitmq", "message broker"},
    {"nats", "message broker"},
    {"nats-streaming", "message broker"},
    {"kafka", "message broker"},
    {"cp-kafka", "message broker"},
    {"cp-server", "message broker"},
    {"zookeeper", "message broker's coordinator"},
    {"cp-zookeeper", "message broker's coordinator"},
    {"redpanda", "message broker"},
    {"pulsar", "message broker"},
    {"elasticsearch", "search engine"},
    {"opensearch", "search engine"},
    {"meilisearch", "search engine"},
    {"solr", "search engine"},
    {"typesense", "search engine"},
    {"weaviate", "vector database"},
    {"qdrant", "vector database"},
    {"milvus", "vector database"},
    {"chroma", "vector database"},
    {"minio", "object store"},
    {"nginx", "web server and reverse proxy"},
    {"nginx-unprivileged", "web server and reverse proxy"},
    {"openresty", "web server and reverse proxy"},
    {"httpd", "web server"},
    {"caddy", "web server and reverse proxy"},
    {"traefik", "reverse proxy"},
    {"envoy", "reverse proxy"},
    {"haproxy", "reverse proxy"},
    {"squid", "forward proxy"},
    {"tinyproxy", "forward proxy"},
    {"docker-socket-proxy", "Docker API proxy"},
    {"socket-proxy", "Docker API proxy"},
    {"mitmproxy", "forward proxy"},
    {"prometheus", "monitoring server"},
    {"alertmanager", "monitoring server"},
    {"grafana", "monitoring dashboard"},
    {"metrics-server", "cluster metrics server"},
    {"configmap-reload", "config reloader"},
    {"prometheus-config-reloader", "config reloader"},
    {"kube-rbac-proxy", "authenticating proxy"},
    {"oauth2-proxy", "authenticating proxy"},
    {"kube-state-metrics", "monitoring exporter"},
    {"node-exporter", "monitoring exporter"},
    {"loki", "log store"},
    {"tempo", "trace store"},
    {"jaeger", "trace store"},
    {"opentelemetry-collector", "telemetry collector"},
    {"opentelemetry-collector-contrib", "telemetry collector"},
    {"otel-collector", "telemetry collector"},
    {"keycloak", "identity provider"},
    {"dex", "identity provider"},
    {"vault", "secret store"},
}};

struct CodeImage {
  std::string_view pattern;  // the repository without its registry; `*` matches any run
  std::string_view what;
};

// Images whose whole job is to run the code sent to them.
constexpr std::array<CodeImage, 11> kCodeImages = {{
    {"e2bdev/*", "an E2B sandbox: it runs the code it is sent"},
    {"code-interpreter", "a code interpreter: it runs the code it is sent"},
    {"*/code-interpreter", "a code interpreter: it runs the code it is sent"},
    {"jupyter/*-notebook", "a Jupyter server: it runs the code cells it is sent"},
    {"elyra/kernel-py", "a Jupyter kernel: it runs the code it is sent"},
    {"elyra/kernel-r", "a Jupyter kernel: it runs the code it is sent"},
    {"elyra/kernel-scala", "a Jupyter kernel: it runs the code it is sent"},
    {"elyra/kernel-tf-py", "a Jupyter kernel: it runs the code it is sent"},
    {"elyra/kernel-tf-gpu-py", "a Jupyter kernel: it runs the code it is sent"},
    {"elyra/kernel-spark-py", "a Jupyter kernel: it runs the code it is sent"},
    {"elyra/kernel-spark-r", "a Jupyter kernel: it runs the code it is sent"},
}};

// Words of a compose service's name (or its image's) that make it the sandbox, and words that
// make it the platform around one (`sandbox-web`, `sandbox-proxy`, `code-interpreter-gateway`).
constexpr std::array<std::string_view, 6> kSandboxWords = {"sandbox",  "sandboxes", "interpreter",
                                                           "executor", "judge",     "judger"};
constexpr std::array<std::string_view, 20> kPlatformWords = {
    "web",     "ui",         "frontend", "api",      "gateway", "proxy",    "control",
    "plane",   "controller", "manager",  "operator", "db",      "database", "admin",
    "console", "dashboard",  "docs",     "exporter", "monitor", "egress"};

// `registry.example:5000/team/postgres:16@sha256:...` -> `team/postgres`; Docker Hub's
// `docker.io/library/` prefix goes too. "" when a part of it is still a variable.
std::string last_component(const std::string& repo) {
  auto p = repo.rfind('/');
  return p == std::string::npos ? repo : repo.substr(p + 1);
}

// One `*` at most, as the table uses it.
bool glob_match(std::string_view pattern, std::string_view s) {
  auto star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == s;
  std::string_view head = pattern.substr(0, star), tail = pattern.substr(star + 1);
  return s.size() >= head.size() + tail.size() && s.substr(0, head.size()) == head &&
         s.substr(s.size() - tail.size()) == tail;
}

// Images that carry the service's version in their name (`sclorg/postgresql-16-c9s`,
// `bitnami/redis-7`) name the service before the first version part.
std::string without_version(std::string name) {
  for (std::size_t i = 1; i + 1 < name.size(); ++i) {
    if (name[i] == '-' && std::isdigit(static_cast<unsigned char>(name[i + 1]))) {
      return name.substr(0, i);
    }
  }
  return name;
}

std::vector<std::string> words_of(std::string_view name) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : std::string(name) + "-") {
    if (c == '-' || c == '_' || c == '.' || c == '/') {
      if (!cur.empty()) out.push_back(lower(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

// Services known by their whole repository, whose last component alone says too little
// (`compose`): Docker Compose run as a container with the runtime socket, the documented way to
// run compose without installing it (CubeSandbox's one-click scripts fall back to it).
constexpr std::array<ServiceImage, 1> kServiceRepositories = {{
    {"docker/compose", "runtime client"},
}};

// A repository whose name ends in the word `db` or `database` (`weaveworksdemos/catalogue-db`,
// `acme/user-database`) is a database built for its application.
constexpr ServiceImage kNamedDatabase = {"*-db", "database"};

const ServiceImage* service_image(const std::string& repo) {
  if (repo.empty()) return nullptr;
  auto whole = std::find_if(kServiceRepositories.begin(), kServiceRepositories.end(),
                            [&](const ServiceImage& s) { return s.name == repo; });
  if (whole != kServiceRepositories.end()) return &*whole;
  const std::string name = without_version(last_component(repo));
  auto it = std::find_if(kServiceImages.begin(), kServiceImages.end(),
                         [&](const ServiceImage& s) { return s.name == name; });
  if (it != kServiceImages.end()) return &*it;
  const std::vector<std::string> words = words_of(name);
  if (words.size() > 1 && (words.back() == "db" || words.back() == "database"))
    return &kNamedDatabase;
  return nullptr;
}

const CodeImage* code_image(const std::string& repo) {
  if (repo.empty()) return nullptr;
  auto it = std::find_if(kCodeImages.begin(), kCodeImages.end(),
                         [&](const CodeImage& c) { return glob_match(c.pattern, repo); });
  return it == kCodeImages.end() ? nullptr : &*it;
}

// The base image of the final stage of the Dockerfile the workload is built from, when the
// input has it and it is pulled (not an earlier stage, not scratch).
const BaseImage* final_base(const Model& m, const Workload& w) {
  if (w.dockerfile.empty()) return nullptr;
  for (const ImageBuild& b : m.images) {
    if (b.path != w.dockerfile || b.bases.empty()) continue;
    const BaseImage& last = b.bases.back();
    return last.is_stage || last.is_scratch ? nullptr : &last;
  }
  return nullptr;
}

// The image as a reader names it: a digest says which build, not what it is.
std::string_view shown(std::string_view ref) {
  return ref.substr(0, ref.find('@'));
}

void service_image_evidence(const Model& m, const Workload& w, Evidence& out) {
  if (const ServiceImage* s = service_image(repository_of(w.image))) {
    add(out, ThreatSignal::ServiceImage, ThreatClass::UntrustedInput,
        s == &kNamedDatabase
            ? fmt::format("its image {} is a database by its name, a service of the platform",
                          shown(w.image))
            : fmt::format("its image {} is a well-known {} ({}), a service of the platform",
                          shown(w.image), s->role, s->name),
        w.container_from);
    return;
  }
  const BaseImage* base = final_base(m, w);
  if (base == nullptr) return;
  if (const ServiceImage* s = service_image(repository_of(base->reference))) {
    add(out, ThreatSignal::ServiceImage, ThreatClass::UntrustedInput,
        fmt::format("its image is built FROM {} ({}), a well-known {} ({}), a service of the "
                    "platform",
                    shown(base->reference), where(m, base->from), s->role, s->name),
        base->from);
  }
}

void code_image_evidence(const Workload& w, Evidence& out) {
  if (const CodeImage* c = code_image(repository_of(w.image))) {
    add(out, ThreatSignal::CodeImage, ThreatClass::UntrustedCode,
        fmt::format("its image {} is {}", shown(w.image), c->what), w.container_from);
  }
}

void sandbox_name_evidence(const Workload& w, Evidence& out) {
  if (w.engine != Engine::Compose) return;
  if (std::string word = sandbox_word(w.id.container); !word.empty()) {
    add(out, ThreatSignal::SandboxName, ThreatClass::UntrustedCode,
        fmt::format("its service name {} says it is the sandbox ({})", w.id.container, word),
        w.container_from);
    return;
  }
  const std::string repo = repository_of(w.image);
  if (std::string word = sandbox_word(last_component(repo)); !word.empty()) {
    add(out, ThreatSignal::SandboxName, ThreatClass::UntrustedCode,
        fmt::format("its image {} says it is the sandbox ({})", shown(w.image), word),
        w.container_from);
  }
}

}  // namespace

std::string repository_of(std::string_view ref) {
  std::string r = lower(std::string(ref.substr(0, ref.find('@'))));
  if (auto colon = r.rfind(':'); colon != std::string::npos && r.find('/', colon) == r.npos) {
    r.erase(colon);
  }
  if (auto slash = r.find('/'); slash != std::string::npos) {
    std::string_view first(r.data(), slash);
    if (first.find_first_of(".:") != std::string_view::npos || first == "localhost") {
      r.erase(0, slash + 1);
    }
  }
  if (r.rfind("library/", 0) == 0) r.erase(0, 8);
  if (r.find_first_of("${}") != std::string::npos) return "";
  return r;
}

std::string platform_word(std::string_view name) {
  for (const std::string& word : words_of(name)) {
    if (contains(kPlatformWords, word)) return word;
  }
  return "";
}

std::string sandbox_word(std::string_view name) {
  std::string hit;
  for (const std::string& word : words_of(name)) {
    if (contains(kPlatformWords, word)) return "";
    if (hit.empty() && contains(kSandboxWords, word)) hit = word;
  }
  return hit;
}

void image_evidence(const Model& m, const Workload& w, Evidence& out) {
  code_image_evidence(w, out);
  helper_evidence(w, out);
  test_script_evidence(m, w, out);
  sandbox_name_evidence(w, out);
  service_image_evidence(m, w, out);
}

}  // namespace sbr::engine::threat
