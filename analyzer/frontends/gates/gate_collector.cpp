// The gate commands of one script, replayed in order: nft (commands, `-f -` heredocs, `-f FILE`
// from the repository), iptables/ip6tables(-restore), ipset, `network create --internal`, and
// commands entered into another network namespace (nsenter, ip netns exec, podman exec).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analyzer/frontends/gates/gates.h"
#include "analyzer/frontends/gates/iptables.h"
#include "analyzer/frontends/gates/nft_parser.h"
#include "analyzer/model/workload.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

enum class Tool : std::uint8_t { None, Nft, Iptables, Ip6tables, Restore4, Restore6, Ipset };

Tool tool_of(const std::string& argv0) {
  std::string b = base_name(argv0);
  if (b == "nft") return Tool::Nft;
  if (b == "ipset") return Tool::Ipset;
  for (const char* suffix : {"", "-legacy", "-nft"}) {
    if (b == std::string("iptables") + suffix) return Tool::Iptables;
    if (b == std::string("ip6tables") + suffix) return Tool::Ip6tables;
    if (b == std::string("iptables") + suffix + "-restore" ||
        b == std::string("iptables-restore") + suffix) {
      return Tool::Restore4;
    }
    if (b == std::string("ip6tables") + suffix + "-restore" ||
        b == std::string("ip6tables-restore") + suffix) {
      return Tool::Restore6;
    }
  }
  return Tool::None;
}

// Where the command runs and what it is, after unwrapping nsenter / ip netns exec / exec.
struct Located {
  Tool tool = Tool::None;
  size_t start = 0;       // index of the tool's argv[0]
  std::string netns;      // "" = the script's own namespace
  std::string container;  // `podman|docker exec CTR`: CTR
};

Located locate(const std::vector<Word>& argv) {
  Located l;
  if (argv.empty()) return l;
  l.tool = tool_of(argv[0].text);
  if (l.tool != Tool::None) return l;
  std::string b = base_name(argv[0].text);
  // Wrappers that run the tool in the same namespace.
  if (b == "timeout" || b == "nice" || b == "ionice" || b == "stdbuf" || b == "flock" ||
      b == "chronic" || b == "xargs") {
    for (size_t i = 1; i < argv.size(); ++i) {
      Tool t = tool_of(argv[i].text);
      if (t == Tool::None) continue;
      l.tool = t;
      l.start = i;
      return l;
    }
    return l;
  }
  const bool engine = b == "podman" || b == "docker" || b == "nerdctl";
  // `docker compose exec SERVICE tool`: the service's container (`docker-compose exec` too).
  const bool compose_exec =
      (engine && argv.size() > 2 && argv[1].text == "compose" && argv[2].text == "exec") ||
      ((b == "docker-compose" || b == "podman-compose") && argv.size() > 1 &&
       argv[1].text == "exec");
  const size_t first = compose_exec && engine ? 3 : 2;
  bool wrapper =
      b == "nsenter" ||
      (b == "ip" && argv.size() > 2 && argv[1].text == "netns" && argv[2].text == "exec") ||
      (engine && argv.size() > 1 && argv[1].text == "exec") || compose_exec;
  if (!wrapper) return l;
  for (size_t i = 1; i < argv.size(); ++i) {
    Tool t = tool_of(argv[i].text);
    if (t == Tool::None) continue;
    l.tool = t;
    l.start = i;
    // The word before the tool names the namespace: by its identity when it is an unknown
    // value (`podman exec "$NAME" nft`, NAME set once), so that its launch can be found.
    const std::string& ns = argv[i - 1].name();
    l.netns = ns.empty() ? "netns" : "netns " + ns;
    if (b == "nsenter") l.netns = "nsenter";
    // The word before the tool is the container (options such as -i, -u root come first).
    if (b != "nsenter" && b != "ip" && i > first && !ns.empty()) l.container = ns;
    return l;
  }
  return l;
}

