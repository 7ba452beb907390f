// Shell-granting servers read from a container's command: how they authenticate and where
// they listen (engine/servers.h).
#include <catch2/catch.hpp>

#include "analyzer/engine/servers.h"

namespace sbr {
namespace {

Workload with_command(std::vector<std::string> words, std::string image = "img") {
  Workload w;
  w.image = std::move(image);
  std::uint32_t col = 1;
  for (auto& s : words) {
    Provenance p;
    p.at = Location{0, 1, col++};
    w.command.push_back(fact(std::move(s), p));
  }
  return w;
}

}  // namespace

TEST_CASE("code-server, Jupyter and ttyd are read with their authentication and bind",
          "[servers]") {
  auto s = engine::servers_started(
      with_command({"code-server", "--auth", "none", "--bind-addr", "0.0.0.0:8443"}));
  REQUIRE(s.size() == 1);
  CHECK(s[0].name == "code-server");
  CHECK(s[0].unauthenticated);
  CHECK(s[0].all_interfaces);
  CHECK(s[0].port == "8443");

  auto loop = engine::servers_started(with_command({"code-server", "--auth=none"}));
  REQUIRE(loop.size() == 1);
  CHECK_FALSE(loop[0].all_interfaces);  // default 127.0.0.1:8080

  auto shell = engine::servers_started(
      with_command({"sh", "-c", "jupyter lab --ip=0.0.0.0 --ServerApp.token='' && echo done"}));
  REQUIRE(shell.size() == 1);
  CHECK(shell[0].name == "jupyter");
  CHECK(shell[0].unauthenticated);
  CHECK(shell[0].port == "8888");

  auto pw = engine::servers_started(
      with_command({"jupyter", "notebook", "--ip=0.0.0.0",
                    "--NotebookApp.token=", "--NotebookApp.password=sha1:x"}));
  REQUIRE(pw.size() == 1);
  CHECK_FALSE(pw[0].unauthenticated);

  auto tty = engine::servers_started(with_command({"ttyd", "-p", "7000", "bash"}));
  REQUIRE(tty.size() == 1);
  CHECK(tty[0].unauthenticated);
  CHECK(tty[0].port == "7000");
  CHECK_FALSE(
      engine::servers_started(with_command({"ttyd", "-c", "u:p", "bash"}))[0].unauthenticated);

  // The image's entrypoint when only its arguments are given (Kubernetes `args:`).
  auto image = engine::servers_started(with_command(
      {"--auth", "none", "--bind-addr", "0.0.0.0:8080"}, "ghcr.io/coder/code-server:4.96.2"));
  REQUIRE(image.size() == 1);
  CHECK(image[0].unauthenticated);
  CHECK(engine::servers_started(with_command({"python3", "-m", "http.server"})).empty());
}

}  // namespace sbr
