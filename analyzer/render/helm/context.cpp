#include "analyzer/render/helm/context.h"

#include <re2/re2.h>

#include <cctype>

#include <algorithm>
#include <memory>

#include "analyzer/render/helm/digest.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/support/strings.h"

namespace sbr::render::helm {

namespace {

using FileList = std::vector<std::pair<std::string, std::string>>;

// The API groups of a cluster as helm template assumes one (client-go's built-in scheme).
const char* const kApiVersions[] = {"v1",
                                    "admissionregistration.k8s.io/v1",
                                    "apiextensions.k8s.io/v1",
                                    "apps/v1",
                                    "authentication.k8s.io/v1",
                                    "authorization.k8s.io/v1",
                                    "autoscaling/v1",
                                    "autoscaling/v2",
                                    "batch/v1",
                                    "certificates.k8s.io/v1",
                                    "coordination.k8s.io/v1",
                                    "discovery.k8s.io/v1",
                                    "events.k8s.io/v1",
                                    "flowcontrol.apiserver.k8s.io/v1",
                                    "networking.k8s.io/v1",
                                    "node.k8s.io/v1",
                                    "policy/v1",
                                    "rbac.authorization.k8s.io/v1",
                                    "scheduling.k8s.io/v1",
                                    "storage.k8s.io/v1"};

Value api_versions(const std::vector<std::string>& extra) {
  auto all =
      std::make_shared<std::vector<std::string>>(std::begin(kApiVersions), std::end(kApiVersions));
  all->insert(all->end(), extra.begin(), extra.end());
  List items;
  for (const std::string& v : *all) items.push_back(Value::string(v));
  Value list = Value::new_list(items);
  Map m;
  m["Has"] = Value::function([all](const std::vector<Value>& a) {
    if (a.size() != 1) return Value::boolean(false);
    std::string want = print_value(a[0]);
    for (const std::string& gv : *all) {
      // "apps/v1/Deployment": the group version serves its built-in kinds.
      if (want == gv ||
          (want.rfind(gv + "/", 0) == 0 && want.find('/', gv.size() + 1) == std::string::npos))
        return Value::boolean(true);
    }
    return Value::boolean(false);
  });
  m["\x01"] = Value::string("[" + print_value(list).substr(1));
  return Value::new_map(std::move(m));
}

Value as_config(const std::shared_ptr<FileList>& files, bool secrets) {
  Map m;
  for (const auto& f : *files)
    m[base_name(f.first)] = Value::string(secrets ? base64_encode(f.second) : f.second);
  Value v = Value::new_map(std::move(m));
  std::string text = to_yaml(v, nullptr);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return Value::string(v.map->empty() ? "" : text);
}

}  // namespace

std::string files_glob_regex(std::string_view p) {
  std::string re = "(?s)";
  int braces = 0;
  for (std::size_t k = 0; k < p.size(); ++k) {
    char c = p[k];
    if (c == '*' && k + 1 < p.size() && p[k + 1] == '*') {
      re += ".*";
      while (k + 1 < p.size() && p[k + 1] == '*') ++k;
    } else if (c == '*') {
      re += "[^/]*";
    } else if (c == '?') {
      re += "[^/]";
    } else if (c == '[') {
      std::size_t close = p.find(']', k + 1);
      if (close == std::string_view::npos || close == k + 1) return "";
      std::string_view body = p.substr(k + 1, close - k - 1);
      bool negate = body[0] == '!';
      if (negate) body.remove_prefix(1);
      if (body.empty()) return "";
      re += negate ? "[^" : "[";
      for (char b : body) {
        // Punctuation is escaped; letters, digits, `-` (a range) and UTF-8 bytes stay as they are.
        if (b != '-' && std::ispunct(static_cast<unsigned char>(b))) re += '\\';
        re += b;
      }
      re += ']';
      k = close;
    } else if (c == '{') {
      ++braces;
      re += "(?:";
    } else if (c == '}' && braces > 0) {
      --braces;
      re += ')';
    } else if (c == ',' && braces > 0) {
      re += '|';
    } else {
      if (c == '\\' && k + 1 < p.size()) c = p[++k];
      re += RE2::QuoteMeta(std::string(1, c));
    }
  }
  return braces == 0 ? re : "";
}

Value release_object(const ReleaseSettings& r) {
  return Value::new_map({{"Name", Value::string(r.name)},
                         {"Namespace", Value::string(r.ns)},
                         {"Service", Value::string("Helm")},
                         {"Revision", Value::integer(r.revision)},
                         {"IsInstall", Value::boolean(!r.upgrade)},
                         {"IsUpgrade", Value::boolean(r.upgrade)}});
}

Value capabilities_object(const ReleaseSettings& r) {
  const std::string& v = r.kube_version;
  auto dot1 = v.find('.'), dot2 = v.find('.', dot1 + 1);
  Value kube = Value::new_map({{"Version", Value::string(v)},
                               {"GitVersion", Value::string(v)},
                               {"Major", Value::string(v.substr(1, dot1 - 1))},
                               {"Minor", Value::string(v.substr(dot1 + 1, dot2 - dot1 - 1))},
                               {"\x01", Value::string(v)}});
  Value helm =
      Value::new_map({{"Version", Value::string("v4.2.0")}, {"\x01", Value::string("v4.2.0")}});
  return Value::new_map({{"KubeVersion", kube},
                         {"APIVersions", api_versions(r.api_versions)},
                         {"HelmVersion", helm}});
}

Value files_object(FileList list) {
  auto files = std::make_shared<FileList>(std::move(list));
  auto find = [files](const std::vector<Value>& a) -> std::string {
    if (a.empty()) return "";
    std::string want = print_value(a[0]);
    for (const auto& f : *files) {
      if (f.first == want) return f.second;
    }
    return "";
  };
  Map m;  // the methods; the map itself holds the files, as helm's `Files` map does
  m["Get"] =
      Value::function([find](const std::vector<Value>& a) { return Value::string(find(a)); });
  m["GetBytes"] = m["Get"];
  m["Lines"] = Value::function([find](const std::vector<Value>& a) {
    std::string s = find(a);
    List lines;
    std::size_t k = 0;
    while (k < s.size()) {
      std::size_t nl = s.find('\n', k);
      lines.push_back(
          Value::string(s.substr(k, nl == std::string::npos ? std::string::npos : nl - k)));
      if (nl == std::string::npos) break;
      k = nl + 1;
    }
    return Value::new_list(std::move(lines));
  });
  m["Glob"] = Value::function([files](const std::vector<Value>& a) {
    FileList matched;
    std::string re = files_glob_regex(a.empty() ? "" : print_value(a[0]));
    RE2 glob(re.empty() ? "(?s).*" : re);
    for (const auto& f : *files) {
      if (RE2::FullMatch(f.first, glob)) matched.push_back(f);
    }
    return files_object(std::move(matched));
  });
  m["AsConfig"] =
      Value::function([files](const std::vector<Value>&) { return as_config(files, false); });
  m["AsSecrets"] =
      Value::function([files](const std::vector<Value>&) { return as_config(files, true); });
  Map by_path;
  for (const auto& f : *files) by_path[f.first] = Value::string(f.second);
  Value out = Value::new_map(std::move(by_path));
  out.methods = std::make_shared<const Map>(std::move(m));
  return out;
}

}  // namespace sbr::render::helm
