// The prose half of the vocabulary: phrases that claim a control, and the words that make a
// clause negated, conditional, hedged or advice (docs/doc-claims.md, "Prose").
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>

#include "analyzer/frontends/markdown/vocabulary.h"
#include "analyzer/support/strings.h"

namespace sbr::md {
namespace {

using F = ClaimForm;

// What a phrase's first group, when it has one, means.
// WorkspaceOnly: a property of the workspace alone ("cannot access files outside your project
// folder"); paths elsewhere in the clause are not exceptions to it.
enum class Group { None, Value, Runtime, Writable, LayerValue, Reach, WorkspaceOnly };

// A match that is not the claim after all, by what surrounds it.
using Reject = bool (*)(std::string_view text, std::size_t begin, std::size_t end);

struct PhraseRule {
  const char* pattern;  // RE2, case-insensitive
  ClaimForm form;
  Group group = Group::None;
  Reject reject = nullptr;
};

std::string_view next_word(std::string_view text, std::size_t from) {
  while (from < text.size() && text[from] == ' ') ++from;
  std::size_t to = from;
  while (to < text.size() && (std::isalpha(static_cast<unsigned char>(text[to])) != 0)) ++to;
  return text.substr(from, to - from);
}

// "no network policy", "no network plugin": about an object, not about the network; "no
// network restrictions needed", "no network isolation during build": the opposite of no network.
bool network_object_follows(std::string_view text, std::size_t, std::size_t end) {
  std::string w = lower(next_word(text, end));
  return w.rfind("polic", 0) == 0 || w == "plugin" || w == "namespace" || w == "mode" ||
         w == "rules" || w == "rule" || w.rfind("restrict", 0) == 0 || w.rfind("isolat", 0) == 0 ||
         w.rfind("limit", 0) == 0 || w.rfind("filter", 0) == 0 || w.rfind("config", 0) == 0 ||
         w.rfind("change", 0) == 0 || w == "setup";
}

// "non-loopback", "binds every interface ... loopback": loopback is not what is bound.
bool not_loopback(std::string_view text, std::size_t begin, std::size_t end) {
  std::string m = lower(text.substr(begin, end - begin));
  return m.find("non-loopback") != std::string::npos || m.find("non-local") != std::string::npos ||
         m.find("every interface") != std::string::npos ||
         m.find("all interfaces") != std::string::npos || m.find("0.0.0.0") != std::string::npos ||
         (begin >= 4 && lower(text.substr(begin - 4, 4)) == "non-");
}

// "cannot reach your host credentials": the host's files, not the host over the network.
bool host_thing_follows(std::string_view text, std::size_t, std::size_t end) {
  static constexpr std::array<std::string_view, 9> kThings = {
      "credentials", "files", "file", "filesystem", "home", "directories", "paths", "keys", "os"};
  std::string w = lower(next_word(text, end));
  return std::find(kThings.begin(), kThings.end(), w) != kThings.end();
}

// "use the `kata-log-parser`", "run `kata-runtime check`": a tool named after the runtime, not
// the runtime (a dash follows, or a code span goes on past it; "runs under `runsc`" stays).
bool runtime_is_a_tool(std::string_view text, std::size_t, std::size_t end) {
  auto ticks = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '`');
  char next = end < text.size() ? text[end] : ' ';
  return next == '-' || (ticks % 2 == 1 && next != '`');
}

// Words a clause names a workload by, before the verb that puts it in the runtime: "the agent
// runs in gVisor", "each session is isolated in a microVM", "sandboxes use Kata".
bool names_a_workload(std::string_view before) {
  static const auto kSubject = compile_ci(
      R"(\b(?:agents?|sandbox(?:es)?|containers?|workloads?|sessions?|code|pods?|jobs?|tasks?|process(?:es)?|commands?|tools?|shells?|vms?|it|each|every|everything|all)\b)");
  return RE2::PartialMatch(before, *kSubject);
}

// "use Kata", "running Kata", "how to run gVisor", "inside the Kata VM": an instruction to the
// reader or a description of the runtime itself (kata-containers' how-to pages), not a property
// of a workload here. A verb in the third person ("runs", "uses", "executes") brings its own
// subject; otherwise the clause must name a workload before the runtime ("Under WSL the agent
// runs under gVisor").
bool runtime_without_subject(std::string_view text, std::size_t begin, std::size_t end) {
  if (runtime_is_a_tool(text, begin, end)) return true;
  static const auto kThirdPerson = compile_ci(R"(\b(?:runs|uses|executes)\b)");
  if (RE2::PartialMatch(text.substr(begin, end - begin), *kThirdPerson)) return false;
  return !names_a_workload(text.substr(0, end));
}

// "unprivileged user namespaces", "maps root to an unprivileged user on the host": a kernel
// feature and the user namespace's mapping, not the user the container runs as.
bool not_the_container_user(std::string_view text, std::size_t, std::size_t end) {
  std::string w = lower(next_word(text, end));
  if (w.rfind("namespace", 0) == 0) return true;
  std::string rest = lower(text.substr(end, 16));
  return rest.starts_with(" on host") || rest.starts_with(" on the host");
}

// "This time limit the scope to ...": "this time", then the verb "limit".
bool time_then_verb(std::string_view text, std::size_t begin, std::size_t) {
  static const auto kBefore = compile_ci(R"(\b(?:this|that|next|each|every|first|last)\s*$)");
  return RE2::PartialMatch(text.substr(0, begin), *kBefore);
}

// "HostMCP is the only path out": a way out of the sandbox, not a mount.
bool way_follows(std::string_view text, std::size_t, std::size_t end) {
  std::string w = lower(next_word(text, end));
  return w == "out" || w == "to" || w == "for" || w == "through" || w == "into";
}

// "read-only root" inside "read-only-ish": hedged wording is not the claim.
bool ish_follows(std::string_view text, std::size_t, std::size_t end) {
  return end < text.size() &&
         (text[end] == '-' || std::isalnum(static_cast<unsigned char>(text[end])) != 0);
}

// The table is data: one rule per entry, its pattern on one line.
// clang-format off
constexpr PhraseRule kPhrases[] = {
    // 1: the runtime boundary, next to a verb that puts the workload in it
    {R"((?:\bruns?|\brunning|\bran|\bexecutes?|\bexecuted|\bsandboxed|\bisolated|\blaunched|\bstarted|\buses?|\busing|\bunder|\binside|\bwithin)\b[^.;]{0,30}?\b(g[Vv]isor|runsc)\b)",
     F::HardenedRuntime, Group::Runtime, runtime_without_subject},
    {R"((?:\bruns?|\brunning|\bran|\bexecutes?|\bexecuted|\bsandboxed|\bisolated|\blaunched|\bstarted|\buses?|\busing|\bunder|\binside|\bwithin)\b[^.;]{0,30}?\b(micro-?vms?|firecracker|kata)\b)",
     F::HardenedRuntime, Group::Runtime, runtime_without_subject},
    {R"(\b(?:never|not|no) (?:runs? |running )?(?:as )?privileged\b)",
     F::NotPrivileged},
    {R"(\b(?:un|non-)privileged containers?\b)", F::NotPrivileged},
    // 1: the runtime's socket ("the sandbox has no Docker socket", "no access to the
    // Docker
    // daemon"): a socket mounted in is the host's root.
    {R"(\bno (?:direct )?(?:access to (?:the )?)?(?:host'?s? )?(?:docker|podman|containerd|container[- ]runtime) (?:socket|daemon|engine)(?: access)?\b)",
     F::NoRuntimeSocket},
    {R"(\b(?:docker|podman|containerd|container[- ]runtime) (?:socket|daemon) (?:is|are) (?:never |not )(?:mounted|exposed|shared|passed|available|accessible|reachable)\b)",
     F::NoRuntimeSocket},
    {R"(\b(?:cannot|can't|can not) (?:reach|access|talk to|use|connect to) the (?:host'?s? )?(?:docker|podman|containerd) (?:socket|daemon|engine)\b)",
     F::NoRuntimeSocket},
    // 2: least privilege
    {R"(\bdrops? (?:all|every) (?:linux )?capabilit(?:y|ies)\b)", F::CapDropAll},
    {R"(\ball (?:linux )?capabilities (?:are |were |get )?dropped\b)", F::CapDropAll},
    {R"(\b(?:no|zero) (?:linux )?capabilities\b)", F::CapDropAll},
    {R"(\bwithout (?:any )?(?:linux )?capabilities\b)", F::CapDropAll},
    {R"(\bno[- ]new[- ]privileges?\b)", F::NoNewPrivileges},
    {R"(\bcannot (?:gain|acquire|regain) (?:new |more |any )?privileges?\b)",
     F::NoNewPrivileges},
    {R"(\bprivilege escalation is (?:blocked|disabled|prevented|off|impossible|not possible)\b)",
     F::NoNewPrivileges},
    {R"(\b(?:non-?root|unprivileged) (?:user|uid)\b)", F::NonRootUser, Group::None,
     not_the_container_user},
    {R"(\b(?:never|not) (?:runs? )?as root\b)", F::NonRootUser},
    {R"(\bread[- ]?only root(?: ?file ?system|fs| fs)?)", F::ReadOnlyRoot, Group::None,
     ish_follows},
    {R"(\broot (?:file ?system|fs) is (?:mounted )?read[- ]?only)", F::ReadOnlyRoot,
     Group::None, ish_follows},
    {R"(\bread[- ]?only (?:container )?file ?system\b)", F::ReadOnlyRoot},
    {R"(\bseccomp(?: profile)? `([^`]+)`)", F::SeccompProfile, Group::Value},
    {R"(\b(?:default |a )?seccomp (?:profile |filter )?(?:is )?(?:enabled|enforced|applied|on)\b)",
     F::SeccompProfile},
    {R"(\bapparmor(?: profile)? `([^`]+)`)", F::AppArmorProfile, Group::Value},
    // "`bin/agentbox` implements layer 3: AppArmor profile `agentbox`": a
    // defence-in-depth
    // list; the profile belongs to the invocation or service the clause names.
    {R"(\b(?:implements? )?(?:defen[cs]e )?layer (?:\d+|[a-z]+) ?(?::|-|\x{2013}|\x{2014}) ?(?:an? |the )?apparmor (?:profile )?`?([A-Za-z0-9_.:/-]*[A-Za-z0-9_/-])`?)",
     F::AppArmorProfile, Group::LayerValue},
    {R"(\b(?:implements? )?(?:defen[cs]e )?layer (?:\d+|[a-z]+) ?(?::|-|\x{2013}|\x{2014}) ?(?:an? |the )?seccomp (?:profile |filter )?`?([A-Za-z0-9_.:/-]*[A-Za-z0-9_/-])`?)",
     F::SeccompProfile, Group::LayerValue},
    // 3: mounts
    {R"(\bonly (?:the |your |its )?(?:project|workspace|repository|repo|working|current)(?: directory| dir| folder| tree| checkout)? (?:is|gets|are) (?:bind[- ])?mounted\b)",
     F::OnlyMounts},
    {R"(\bonly (?:`[^`]+`)(?:,? (?:and )?`[^`]+`)* (?:is|are) (?:bind[- ])?mounted\b)",
     F::OnlyMounts},
    {R"(\b(?:is|are) the only (?:(writable|read-write) )?(?:host )?(?:mount|bind(?: mount)?|path|directory|volume)s?\b)",
     F::OnlyMounts, Group::Writable, way_follows},
    {R"(\bthe only (?:(writable|read-write) )?(?:host )?(?:mount|bind|path|directory) is\b)",
     F::OnlyMounts, Group::Writable},
    {R"(\bnothing (?:else )?(?:from the host )?is (?:bind[- ])?mounted (?:but|except|besides)\b)",
     F::OnlyMounts},
    // The same property in the words a README uses: what the agent can see or touch.
    {R"(\b(?:cannot|can't|can not|is unable to|has no (?:way|access) to) (?:access|see|read|modify|touch|write|reach)?(?: or (?:access|see|read|modify|write))? ?(?:any )?(?:files?|anything|data|directories|folders)(?: on the host)? outside (?:of )?(?:your|the|its) (?:project|workspace|repo(?:sitory)?|working director(?:y|ies)|current director(?:y|ies))(?: (?:folder|directory|dir|tree))?)",
     F::OnlyMounts, Group::WorkspaceOnly},
    {R"(\b(?:sees|can see|can only see|only sees|has access to) only (?:the|your|its) (?:project|workspace|repo(?:sitory)?|working|current)(?: (?:folder|directory|dir|tree))?\b)",
     F::OnlyMounts, Group::WorkspaceOnly},
    {R"(\bcan only (?:read|write|access|see|modify)(?: and (?:read|write|modify))? (?:files )?(?:within|in|inside|under) (?:the|your|its) (?:project|workspace|repo(?:sitory)?|working|current)(?: (?:folder|directory|dir|tree))?\b)",
     F::OnlyMounts, Group::WorkspaceOnly},
    {R"(\bonly (?:the|your) (?:project|workspace|repo(?:sitory)?|working|current)(?: (?:folder|directory|dir|tree))? (?:is|are) (?:visible|accessible|exposed|shared)\b)",
     F::OnlyMounts, Group::WorkspaceOnly},
    {R"(\b(?:has |have )?no access to (?:the )?host(?: os)? (?:files|file ?system)\b)",
     F::OnlyMounts, Group::WorkspaceOnly},
    // "the blast radius is limited to `/workspace`": nothing else can be written.
    {R"(\bblast radius (?:is )?(?:limited|confined|restricted|contained) (to)\b)",
     F::OnlyMounts, Group::Writable},
    // "cannot access `~/.ssh`, `/etc` or other projects": the paths are not mounted at
    // all.
    {R"(\b(?:(?:cannot|can't|can not) (?:access|read|see|touch|reach)|(?:has |have )?no access to)\b)",
     F::NotMounted},
    {R"(\b(?:is|are) (?:never |not |NOT )(?:bind[- ])?(?:mounted|shared|exposed)\b)",
     F::NotMounted},
    // 4: tokens
    {R"(\bno service[- ]?account token\b)", F::NoTokenAutomount},
    {R"(\bservice[- ]?account token is not (?:auto)?mounted\b)", F::NoTokenAutomount},
    {R"(\b(?:credentials?|secrets?|api[- ]keys?|tokens?|keys)\b(?: \([^)]*\))? (?:never|do not|don't|are not|aren't|are never|will never|cannot|can't|is not|isn't|does not|doesn't)(?: be)? (?:enter|reach|get (?:into|to)|pass(?:ed)? (?:in)?to|passed|forwarded|injected|mounted|exposed|copied|placed|end up in|touch)(?:s|es|ed)?\b[^.;]{0,25}?\b(?:containers?|sandbox(?:es)?|agents?|vms?|jails?|workloads?)\b)",
     F::NoCredentials},
    {R"(\bno (?:host |cloud |real |long-lived )?(?:credentials|secrets|api keys|tokens)(?: or [a-z ]{1,30})? (?:enter|reach|are (?:mounted|passed|forwarded) (?:in)?to|inside)\b)",
     F::NoCredentials},
    // 5: the network
    {R"(\bno network(?: access| connectivity)?\b)", F::NoNetwork, Group::None,
     network_object_follows},
    {R"(\bnetwork(?:ing)? (?:is|gets) (?:disabled|off|cut|removed)\b)", F::NoNetwork},
    {R"(\bwithout (?:any )?network(?: access)?\b)", F::NoNetwork, Group::None,
     network_object_follows},
    {R"(\bdefault[- ]deny(?: (?:egress|outbound|network|firewall|policy))?\b)",
     F::EgressDefaultDeny},
    {R"(\b(?:egress|outbound)(?: traffic| connections| requests)? (?:is|are) (?:denied|blocked|dropped|refused|rejected) by default\b)",
     F::EgressDefaultDeny},
    {R"(\bden(?:y|ies) (?:all )?(?:egress|outbound)(?: traffic| connections)?\b)",
     F::EgressDefaultDeny},
    {R"(\bblocks? (?:all )?(?:other )?(?:egress|outbound)(?: traffic| connections| requests)?\b)",
     F::EgressDefaultDeny},
    {R"(\b(?:all )?other (?:outbound|egress) (?:traffic|connections|requests) (?:is|are) (?:blocked|denied|dropped|rejected)\b)",
     F::EgressDefaultDeny},
    {R"(\ballowlist[- ]only\b)", F::EgressDefaultDeny},
    {R"(\bdefault (?:iptables |nft |nftables |firewall |egress |output )?policy (?:is |of |to )?(?:drop|deny)\b)",
     F::EgressDefaultDeny},
    {R"(\bfilters? (?:all )?(?:outbound|egress)(?: traffic)?\b)", F::EgressDefaultDeny},
    {R"(\bno (?:internet|outbound|egress) (?:access|traffic|connections)\b)",
     F::EgressDefaultDeny},
    {R"(\begress is (?:gated|filtered|closed)\b)", F::EgressDefaultDeny},
    // "outbound traffic is restricted to a whitelist of allowed hosts", "can only reach
    // approved destinations": whatever is not listed is denied.
    {R"(\b(?:outbound|egress|network|internet)(?: traffic| access| connections| requests)? (?:is |are )?(?:restricted|limited) to\b)",
     F::EgressDefaultDeny},
    {R"(\bcan only (?:reach|connect to|talk to|access) (?:the )?(?:approved|allowed|allow-?listed|white-?listed|listed|permitted) (?:destinations|hosts|domains|endpoints)\b)",
     F::EgressDefaultDeny},
    // "cannot reach the host, the cloud metadata service or the LAN".
    {R"(\b(?:cannot|can't|can not|unable to|no way to|never) (?:reach|access|connect to|talk to|probe|hit)\b[^.;]{0,40}?\b(the host(?:'s)?(?: (?:network|services|machine|ports))?|(?:cloud |instance )?metadata(?: (?:service|endpoint|server|api)s?)?|(?:the |your )?lan\b|(?:the )?local network|private (?:networks?|ranges?|ips?|addresses)|rfc ?1918|169\.254\.169\.254)\b)",
     F::NoInternalReach, Group::Reach, host_thing_follows},
    {R"(\b((?:cloud |instance )?metadata|private ips?|private ranges?|lan|link-local) (?:(?:and|or) [a-z ]{1,30} )?(?:endpoints?|services?|addresses|ranges )?(?:are |is )?(?:blocked|denied|dropped|unreachable|blackholed)\b)",
     F::NoInternalReach, Group::Reach},
    {R"(\ball (?:outbound |egress )?(?:traffic|requests|connections) (?:goes|go|passes|pass|is routed|are routed|flows?|is forced|are forced) (?:only )?through (?:the|an|a) (?:egress |http |https |squid )?(?:proxy|gate|gateway)\b)",
     F::ProxyOnly},
    {R"(\bonly (?:through|via) the (?:egress )?(?:proxy|gate)\b)", F::ProxyOnly},
    {R"(\b(?:all )?(?:outbound |egress )?(?:traffic|requests|connections) (?:must|has to|have to) (?:go|pass|traverse|be routed)(?: through| via)? (?:the |an? )?(?:egress |http |https |squid )?(?:proxy|gate|gateway|squid)\b)",
     F::ProxyOnly},
    {R"(\bforces? all (?:outbound |egress )?(?:traffic|requests|connections) (?:through|via) (?:the |an? )?(?:egress |http |squid )?(?:proxy|gate|gateway)\b)",
     F::ProxyOnly},
    {R"(\b(?:binds?|bound|listens?|listening|publish(?:es|ed)?|forwards?)\b[^.;]{0,40}?(?:127\.0\.0\.1|\bloopback\b|\blocalhost\b|::1))",
     F::LoopbackPublish, Group::None, not_loopback},
    {R"(\bloopback[- ]only\b)", F::LoopbackPublish},
    {R"(\bonly (?:on|to) (?:the )?(?:loopback|localhost|127\.0\.0\.1)\b)",
     F::LoopbackPublish},
    // 6: budgets (pids, memory and cpu are read by limit_hits below)
    {R"(\b(?:wall[- ]clock|time|run ?time|duration) limit\b)", F::WallClock, Group::None,
     time_then_verb},
    {R"(\b(?:is |are )?killed after\b)", F::WallClock},
    {R"(\btimes? out after\b)", F::WallClock},
    // 7: lifecycle
    {R"(\brefuses? to (?:start|run|launch|continue|proceed)\b)", F::FailClosed},
    {R"(\b(?:will not|won't|does not|doesn't|never) (?:start|launch)\b)",
     F::FailClosed},
    {R"(\bfails? closed\b)", F::FailClosed},
    {R"(\bhard error\b)", F::FailClosed},
    {R"(\baborts? (?:the (?:run|launch|start)|before|if|when)\b)", F::FailClosed},
    {R"(\bexits? (?:non-zero|with an error|with a non-zero status)\b)", F::FailClosed},
    {R"(\b(?:removed|deleted|discarded|destroyed|thrown away) (?:(?:when|after|as soon as|on) (?:the |each |every )?(?:container|run|session|sandbox|task|exit|invocation)|after (?:each|every) use)\b)",
     F::Ephemeral},
    {R"(\bephemeral (?:containers?|sandbox(?:es)?|vms?)\b)", F::Ephemeral},
    {R"(\b(?:containers?|sandbox(?:es)?) (?:is|are) ephemeral\b)", F::Ephemeral},
    {R"(\bcannot persist\b)", F::NoPersistence},
    {R"(\bnothing (?:persists|survives)\b)", F::NoPersistence},
    {R"(\b(?:does not|doesn't|never) persists?\b)", F::NoPersistence},
    {R"(\bno persistent (?:state|storage|volumes?|home|data)\b)", F::NoPersistence},
    {R"(\bleaves? nothing behind\b)", F::NoPersistence},
};
// clang-format on

// "the host's network", "cloud metadata", "RFC1918": which of the three a reach claim names.
std::string reach_value(std::string_view target) {
  std::string t = lower(target);
  if (t.find("metadata") != std::string::npos || t.find("169.254") != std::string::npos)
    return "metadata";
  if (t.find("host") != std::string::npos) return "host";
  return "lan";
}

struct CompiledPhrase {
  const PhraseRule* rule;
  std::unique_ptr<RE2> re;
};

const std::vector<CompiledPhrase>& compiled_phrases() {
  static const std::vector<CompiledPhrase> out = [] {
    std::vector<CompiledPhrase> v;
    for (const PhraseRule& r : kPhrases) v.push_back({&r, compile_ci(r.pattern)});
    return v;
  }();
  return out;
}

// Calls fn(begin, end, group1) for each match of `re` in `text`, left to right.
template <class Fn>
void for_each_match(const RE2& re, std::string_view text, Fn fn) {
  std::array<re2::StringPiece, 2> m;
  const int groups = std::min(1, re.NumberOfCapturingGroups()) + 1;
  std::size_t pos = 0;
  const re2::StringPiece all(text.data(), text.size());
  while (pos <= text.size() && re.Match(all, pos, text.size(), RE2::UNANCHORED, m.data(), groups)) {
    auto begin = static_cast<std::size_t>(m[0].data() - text.data());
    std::size_t end = begin + m[0].size();
    std::string_view g = groups > 1 && m[1].data() != nullptr
                             ? std::string_view(m[1].data(), m[1].size())
                             : std::string_view();
    fn(begin, end, g);
    pos = end > begin ? end : begin + 1;
  }
}

// "pids and memory limits", "memory, pids and CPU caps": one claim per resource named.
void limit_hits(std::string_view clause, std::vector<PhraseHit>& out) {
  static const auto kList = compile_ci(
      R"(\b(?:pids?|process(?:es)?|memory|ram|cpus?)\b(?:\s*(?:,|and|&|/|\+)\s*(?:pids?|process(?:es)?|memory|ram|cpus?)\b)*\s+(?:limits?|caps?|quotas?|ceilings?|bounds?)\b)");
  static const auto kWord = compile_ci(R"(\b(pids?|process(?:es)?|memory|ram|cpus?)\b)");
  // "increase the pod's memory limits", "to remove the default CPU limits": a change to a limit,
  // advice or its purpose, not a limit the configuration has.
  static const auto kChanged = compile_ci(
      R"(\b(?:remove|removing|unset|increase|increasing|raise|lower|reduce|decrease|adjust|tune|bump|change|override|disable|tweak)\b(?:\s+\S+){0,3}\s*$)");
  // "That node's CPU and memory limits come from your container runtime (Podman machine,
  // Docker Desktop)": the limits of the machine the cluster or engine runs on, not the
  // sandbox's (kagenti's install guide).
  static const auto kMachine = compile_ci(
      R"(\b(?:node|vm|virtual machine|host|machine|minikube|kind|docker desktop|podman machine|colima|lima|wsl)(?:'s|\x{2019}s)?\s+(?:\S+\s+){0,2}$)");
  for_each_match(*kList, clause, [&](std::size_t b, std::size_t e, std::string_view) {
    if (RE2::PartialMatch(clause.substr(0, b), *kChanged)) return;
    if (RE2::PartialMatch(clause.substr(0, b), *kMachine)) return;
    for_each_match(*kWord, clause.substr(b, e - b),
                   [&](std::size_t wb, std::size_t we, std::string_view w) {
                     std::string word = lower(w);
                     ClaimForm f = word.front() == 'p'   ? F::PidsLimit
                                   : word.front() == 'c' ? F::CpuLimit
                                                         : F::MemoryLimit;
                     out.push_back({f, b + wb, b + we, "", false, false, b + wb, false});
                   });
  });
}

}  // namespace