bool network_create_internal(const std::vector<Word>& argv, std::string& name, Provenance& at) {
  std::string b = argv.empty() ? "" : base_name(argv[0].text);
  if ((b != "podman" && b != "docker" && b != "nerdctl") || argv.size() < 4) return false;
  if (argv[1].text != "network" || argv[2].text != "create") return false;
  bool internal = false;
  for (size_t i = 3; i < argv.size(); ++i) {
    if (argv[i].text == "--internal" || argv[i].text == "--internal=true") {
      internal = true;
      at = argv[i].from;
    }
  }
  if (!internal || argv.back().text.empty() || argv.back().text[0] == '-') return false;
  name = argv.back().text;
  return true;
}

// setpriv --bounding-set -all / -net_admin, capsh --drop=...net_admin / all.
bool drops_bounding_set(const std::vector<Word>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string b = base_name(argv[i].text);
    if (b != "setpriv" && b != "capsh") continue;
    for (size_t k = i + 1; k < argv.size(); ++k) {
      const std::string& w = argv[k].text;
      std::string v = w;
      if (w == "--bounding-set" && k + 1 < argv.size()) v = "--bounding-set=" + argv[k + 1].text;
      if (v.rfind("--bounding-set=", 0) == 0 &&
          (v.find("-all") != std::string::npos || v.find("-net_admin") != std::string::npos)) {
        return true;
      }
      if (v.rfind("--drop=", 0) == 0 &&
          (v.find("net_admin") != std::string::npos || v.find("all") != std::string::npos)) {
        return true;
      }
    }
  }
  return false;
}

struct Netns {
  gates::Ruleset nft;
  gates::Ruleset ipt;
};

class Replay {
 public:
  Replay(const SourceSet* sources, std::vector<Problem>& problems)
      : sources_(sources), problems_(problems) {}

  // The commands in order; `alt` (another path's input of one of them) in place of the
  // invocation it stands in for, on that invocation's path.
  void run(const std::vector<Invocation>& commands, const Invocation* alt = nullptr) {
    for (const Invocation& inv : commands) {
      if (inv.input_of) continue;
      if (alt == nullptr || inv.sequence != *alt->input_of) {
        one(inv);
        continue;
      }
      Invocation v = *alt;
      v.from.set_condition(inv.from.condition());
      v.stdin_from.set_condition(inv.stdin_from.condition());
      one(v);
    }
  }

  std::vector<EgressGate> gates() {
    std::vector<EgressGate> out = internal_;
    for (auto& [key, ns] : spaces_) {
      for (auto kind : {GateKind::Nft, GateKind::Iptables}) {
        auto gs = gates::evaluate(kind == GateKind::Nft ? ns.nft : ns.ipt, kind,
                                  // the namespace as a reader knows it, not by its identity
                                  key.empty() ? "" : "in " + reader_name(key));
        for (auto& g : gs) {
          if (!key.empty()) {
            if (g.hook != GateHook::Output) continue;  // a container namespace forwards nothing
            g.hook = GateHook::NetnsOutput;
          }
          g.setup_caps_dropped = caps_dropped_;
          if (auto c = containers_.find(key); c != containers_.end()) g.exec_container = c->second;
          out.push_back(std::move(g));
        }
      }
    }
    return out;
  }

 private:
  void one(const Invocation& inv) {
    if (drops_bounding_set(inv.argv)) caps_dropped_ = true;
    std::string net;
    Provenance net_at = inv.from;
    if (network_create_internal(inv.argv, net, net_at)) {
      EgressGate g;
      g.kind = GateKind::InternalNetwork;
      g.name = net;
      g.denies_v4 = g.denies_v6 = true;
      g.from = net_at;
      g.from.set_condition(inv.from.condition());
      internal_.push_back(std::move(g));
      return;
    }
    Located l = locate(inv.argv);
    if (l.tool == Tool::None) return;
    Netns& ns = spaces_[l.netns];
    if (!l.container.empty()) containers_[l.netns] = l.container;
    std::vector<Word> args(inv.argv.begin() + static_cast<std::ptrdiff_t>(l.start) + 1,
                           inv.argv.end());
    switch (l.tool) {
      case Tool::Nft:
        nft(inv, args, ns.nft);
        break;
      case Tool::Iptables:
      case Tool::Ip6tables:
        gates::apply_iptables(to_args(inv, args), l.tool == Tool::Ip6tables, inv.from, ns.ipt,
                              problems_);
        break;
      case Tool::Restore4:
      case Tool::Restore6:
        restore(inv, args, l.tool == Tool::Restore6, ns.ipt);
        break;
      case Tool::Ipset:
        if (!args.empty() && (args[0].text == "restore" || args[0].text == "-R")) {
          gates::apply_ipset_restore(inv.stdin_text, body_start(inv), ns.ipt, problems_);
        } else {
          gates::apply_ipset(to_args(inv, args), inv.from, ns.ipt, problems_);
        }
        break;
      case Tool::None:
        break;
    }
  }

