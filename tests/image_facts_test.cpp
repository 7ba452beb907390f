// Images as facts: the final stage's USER through stage chains (root when none is written),
// ARG/ENV defaults in FROM and RUN, heredocs, what RUN lines and copied sudoers files grant,
// ENTRYPOINT scripts resolved through COPY (never by name), and the findings they lead to.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "analyzer/source/memory_tree.h"
#include "tests/fixture_harness.h"
#include "tests/source_file.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace image_facts_test {

using namespace sbr;
using test::file_of;

namespace {

ImageBuild image(const std::string& text) {
  return launch::parse_dockerfile(file_of(0, "Dockerfile", FileType::Dockerfile, text));
}

struct Run {
  Analysis an;
  std::vector<Finding> findings;
  std::vector<std::pair<std::string, std::uint32_t>> of(const std::string& rule) const {
    std::vector<std::pair<std::string, std::uint32_t>> out;
    for (const Finding& f : findings) {
      if (std::string(f.rule_id) == rule)
        out.emplace_back(an.model.files.path(f.at.file), f.at.line);
    }
    return out;
  }
};

Run check(const MemoryTree& t) {
  Run r;
  Config config;
  r.an = analyze(t, config, {});
  r.findings = run_checks(r.an.model, Catalog::embedded(), config, {"2026-01-01"});
  return r;
}

const char* kDevcontainer = R"({
  "name": "agent",
  "build": {"dockerfile": "Dockerfile", "context": ".."},
  "runArgs": ["--cap-drop=ALL"]
})";

}  // namespace

TEST_CASE("Dockerfile USER: the last stage's, inherited from the stage it is built FROM",
          "[image]") {
  ImageBuild inherited = image("FROM debian:12 AS base\nUSER 1000\nFROM base AS final\nRUN id\n");
  REQUIRE(inherited.final_user);
  CHECK(inherited.final_user->value == "1000");
  CHECK(inherited.final_user->from.at.line == 2);
  // A stage FROM an image starts over: the earlier stage's USER does not carry over.
  ImageBuild fresh = image("FROM debian:12 AS base\nUSER 1000\nFROM debian:12\nRUN id\n");
  CHECK_FALSE(fresh.final_user);
  CHECK(fresh.final_from.at.line == 3);
  // Stage names are case-insensitive, and USER takes ENV values.
  ImageBuild named = image("FROM alpine AS Build\nENV U=agent\nFROM build\nUSER $U\n");
  REQUIRE(named.final_user);
  CHECK(named.final_user->value == "agent");
}

TEST_CASE("ARG and ENV defaults are expanded in FROM and RUN", "[image]") {
  ImageBuild b = image(R"(ARG BASE=node:20
FROM ${BASE}
ARG GROUP=docker
ENV SUDO_GROUP=sudo
RUN usermod -aG $SUDO_GROUP agent && usermod -aG "${GROUP}" agent && echo '$SUDO_GROUP'
)");
  REQUIRE(b.bases.size() == 1);
  CHECK_FALSE(b.bases[0].is_stage);  // resolved to node:20, an image to judge
  REQUIRE(b.run_lines.size() == 1);
  CHECK(b.run_lines[0].value ==
        "usermod -aG sudo agent && usermod -aG \"docker\" agent && echo '$SUDO_GROUP'");
  REQUIRE(b.grants.size() == 2);
  CHECK(b.grants[0].detail == "sudo");
  CHECK(b.grants[1].detail == "docker");
  // An unknown variable stays for the shell.
  ImageBuild u = image("FROM alpine\nRUN usermod -aG $GROUP agent\n");
  CHECK(u.grants.empty());
  CHECK(u.run_lines[0].value == "usermod -aG $GROUP agent");
}

TEST_CASE("heredocs: RUN bodies are not instructions, COPY heredocs into sudoers.d count",
          "[image]") {
  ImageBuild b = image(R"(FROM debian:12
RUN <<EOF
echo "agent ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/agent
USER 0
EOF
COPY <<-SUDO /etc/sudoers.d/tools
	agent ALL=(root) NOPASSWD: /usr/bin/apt-get
	SUDO
USER 1000
)");
  REQUIRE(b.run_lines.size() == 1);
  CHECK(b.run_lines[0].from.at.line == 3);  // the body starts below the RUN line
  REQUIRE(b.final_user);
  CHECK(b.final_user->value == "1000");  // `USER 0` inside the heredoc is shell text
  REQUIRE(b.grants.size() == 2);
  CHECK(b.grants[0].kind == ImageGrantKind::PasswordlessSudo);
  CHECK(b.grants[0].detail == "ALL");
  CHECK(b.grants[0].from.at.line == 2);  // at the RUN line
  CHECK(b.grants[1].detail == "/usr/bin/apt-get");
  CHECK(b.grants[1].via == "/etc/sudoers.d/tools");
  CHECK(b.grants[1].from.at.line == 6);
}

