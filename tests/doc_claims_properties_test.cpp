// Property claims (docs/doc-claims.md, "Prose"): what READMEs promise in a reader's words ("it
// cannot access files outside your project folder", "credentials never enter the container"),
// each read as the form whose facts can contradict it. The sentences are those of public
// agent-sandbox repositories; the quiet ones (negation, advice, the future, quotations) are not
// claims.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/frontends/markdown/claims_extract.h"
#include "analyzer/frontends/markdown/markdown.h"
#include "analyzer/frontends/markdown/markdown_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace doc_claims_properties_test {

using namespace sbr;

namespace {

std::vector<Claim> claims_of(const std::string& text) {
  return md::extract_claims(md::parse_markdown(text), 0).claims;
}

struct Case {
  const char* sentence;
  ClaimForm form;
  ClaimMood mood;
  const char* value;
};

}  // namespace

TEST_CASE("property phrases read as the form that can contradict them", "[doc-claims]") {
  using F = ClaimForm;
  using M = ClaimMood;
  const std::vector<Case> cases = {
      {"It cannot access files outside your project folder.", F::OnlyMounts, M::Asserted, ""},
      {"The agent sees only the project directory.", F::OnlyMounts, M::Asserted, ""},
      {"The tool can only read and write files within the project directory.", F::OnlyMounts,
       M::Asserted, ""},
      {"The container has no access to host OS files.", F::OnlyMounts, M::Asserted, ""},
      {"The sandbox has no Docker socket, so HostMCP is the only path out.", F::NoRuntimeSocket,
       M::Asserted, ""},
      {"The SafeYolo container has no Docker socket.", F::NoRuntimeSocket, M::Asserted, ""},
      {"Credential isolation: cloud credentials never enter the container.", F::NoCredentials,
       M::Asserted, ""},
      {"API keys are not passed into the sandbox.", F::NoCredentials, M::Asserted, ""},
      {"Outbound traffic is restricted to a whitelist of allowed hosts.", F::EgressDefaultDeny,
       M::Asserted, ""},
      {"Network access is restricted to ONLY Anthropic's API endpoints.", F::EgressDefaultDeny,
       M::Asserted, ""},
      {"Agents can only reach approved destinations.", F::EgressDefaultDeny, M::Asserted, ""},
      {"Squid is dual-homed, so outbound traffic must traverse Squid.", F::ProxyOnly, M::Asserted,
       ""},
      {"This forces all traffic through the proxy.", F::ProxyOnly, M::Asserted, ""},
      {"All traffic must go through the proxy.", F::ProxyOnly, M::Asserted, ""},
      {"A compromised session cannot reach the cloud metadata endpoint.", F::NoInternalReach,
       M::Asserted, "metadata"},
      {"The agent cannot reach LAN hosts or the host's services.", F::NoInternalReach, M::Asserted,
       "lan"},
      {"Private IPs and metadata endpoints blocked by default.", F::NoInternalReach, M::Asserted,
       "lan"},
      {"Ephemeral Containers: containers are destroyed after each use.", F::Ephemeral, M::Asserted,
       ""},
      // Quiet: negated, advice, the future.
      {"We plan to block the cloud metadata endpoint in a future release: the agent cannot "
       "reach the metadata service.",
       F::NoInternalReach, M::Planned, "metadata"},
      {"You should make sure that credentials never enter the container.", F::NoCredentials,
       M::Advice, ""},
  };
  for (const Case& c : cases) {
    INFO(c.sentence);
    std::vector<Claim> got = claims_of(std::string(c.sentence) + "\n");
    REQUIRE(got.size() == 1);
    CHECK(got[0].form == c.form);
    CHECK(got[0].mood == c.mood);
    CHECK(got[0].value == c.value);
  }
}

TEST_CASE("a path the agent cannot access is a claim that it is not mounted", "[doc-claims]") {
  auto c = claims_of("The agent cannot access `~/.ssh`, `/etc` or other projects.\n");
  REQUIRE(c.size() == 1);
  CHECK(c[0].form == ClaimForm::NotMounted);
  CHECK(c[0].arguments == std::vector<std::string>{"~/.ssh", "/etc"});
  auto off = claims_of("SSH keys (`~/.ssh`) and AWS credentials (`~/.aws`) are NOT mounted.\n");
  REQUIRE(off.size() == 1);
  CHECK(off[0].form == ClaimForm::NotMounted);
  CHECK(off[0].arguments == std::vector<std::string>{"~/.ssh", "~/.aws"});
  // "cannot" without a host path is about something else.
  CHECK(claims_of("The agent cannot delete the repository.\n").empty());
  // The blast radius: nothing outside the paths named is writable.
  auto blast = claims_of("The blast radius is limited to `/workspace`.\n");
  REQUIRE(blast.size() == 1);
  CHECK(blast[0].form == ClaimForm::OnlyMounts);
  CHECK(blast[0].writable_only);
  CHECK(blast[0].arguments == std::vector<std::string>{"/workspace"});
}

TEST_CASE("words that only look like a property claim stay quiet", "[doc-claims]") {
  for (const char* s : {
           "Credentials are never baked into the Docker image.",
           "The token never enters shell history.",
           "Cost efficient: ephemeral clusters for testing, destroyed after use.",
           "Why not just mount the Docker socket so the AI can access containers directly?",
           "It does not grant host root unless the Docker socket is mounted.",
           "Claude cannot modify host files outside mounted paths.",
           "An exception to \"all traffic must go through the proxy\" is the DNS resolver.",
           "Tool results cannot reach your host credentials, IDE bridges, or shell history.",
       }) {
    INFO(s);
    for (const Claim& c : claims_of(std::string(s) + "\n")) {
      INFO(claim_form_name(c.form) << " " << claim_mood_name(c.mood));
      CHECK(c.mood != ClaimMood::Asserted);
    }
  }
}

}  // namespace doc_claims_properties_test