  std::vector<gates::Arg> to_args(const Invocation& inv, const std::vector<Word>& words) const {
    std::vector<gates::Arg> out;
    for (const Word& w : words) {
      Provenance p = w.from.at.valid() ? w.from : inv.from;
      p.set_condition(inv.from.condition());
      out.push_back(
          {w.text.empty() && w.symbolic ? w.origin : w.text, w.symbolic, p, w.host_network});
    }
    return out;
  }

  static Provenance body_start(const Invocation& inv) {
    Provenance p = inv.stdin_from.at.valid() ? inv.stdin_from : inv.from;
    p.set_condition(inv.from.condition());
    if (p.at.column == 0) p.at.column = 1;
    return p;
  }

  // The repository file a command names, resolved from the script's directory, then the root,
  // then by a unique base name (a file copied into an image keeps its name, not its path).
  const SourceFile* find_file(const Invocation& inv, const std::string& path) const {
    if (sources_ == nullptr) return nullptr;
    std::string script_dir;
    FileId sid = inv.from.at.file;
    if (sid < sources_->files.size()) {
      const std::string& sp = sources_->files[sid].path;
      size_t s = sp.rfind('/');
      script_dir = s == std::string::npos ? "" : sp.substr(0, s + 1);
    }
    std::string rel = path;
    while (rel.rfind("./", 0) == 0) rel = rel.substr(2);
    const SourceFile* by_name = nullptr;
    int named = 0;
    for (const SourceFile& f : sources_->files) {
      if (f.path == script_dir + rel || f.path == rel) return &f;
      if (base_name(f.path) == base_name(path)) {
        by_name = &f;
        ++named;
      }
    }
    return named == 1 ? by_name : nullptr;
  }

  // Text read by `-f FILE` / a restore: the heredoc, or the file from the repository.
  bool input(const Invocation& inv, const std::string& path, gates::Segment& seg) {
    if (path == "-" || path.empty() || path == "/dev/stdin") {
      if (inv.stdin_from.at.valid() || !inv.stdin_text.empty()) {
        seg = {inv.stdin_text, body_start(inv)};
        return true;
      }
      if (path.empty()) return false;
    }
    if (const SourceFile* f = find_file(inv, path); f != nullptr && f->readable) {
      Provenance p{Location{f->id, 1, 1}, Frontend::Nft, inv.from.condition()};
      seg = {f->bytes, p};
      return true;
    }
    problems_.push_back(
        {ProblemKind::RenderFailed,
         fmt::format("gate: `{}` reads {}, which is not in the repository; the ruleset it loads "
                     "cannot be judged",
                     inv.argv.empty() ? "" : inv.argv[0].text, path.empty() ? "its input" : path),
         inv.from.at, path.empty() ? Cause::Analyzer : Cause::Environment});
    return false;
  }