TEST_CASE("grants of RUN lines: the final image's stages only", "[image]") {
  ImageBuild b = image(R"(FROM golang:1.23 AS build
RUN chmod u+s /tmp/test-helper
FROM debian:12 AS run
RUN chmod 4755 /bin/ping && chmod g+s /srv && chmod 0755 /usr/local/bin/x
FROM run
RUN install -m 4755 /a /usr/local/sbin/b && gpasswd -a agent wheel && adduser agent staff
RUN echo 'agent ALL=(ALL) ALL' > /etc/sudoers.d/agent
)");
  REQUIRE(b.grants.size() == 3);
  CHECK(b.grants[0].kind == ImageGrantKind::SetuidBit);
  CHECK(b.grants[0].detail == "/bin/ping");
  CHECK(b.grants[1].detail == "/usr/local/sbin/b");
  CHECK(b.grants[2].kind == ImageGrantKind::PrivilegedGroup);
  CHECK(b.grants[2].detail == "wheel");
}

TEST_CASE("ENTRYPOINT and CMD programs: past wrappers, WORKDIR-relative, PATH lookup", "[image]") {
  ImageBuild b = image(R"(FROM debian:12
WORKDIR /app
ENTRYPOINT ["tini", "--", "./bin/start.sh"]
CMD entrypoint.sh --serve
)");
  REQUIRE(b.entrypoint_scripts.size() == 1);
  CHECK(b.entrypoint_scripts[0].value == "/app/bin/start.sh");
  REQUIRE_FALSE(b.cmd_scripts.empty());
  CHECK(b.cmd_scripts[1].value == "/usr/local/bin/entrypoint.sh");
  CHECK(image("FROM node\nCMD [\"node\", \"server.js\"]\n").cmd_scripts.empty());
}

TEST_CASE("a devcontainer built from a Dockerfile: root when no USER, at the FROM line",
          "[image]") {
  MemoryTree t;
  t.add_file(".devcontainer/devcontainer.json", kDevcontainer);
  t.add_file(".devcontainer/Dockerfile", "ARG V=1\nFROM debian:12@sha256:00 AS base\nRUN true\n");
  Run r = check(t);
  auto root = r.of("SB2006");
  REQUIRE(root.size() == 1);
  CHECK(root[0] == std::make_pair(std::string(".devcontainer/Dockerfile"), 2u));
  const Finding* f = nullptr;
  for (const Finding& x : r.findings) f = x.rule_id == "SB2006" ? &x : f;
  CHECK(f->message.find("sets no USER in its final stage") != std::string::npos);
  // containerUser wins over the image.
  MemoryTree u;
  u.add_file(".devcontainer/devcontainer.json",
             std::string(kDevcontainer).replace(1, 0, "\"containerUser\": \"1000\","));
  u.add_file(".devcontainer/Dockerfile", "FROM debian:12@sha256:00\n");
  CHECK(check(u).of("SB2006").empty());
}

TEST_CASE("compose build (string and map forms) and podman build -t then run link the image",
          "[image]") {
  MemoryTree t;
  t.add_file("compose.yaml", R"(services:
  short:
    build: ./agent
  long:
    build:
      context: .
      dockerfile: agent/Containerfile.dev
)");
  t.add_file("agent/Dockerfile", "FROM debian:12@sha256:00\nUSER 0\n");
  t.add_file("agent/Containerfile.dev", "FROM debian:12@sha256:00\nUSER 1001\n");
  t.add_file("run.sh",
             "#!/bin/sh\nset -e\npodman build -t agent:dev -f agent/Dockerfile agent\n"
             "podman run --rm agent:dev\n");
  Run r = check(t);
  std::vector<std::string> linked;
  for (const Workload& w : r.an.model.workloads) linked.push_back(w.dockerfile);
  std::sort(linked.begin(), linked.end());
  CHECK(linked == std::vector<std::string>{"agent/Containerfile.dev", "agent/Dockerfile",
                                           "agent/Dockerfile"});
  auto root = r.of("SB2006");
  // `short` and the launch share the fact at `USER 0`: one finding naming both
  // (check/group.h).
  CHECK(root.size() == 1);
  bool both = false;
  for (const Finding& f : r.findings) {
    if (f.rule_id.str() == "SB2006") both = both || f.shared_with.size() == 1;
  }
  CHECK(both);
  for (const auto& [file, line] : root) CHECK((file == "agent/Dockerfile" && line == 2));
}

