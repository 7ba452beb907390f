#include "analyzer/frontends/launch/run_options.h"

#include <algorithm>
#include <array>

namespace sbr::launch {
namespace {

// Options of `podman run`/`docker run` that take a value (podman 5 and docker 27 manuals).
// Sorted for binary search. Anything missing here is treated as a flag and reported as unknown.
constexpr std::array<std::string_view, 144> kValueOptions = {
    "add-host",
    "annotation",
    "arch",
    "attach",
    "authfile",
    "blkio-weight",
    "blkio-weight-device",
    "cap-add",
    "cap-drop",
    "cgroup-conf",
    "cgroup-parent",
    "cgroupns",
    "cgroups",
    "chrootdirs",
    "cidfile",
    "conmon-pidfile",
    "cpu-count",
    "cpu-percent",
    "cpu-period",
    "cpu-quota",
    "cpu-rt-period",
    "cpu-rt-runtime",
    "cpu-shares",
    "cpus",
    "cpuset-cpus",
    "cpuset-mems",
    "decryption-key",
    "detach-keys",
    "device",
    "device-cgroup-rule",
    "device-read-bps",
    "device-read-iops",
    "device-write-bps",
    "device-write-iops",
    "dns",
    "dns-opt",
    "dns-option",
    "dns-search",
    "domainname",
    "entrypoint",
    "env",
    "env-file",
    "env-merge",
    "exit-policy",
    "expose",
    "gidmap",
    "gpus",
    "group-add",
    "group-entry",
    "health-cmd",
    "health-interval",
    "health-log-destination",
    "health-max-log-count",
    "health-max-log-size",
    "health-on-failure",
    "health-retries",
    "health-start-interval",
    "health-start-period",
    "health-startup-cmd",
    "health-startup-interval",
    "health-startup-retries",
    "health-startup-success",
    "health-startup-timeout",
    "health-timeout",
    "hooks-dir",
    "hostname",
    "hostuser",
    "image-volume",
    "infra-command",
    "infra-conmon-pidfile",
    "infra-image",
    "infra-name",
    "init-path",
    "ip",
    "ip6",
    "ipc",
    "isolation",
    "kernel-memory",
    "label",
    "label-file",
    "link",
    "link-local-ip",
    "log-driver",
    "log-opt",
    "mac-address",
    "memory",
    "memory-reservation",
    "memory-swap",
    "memory-swappiness",
    "mount",
    "name",
    "net",
    "network",
    "network-alias",
    "oom-score-adj",
    "os",
    "passwd-entry",
    "personality",
    "pid",
    "pidfile",
    "pids-limit",
    "platform",
    "pod",
    "pod-id-file",
    "preserve-fd",
    "preserve-fds",
    "publish",
    "pull",
    "rdt-class",
    "requires",
    "restart",
    "retry",
    "retry-delay",
    "runtime",
    "runtime-flag",
    "sdnotify",
    "seccomp-policy",
    "secret",
    "security-opt",
    "share",
    "shm-size",
    "shm-size-systemd",
    "stop-signal",
    "stop-timeout",
    "storage-opt",
    "subgidname",
    "subuidname",
    "sysctl",
    "systemd",
    "timeout",
    "tmpfs",
    "tz",
    "uidmap",
    "ulimit",
    "umask",
    "unsetenv",
    "user",
    "userns",
    "uts",
    "variant",
    "volume",
    "volume-driver",
    "volumes-from",
    "workdir",
};

// Boolean options: never consume the next word (`--rm=false` is the only way to give a value).
constexpr std::array<std::string_view, 25> kFlagOptions = {
    "detach",
    "disable-content-trust",
    "env-host",
    "help",
    "http-proxy",
    "infra",
    "init",
    "interactive",
    "no-healthcheck",
    "no-hosts",
    "oom-kill-disable",
    "passwd",
    "privileged",
    "publish-all",
    "quiet",
    "read-only",
    "read-only-tmpfs",
    "replace",
    "rm",
    "rmi",
    "rootfs",
    "sig-proxy",
    "tls-verify",
    "tty",
    "use-api-socket",
};

struct Short {
  char c;
  std::string_view long_name;
};
constexpr std::array<Short, 16> kShort = {{
    {'a', "attach"},
    {'c', "cpu-shares"},
    {'d', "detach"},
    {'e', "env"},
    {'h', "hostname"},
    {'i', "interactive"},
    {'l', "label"},
    {'m', "memory"},
    {'n', "name"},
    {'p', "publish"},
    {'P', "publish-all"},
    {'q', "quiet"},
    {'t', "tty"},
    {'u', "user"},
    {'v', "volume"},
    {'w', "workdir"},
}};

std::string canonical(std::string_view name) {
  if (name == "net") return "network";
  if (name == "dns-opt") return "dns-option";
  return std::string(name);
}

// The word's text from offset `from` (the value of `--opt=value`, `-pVALUE`), with its
// unknown parts.
Word sub_word(const Word& w, std::size_t from) {
  Word out = w;
  out.text = w.text.substr(from);
  out.unknown_parts = unknown_parts_in(w.unknown_parts, from, w.text.size());
  return out;
}

bool starts_with_dash(const Word& w) {
  return !w.text.empty() && w.text[0] == '-';
}

// Whether the words from `j` are known run options (with their values) and then a plain image
// reference: `"${EXTRA[@]}" -e KEY=V -p 8080:8080 agent:1 claude` puts the image after the
// open word. An unknown option on the way says nothing.
bool options_then_image(const std::vector<Word>& argv, std::size_t j) {
  while (j < argv.size()) {
    const Word& w = argv[j];
    // An open word counts when what the script knows of it reads as an image
    // (`ghcr.io/acme/$agent-sandbox:1.4`).
    if (!starts_with_dash(w) || w.symbolic) return reads_as_image(w.text);
    const std::string& t = w.text;
    std::string name;
    if (t.starts_with("--")) {
      name = canonical(
          t.substr(2, t.find('=') == std::string::npos ? std::string::npos : t.find('=') - 2));
      if (!option_is_known(name)) return false;
    } else {
      auto s = std::find_if(kShort.begin(), kShort.end(),
                            [&](const Short& x) { return t.size() == 2 && x.c == t[1]; });
      if (s == kShort.end()) return false;
      name = std::string(s->long_name);
    }
    const bool valued = option_takes_value(name) && t.find('=') == std::string::npos;
    j += valued ? 2 : 1;
  }
  return false;
}

// Whether the open word at `i`, standing where the image goes, is rather a splice of options.
// A word the script leaves open can be any number of words at run time, options among them;
// it is the image only when what follows reads as the command. It stands for options when it
// holds blanks (an unquoted value that splits, `$MOUNTS` = " -v a:b -v c:d"), when known
// options and then a plain image reference follow it, or when it is a command's output and the
// next word is an
// option or such a splice (`$(build_flags) -e KEY=...`: with it as the image, `-e` would be
// the command's). A variable or argument before an option stays the image: `"$IMAGE"
// --log-level trace` is how an entrypoint's flags follow an image the environment picks
// (kata's monitor test).
bool open_word_is_options(const std::vector<Word>& argv, std::size_t i) {
  const Word& w = argv[i];
  if (!w.symbolic || starts_with_dash(w)) return false;
  if (w.text.find_first_of(" \t\n") != std::string::npos) return true;
  // Its guess is an image reference (`"${REGISTRY:-ghcr.io/acme/agent}:$TAG"`): the image,
  // whatever the command after it looks like (`-c 'script'` for a shell entrypoint).
  if (reads_as_image(w.text) || i + 1 >= argv.size()) return false;
  const Word& next = argv[i + 1];
  if (options_then_image(argv, i + 1)) return true;
  bool output = w.origin.starts_with("command substitution") || w.origin.starts_with("output of");
  bool splice_next = next.symbolic && next.text.find_first_of(" \t\n") != std::string::npos;
  return output && (starts_with_dash(next) || splice_next);
}

}  // namespace

// `ghcr.io/acme/agent:1.2`, `agent:latest`, `localhost/agent@sha256:...`: what an image looks
// like, as opposed to a command (`bash`, `/bin/sh`) or a flag.
bool reads_as_image(std::string_view t) {
  if (t.empty() || t[0] == '-' || t[0] == '/') return false;
  if (t.find_first_of(" \t\n=") != std::string_view::npos) return false;
  return t.find('/') != std::string_view::npos || t.find(':') != std::string_view::npos ||
         t.find('@') != std::string_view::npos;
}

bool plain_image_reference(const Word& w) {
  return !w.symbolic && reads_as_image(w.text);
}

bool option_takes_value(std::string_view n) {
  return std::binary_search(kValueOptions.begin(), kValueOptions.end(), n);
}

bool option_is_known(std::string_view n) {
  return option_takes_value(n) ||
         std::find(kFlagOptions.begin(), kFlagOptions.end(), n) != kFlagOptions.end();
}

std::size_t skip_global_options(const std::vector<Word>& argv, std::size_t i) {
  // Global options of podman and docker that take a value.
  static constexpr std::array<std::string_view, 22> kGlobalValue = {"--root",
                                                                    "--runroot",
                                                                    "--log-level",
                                                                    "--cgroup-manager",
                                                                    "--storage-driver",
                                                                    "--storage-opt",
                                                                    "--events-backend",
                                                                    "--connection",
                                                                    "-c",
                                                                    "--url",
                                                                    "--identity",
                                                                    "--runtime",
                                                                    "--tmpdir",
                                                                    "--network-cmd-path",
                                                                    "--conmon",
                                                                    "--module",
                                                                    "--ssh",
                                                                    "-H",
                                                                    "--host",
                                                                    "--context",
                                                                    "--config",
                                                                    "--volumepath"};
  while (i < argv.size()) {
    const std::string& t = argv[i].text;
    if (t.size() < 2 || t[0] != '-') break;
    if (t.find('=') == std::string::npos &&
        std::find(kGlobalValue.begin(), kGlobalValue.end(), t) != kGlobalValue.end()) {
      i += 2;
    } else {
      i += 1;
    }
  }
  return i;
}

ParsedRun parse_run_args(const std::vector<Word>& argv, std::size_t i, bool options_only) {
  ParsedRun out;
  bool after_unknown_flag = false;
  while (i < argv.size()) {
    const Word& w = argv[i];
    const std::string& t = w.text;
    if (t == "--") {
      // End of options: the next word is the image even when it starts with a dash.
      ++i;
      if (!options_only && i < argv.size()) {
        out.has_image = true;
        out.image = argv[i++];
        out.image_uncertain = after_unknown_flag;
      }
      break;
    }
    if (t.size() >= 3 && t[0] == '-' && t[1] == '-') {
      ParsedOption o;
      o.flag = w;
      std::string body = t.substr(2);
      std::size_t eq = body.find('=');
      std::string name = canonical(eq == std::string::npos ? body : body.substr(0, eq));
      o.name = name;
      o.known = option_is_known(name);
      if (eq != std::string::npos) {
        o.value = sub_word(w, 2 + eq + 1);  // `body` is the text after `--`
        o.has_value = true;
      } else if (option_takes_value(name) && i + 1 < argv.size()) {
        o.value = argv[++i];
        o.has_value = true;
      }
      if (!o.known && eq == std::string::npos) after_unknown_flag = true;
      out.options.push_back(std::move(o));
      ++i;
      continue;
    }
    if (t.size() >= 2 && t[0] == '-') {
      // One word may hold several short flags (-it, -dit) and end with a valued one (-p8080).
      for (std::size_t k = 1; k < t.size(); ++k) {
        auto s =
            std::find_if(kShort.begin(), kShort.end(), [&](const Short& x) { return x.c == t[k]; });
        ParsedOption o;
        o.flag = w;
        if (s == kShort.end()) {
          o.name = std::string(1, t[k]);
          o.known = false;
          out.options.push_back(std::move(o));
          continue;
        }
        o.name = std::string(s->long_name);
        if (option_takes_value(o.name)) {
          if (k + 1 < t.size()) {
            o.value = sub_word(w, t[k + 1] == '=' ? k + 2 : k + 1);  // `-p=8080`, `-p8080`
            o.has_value = true;
          } else if (i + 1 < argv.size()) {
            o.value = argv[++i];
            o.has_value = true;
          }
          out.options.push_back(std::move(o));
          break;
        }
        out.options.push_back(std::move(o));
      }
      ++i;
      continue;
    }
    if (options_only) {
      ParsedOption o;
      o.flag = w;
      o.name = w.text;
      o.known = false;
      out.options.push_back(std::move(o));
      ++i;
      continue;
    }
    if (open_word_is_options(argv, i)) {
      // Kept in its place as an unknown option (SB0013); the options after it are still read.
      ParsedOption o;
      o.flag = w;
      o.name = w.origin.empty() ? w.text : w.origin;
      o.known = false;
      out.options.push_back(std::move(o));
      out.open_before_image = true;
      ++i;
      continue;
    }
    out.has_image = true;
    out.image = w;
    out.image_uncertain = after_unknown_flag;
    ++i;
    break;
  }
  for (; i < argv.size(); ++i) {
    if (options_only) {
      ParsedOption o;
      o.flag = argv[i];
      o.name = argv[i].text;
      o.known = false;
      out.options.push_back(std::move(o));
    } else {
      out.command.push_back(argv[i]);
    }
  }
  return out;
}

}  // namespace sbr::launch
