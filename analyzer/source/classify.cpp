#include "analyzer/source/source.h"

#include <string_view>

#include "analyzer/support/strings.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// `services:` at the start of a line: a cheap test before any YAML is parsed, so the other YAML
// files of a large repository (Kubernetes streams) are not parsed twice.
bool has_top_level_services(std::string_view bytes) {
  for (std::size_t at = bytes.find("services:"); at != std::string_view::npos;
       at = bytes.find("services:", at + 1)) {
    if (at == 0 || bytes[at - 1] == '\n') return true;
  }
  return false;
}

bool is_service_definition(const yaml::Node* svc) {
  // Compose's `image` is a reference string; a Helm values file's `image:` is a mapping
  // (repository, tag), which keeps `services:` sections of values files out.
  const yaml::Node* image = svc != nullptr && svc->is_map() ? svc->get("image") : nullptr;
  return svc != nullptr && svc->is_map() &&
         ((image != nullptr && image->is_scalar()) || svc->get("build") != nullptr ||
          svc->get("extends") != nullptr);
}

}  // namespace

bool looks_like_compose(std::string_view bytes) {
  if (!has_top_level_services(bytes)) return false;
  yaml::DocumentReader reader(bytes, 200'000);
  yaml::Document doc;
  yaml::ParseFailure error;
  if (reader.next(doc, error) != yaml::DocumentReader::Status::Document) return false;
  const yaml::Node* root = doc.root;
  if (root == nullptr || !root->is_map()) return false;
  if (root->get("apiVersion") != nullptr || root->get("kind") != nullptr) return false;
  const yaml::Node* services = root->get("services");
  if (services == nullptr || !services->is_map()) return false;
  bool defined = false;
  for (const auto& [k, v] : services->entries) {
    if (v == nullptr || !v->is_map()) return false;  // compose services are all mappings
    defined = defined || is_service_definition(v);
  }
  return defined;
}

FileType classify(const std::string& path, std::string_view head) {
  const std::string name = base_name(path);
  const std::string lname = lower(name);
  // Only the top-level file is the configuration: one in another folder is a YAML file like any
  // other (a pull request could otherwise hide a pod in `deploy/.sbreview.yaml`).
  if ((lname == ".sbreview.yaml" || lname == ".sbreview.yml") && path == name) {
    return FileType::Config;
  }
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