  void nft(const Invocation& inv, const std::vector<Word>& args, gates::Ruleset& rs) {
    std::vector<gates::Segment> segs;
    std::optional<std::string> file;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& w = args[i].text;
      if (segs.empty() && !args[i].symbolic) {
        if (w == "-c" || w == "--check" || w == "-j" || w == "--json") return;  // loads nothing
        if (w == "-f" || w == "--file") {
          file = i + 1 < args.size() ? args[++i].text : "-";
          continue;
        }
        if (w.rfind("--file=", 0) == 0) {
          file = w.substr(7);
          continue;
        }
        if (w == "-I" || w == "--includepath" || w == "-D" || w == "--define") {
          ++i;
          continue;
        }
        if (w == "--") continue;
        if (!w.empty() && w[0] == '-') continue;  // -e, -a, -n, -s, -y...
      }
      Provenance p = args[i].from.at.valid() ? args[i].from : inv.from;
      p.set_condition(inv.from.condition());
      p.frontend = Frontend::Nft;
      std::string text = args[i].symbolic && args[i].text.empty() ? args[i].origin : args[i].text;
      segs.push_back({text, p, args[i].symbolic, args[i].tainted, args[i].host_network});
    }
    if (file) {
      gates::Segment seg;
      if (!input(inv, *file, seg)) return;
      segs = {seg};
    }
    if (segs.empty()) return;
    std::vector<gates::Token> tokens;
    if (!gates::lex_nft(segs, tokens, problems_)) return;
    if (!file) {
      // A command line is one command: every rule of it starts where the command starts.
      for (auto& t : tokens) t.from.set_condition(inv.from.condition());
    }
    gates::apply_nft(tokens, rs, problems_);
  }

  void restore(const Invocation& inv, const std::vector<Word>& args, bool v6, gates::Ruleset& rs) {
    std::string path;
    for (const Word& w : args) {
      if (!w.text.empty() && w.text[0] != '-') path = w.text;
    }
    gates::Segment seg;
    if (!input(inv, path, seg)) return;
    gates::apply_iptables_restore(seg.text, seg.at, v6, rs, problems_);
  }

  const SourceSet* sources_;
  std::vector<Problem>& problems_;
  std::map<std::string, Netns> spaces_;
  std::map<std::string, std::string> containers_;  // netns key -> the container exec enters
  std::vector<EgressGate> internal_;
  bool caps_dropped_ = false;
};

}  // namespace

bool GateCollector::add(const Invocation& inv) {
  std::string name;
  Provenance at;
  bool gate = locate(inv.argv).tool != Tool::None;
  if (gate || network_create_internal(inv.argv, name, at) || drops_bounding_set(inv.argv)) {
    commands_.push_back(inv);
  }
  return gate;
}

namespace {

bool same_gate(const EgressGate& a, const EgressGate& b) {
  if (a.kind != b.kind || a.name != b.name || a.hook != b.hook || a.denies_v4 != b.denies_v4 ||
      a.denies_v6 != b.denies_v6 || a.allows.size() != b.allows.size())
    return false;
  for (std::size_t i = 0; i < a.allows.size(); ++i)
    if (a.allows[i].value != b.allows[i].value || a.allows[i].dest != b.allows[i].dest)
      return false;
  return true;
}

// A gate of the script run with another path's input: it holds on that path.
void on_path(EgressGate& g, const Condition& path) {
  g.from.set_condition(conjoin(path, g.from.condition()));
  for (EgressAllow& a : g.allows) a.from.set_condition(conjoin(path, a.from.condition()));
  if (g.switched_deny) g.switched_deny->set_condition(conjoin(path, g.switched_deny->condition()));
}

}  // namespace

// The gates of the commands as they run, then those of every other path's input of a command
// (a ruleset heredoc whose allowlist an option widens): the commands replayed with that input
// in place of the default one, each gate that differs kept under that input's path.
std::vector<EgressGate> GateCollector::finish(std::vector<Problem>& problems) {
  Replay r(sources_, problems);
  r.run(commands_);
  std::vector<EgressGate> out = r.gates();
  const std::size_t defaults = out.size();
  for (const Invocation& alt : commands_) {
    if (!alt.input_of) continue;
    std::vector<Problem> again;  // the default replay reported them already
    Replay ar(sources_, again);
    ar.run(commands_, &alt);
    for (EgressGate& g : ar.gates()) {
      const bool known = std::any_of(out.begin(), out.begin() + static_cast<long>(defaults),
                                     [&](const EgressGate& d) { return same_gate(d, g); });
      if (known) continue;
      on_path(g, alt.from.condition());
      out.push_back(std::move(g));
    }
  }
  commands_.clear();
  return out;
}

}  // namespace sbr
