// A chart's output is split into documents as helm splits it (`(?:^|\s*\n)---\s*`), and what
// it prints is what helm prints: the objects a check reads are helm's objects.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace helm_rendered_documents_test {

using namespace sbr;

TEST_CASE("a separator followed by a comment ends the document as in helm", "[helm]") {
  // cert-manager's rbac.yaml: `{{- end -}}` trims the blank lines on both sides of it, so the
  // output reads `---# Permission to: ...`. Helm splits there; a YAML parser read one scalar
  // and ran two ClusterRoles into one document (SB0001, SB0006 on kind and metadata).
  test::TempDir dir;
  dir.write("chart/Chart.yaml", "apiVersion: v2\nname: issuer\nversion: 1.0.0\n");
  dir.write("chart/values.yaml", "disableAutoApproval: false\n");
  dir.write("chart/templates/rbac.yaml",
            "apiVersion: rbac.authorization.k8s.io/v1\n"
            "kind: ClusterRole\n"
            "metadata:\n"
            "  name: {{ .Release.Name }}-edit\n"
            "rules:\n"
            "  - apiGroups: [\"\"]\n"
            "    resources: [\"secrets\"]\n"
            "    verbs: [\"get\"]\n"
            "\n"
            "---\n"
            "\n"
            "{{- if not .Values.disableAutoApproval -}}\n"
            "\n"
            "# Permission to approve requests\n"
            "apiVersion: rbac.authorization.k8s.io/v1\n"
            "kind: ClusterRole\n"
            "metadata:\n"
            "  name: {{ .Release.Name }}-approve\n"
            "rules:\n"
            "  - apiGroups: [\"cert-manager.io\"]\n"
            "    resources: [\"signers\"]\n"
            "    verbs: [\"approve\"]\n"
            "\n"
            "---\n"
            "\n"
            "{{- end -}}\n"
            "\n"
            "# Permission to sign\n"
            "apiVersion: rbac.authorization.k8s.io/v1\n"
            "kind: ClusterRole\n"
            "metadata:\n"
            "  name: {{ .Release.Name }}-sign\n"
            "rules:\n"
            "  - apiGroups: [\"certificates.k8s.io\"]\n"
            "    resources: [\"signers\"]\n"
            "    verbs: [\"sign\"]\n");
  Config config;
  Analysis an = analyze({dir.path.string()}, config, {});
  auto fs = run_checks(an.model, Catalog::embedded(), config, {"2026-01-01"});
  for (const Finding& f : fs) {
    INFO(f.rule_id.str() << " " << f.message.str());
    CHECK(f.rule_id != "SB0001");
    CHECK(f.rule_id != "SB0006");
  }
  std::vector<std::string> roles;
  for (const auto& r : an.model.cluster.roles) roles.push_back(r.ref.name);
  // The render with the switch flipped (`disableAutoApproval=true`) reads its two again.
  std::sort(roles.begin(), roles.end());
  roles.erase(std::unique(roles.begin(), roles.end()), roles.end());
  CHECK(roles ==
        std::vector<std::string>{"release-name-approve", "release-name-edit", "release-name-sign"});
}

}  // namespace helm_rendered_documents_test