std::vector<PhraseHit> find_phrases(std::string_view clause) {
  std::vector<PhraseHit> hits;
  for (const CompiledPhrase& c : compiled_phrases()) {
    for_each_match(*c.re, clause, [&](std::size_t b, std::size_t e, std::string_view g) {
      if (c.rule->reject && c.rule->reject(clause, b, e)) return;
      PhraseHit h{c.rule->form, b, e, "", false, false, b, false};
      if (c.rule->group == Group::Value || c.rule->group == Group::LayerValue)
        h.value = std::string(g);
      h.layer = c.rule->group == Group::LayerValue;
      if (c.rule->group == Group::Runtime) {
        h.value = hardened_runtime_value(g);
        h.value_at = static_cast<std::size_t>(g.data() - clause.data());
      }
      if (c.rule->group == Group::Writable) h.writable_only = !g.empty();
      if (c.rule->group == Group::Reach) h.value = reach_value(g);
      h.workspace_only = c.rule->group == Group::WorkspaceOnly;
      hits.push_back(std::move(h));
    });
  }
  limit_hits(clause, hits);
  std::sort(hits.begin(), hits.end(), [](const PhraseHit& a, const PhraseHit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  std::vector<PhraseHit> kept;
  for (PhraseHit& h : hits) {
    bool overlaps = std::any_of(kept.begin(), kept.end(), [&](const PhraseHit& k) {
      return h.begin < k.end && k.begin < h.end;
    });
    if (!overlaps) kept.push_back(std::move(h));
  }
  return kept;
}

std::vector<AccessWord> access_words(std::string_view clause) {
  static const auto kAccess =
      compile_ci(R"(\b(read[- ]?only|ro|writable|writeable|read-write|rw)\b)");
  std::vector<AccessWord> out;
  for_each_match(*kAccess, clause, [&](std::size_t b, std::size_t e, std::string_view w) {
    // "read-only-ish" hedges; a dash after the word makes it another word.
    if (e < clause.size() && clause[e] == '-') return;
    std::string word = lower(w);
    out.push_back({b, word.rfind("read", 0) == 0 ? word != "read-write" : word == "ro"});
  });
  return out;
}

bool is_control_header(std::string_view header) {
  static const auto kControl = compile_ci(
      R"(stopped by|mitigat|\bcontrols?\b|enforced|enforcement|defen[cs]e|protect|prevented|blocked by|countermeasure|safeguard|\bguard)");
  return RE2::PartialMatch(header, *kControl);
}

std::string inner_sandbox_named(std::string_view text) {
  static const auto kTool = compile_ci(
      R"(\b(bwrap|bubblewrap|firejail|nsjail|minijail0?|landlock|sandbox-exec|seatbelt)\b)");
  static const auto kBwrapFlag = compile_ci(
      R"((?:^|[\s`])--(?:ro-bind|bind-try|dev-bind|unshare-(?:all|net|pid|ipc|uts|user|cgroup)|die-with-parent|new-session)\b)");
  std::string tool;
  if (RE2::PartialMatch(text, *kTool, &tool)) {
    tool = lower(tool);
    return tool == "bubblewrap" ? "bwrap" : tool;
  }
  if (RE2::PartialMatch(text, *kBwrapFlag)) return "bwrap";
  return "";
}

bool is_evidence_header(std::string_view header) {
  static const auto kEvidence =
      compile_ci(R"(evidence|\btests?\b|verified|verification|proof|checked by|asserted)");
  return RE2::PartialMatch(header, *kEvidence);
}

}  // namespace sbr::md
