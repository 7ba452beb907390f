#include "analyzer/source/source.h"

#include <string_view>

#include "analyzer/support/strings.h"

namespace sbr {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

FileType classify(const std::string& path, std::string_view head) {
  const std::string name = base_name(path);
  const std::string lname = lower(name);
  if (lname == ".sbreview.yaml" || lname == ".sbreview.yml") return FileType::Config;
  if (lname == "devcontainer.json" || lname == ".devcontainer.json") return FileType::Devcontainer;
  if (lname == "dockerfile" || lname == "containerfile" || ends_with(lname, ".dockerfile") ||
      ends_with(lname, ".containerfile") || lname.rfind("dockerfile.", 0) == 0 ||
      lname.rfind("containerfile.", 0) == 0) {
    return FileType::Dockerfile;
  }
  const bool yaml = ends_with(lname, ".yaml") || ends_with(lname, ".yml");
  if (yaml && (lname.rfind("docker-compose", 0) == 0 || lname.rfind("compose", 0) == 0 ||
               lname.rfind("podman-compose", 0) == 0)) {
    return FileType::Compose;
  }
  if (yaml) return FileType::Yaml;
  if (ends_with(lname, ".json")) return FileType::Json;
  if (ends_with(lname, ".md") || ends_with(lname, ".markdown")) return FileType::Markdown;
  if (ends_with(lname, ".nft") || lname == "nftables.conf") return FileType::Nft;
  if (lname == "squid.conf" || ends_with(lname, ".squid.conf") || ends_with(lname, ".squid")) {
    return FileType::Squid;
  }
  if (ends_with(lname, ".sh") || ends_with(lname, ".bash")) return FileType::Shell;
  if (head.substr(0, 2) == "#!") {
    std::string_view first = head.substr(0, head.find('\n'));
    if (first.find("bash") != std::string_view::npos ||
        first.find("/sh") != std::string_view::npos ||
        first.find("env sh") != std::string_view::npos) {
      return FileType::Shell;
    }
  }
  return FileType::Other;
}

}  // namespace sbr