TEST_CASE("passwordless sudo: high, critical beside NET_ADMIN, a copied sudoers file counts",
          "[image]") {
  MemoryTree t;
  t.add_file(".devcontainer/devcontainer.json", R"({
  "build": {"dockerfile": "Dockerfile", "context": ".."},
  "runArgs": ["--cap-add=NET_ADMIN"]
})");
  t.add_file(".devcontainer/Dockerfile",
             "FROM debian:12@sha256:00\nCOPY conf/sudoers /etc/sudoers.d/agent\n"
             "COPY .devcontainer/Dockerfile /etc/sudoers.d/\nUSER 1000\n");
  t.add_file("conf/sudoers", "# agent may fix its own firewall\nagent ALL=(root) NOPASSWD: ALL\n");
  Run r = check(t);
  CHECK(r.of("SB2061") ==
        std::vector<std::pair<std::string, std::uint32_t>>{{".devcontainer/Dockerfile", 2}});
  CHECK(r.of("SB2060").empty());
  // The same image without the capability: high. A sudoers file by the same name elsewhere in
  // the repository is not what the COPY reads.
  MemoryTree g;
  g.add_file(".devcontainer/devcontainer.json", kDevcontainer);
  g.add_file(".devcontainer/Dockerfile",
             "FROM debian:12@sha256:00\nCOPY conf/sudoers /etc/sudoers.d/agent\nUSER 1000\n");
  g.add_file("conf/sudoers", "agent ALL=(root) NOPASSWD: /usr/local/bin/fw.sh\n");
  g.add_file(".devcontainer/conf/sudoers", "agent ALL=(ALL) NOPASSWD: ALL\n");
  Run h = check(g);
  REQUIRE(h.of("SB2060").size() == 1);
  for (const Finding& f : h.findings) {
    if (f.rule_id == "SB2060") CHECK(f.message.find("/usr/local/bin/fw.sh") != std::string::npos);
  }
}

TEST_CASE("entrypoint scripts: resolved through COPY, judged for the socket and root defaults",
          "[image]") {
  MemoryTree t;
  t.add_file(".devcontainer/devcontainer.json", kDevcontainer);
  t.add_file(".devcontainer/Dockerfile",
             "FROM debian:12@sha256:00\nCOPY scripts/ /opt/\nWORKDIR /opt\n"
             "ENTRYPOINT [\"./start.sh\"]\nUSER 1000\n");
  t.add_file("scripts/start.sh",
             "#!/bin/bash\nset -euo pipefail\nUID_=\"${SANDBOX_UID:-0}\"\n"
             "chmod 666 /var/run/docker.sock\nexec su-exec \"$UID_\" \"$@\"\n");
  // Same name, not copied: never linked by basename.
  t.add_file("other/start.sh", "#!/bin/bash\nset -e\nusermod -aG docker agent\n");
  Run r = check(t);
  CHECK(r.of("SB2064") == std::vector<std::pair<std::string, std::uint32_t>>{
                              {"scripts/start.sh", 4}, {"scripts/start.sh", 5}});
  const Workload* w = nullptr;
  for (const Workload& x : r.an.model.workloads) w = x.dockerfile.empty() ? w : &x;
  REQUIRE(w != nullptr);
  REQUIRE(w->start_scripts.size() == 1);
  CHECK(w->start_scripts[0].container_path == "/opt/start.sh");
  CHECK(w->start_scripts[0].repo_path == "scripts/start.sh");
}

TEST_CASE("the model dump shows what the image grants and which repository files it carries",
          "[launch]") {
  Config config;
  Analysis an =
      analyze({test::source_dir() + "/fixtures/launch/devcontainer-sudo-socket"}, config, {});
  std::ostringstream dump;
  write_model_dump(an.model, dump);
  const std::string text = dump.str();
  // The dump prints the rule language's kinds and fields (check/fields.h).
  CHECK(text.find("    image_grant ALL\n"
                  "        kind: passwordless-sudo @ .devcontainer/Dockerfile:16:5\n"
                  "        detail: ALL @ .devcontainer/Dockerfile:16:5\n"
                  "        via: /etc/sudoers.d/vscode\n") != std::string::npos);
  CHECK(text.find("    image_file /opt/hooks/10-git.sh\n"
                  "        container_path: /opt/hooks/10-git.sh @ .devcontainer/Dockerfile:21:6\n"
                  "        repo_path: .devcontainer/hooks/10-git.sh\n") != std::string::npos);
  CHECK(text.find("    start_script /usr/local/bin/entrypoint.sh\n"
                  "        container_path: /usr/local/bin/entrypoint.sh @ "
                  ".devcontainer/Dockerfile:23:12\n") != std::string::npos);
}

}  // namespace image_facts_test
