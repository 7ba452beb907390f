// The flags that matter, per server: code-server `--auth none` and `--bind-addr` (default
// 127.0.0.1:8080); Jupyter an empty `--*App.token=` / `--IdentityProvider.token=` with no
// password, and `--ip` (default localhost); ttyd without `-c/--credential` (it listens on every
// interface unless `-i`).
#include "analyzer/engine/servers.h"

#include <string_view>

namespace sbr::engine {
namespace {

struct Token {
  std::string text;
  Provenance from;
};

std::string unquote(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '\'' && c != '"') out += c;
  return out;
}

// Command words split on blanks, so that `sh -c "code-server --auth none"` is seen word by word.
std::vector<Token> tokens(const Workload& w) {
  std::vector<Token> out;
  for (const auto& c : w.command) {
    std::string cur;
    for (char ch : c.value + " ") {
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' || ch == '&') {
        if (!cur.empty()) out.push_back({unquote(cur), c.from});
        cur.clear();
      } else {
        cur += ch;
      }
    }
  }
  return out;
}

std::string base(const std::string& s) {
  auto p = s.rfind('/');
  return p == std::string::npos ? s : s.substr(p + 1);
}

// `--name=value` or `--name value`: the value, or nullopt when the option is absent.
std::optional<std::string> option(const std::vector<Token>& t, std::size_t from, std::size_t to,
                                  std::string_view name) {
  for (std::size_t i = from; i < to; ++i) {
    const std::string& x = t[i].text;
    if (x == name) return i + 1 < to ? t[i + 1].text : "";
    if (x.size() > name.size() && x.compare(0, name.size(), name) == 0 && x[name.size()] == '=')
      return x.substr(name.size() + 1);
  }
  return std::nullopt;
}

bool loopback_host(std::string h) {
  if (!h.empty() && h.front() == '[') h = h.substr(1, h.find(']') - 1);
  return h.rfind("127.", 0) == 0 || h == "localhost" || h == "::1";
}

// "0.0.0.0:8080" -> host "0.0.0.0", port "8080".
void split_addr(const std::string& a, std::string& host, std::string& port) {
  auto c = a.rfind(':');
  bool bracketed = !a.empty() && a.front() == '[';
  if (c == std::string::npos || (bracketed && c < a.find(']'))) {
    host = a;
    return;
  }
  host = a.substr(0, c);
  port = a.substr(c + 1);
}

void code_server(const std::vector<Token>& t, std::size_t i, std::size_t end, ServerStart& s) {
  auto auth = option(t, i, end, "--auth");
  s.unauthenticated = auth && *auth == "none";
  s.how = "--auth none";
  std::string host = "127.0.0.1", port = "8080";
  if (auto b = option(t, i, end, "--bind-addr")) split_addr(*b, host, port);
  s.all_interfaces = !loopback_host(host);
  s.port = port;
}

void jupyter(const std::vector<Token>& t, std::size_t i, std::size_t end, ServerStart& s) {
  bool empty_token = false;
  for (const char* o : {"--NotebookApp.token", "--ServerApp.token", "--IdentityProvider.token"}) {
    if (auto v = option(t, i, end, o); v && v->empty()) {
      empty_token = true;
      s.how = std::string(o) + "=''";
    }
  }
  bool password = false;
  for (const char* o : {"--NotebookApp.password", "--ServerApp.password",
                        "--PasswordIdentityProvider.hashed_password"}) {
    if (auto v = option(t, i, end, o); v && !v->empty()) password = true;
  }
  s.unauthenticated = empty_token && !password;
  std::string ip = "localhost";
  for (const char* o : {"--ip", "--NotebookApp.ip", "--ServerApp.ip"})
    if (auto v = option(t, i, end, o)) ip = *v;
  s.all_interfaces = !loopback_host(ip);
  s.port = option(t, i, end, "--port").value_or("8888");
}

void ttyd(const std::vector<Token>& t, std::size_t i, std::size_t end, ServerStart& s) {
  s.unauthenticated = !option(t, i, end, "-c") && !option(t, i, end, "--credential");
  s.how = "no -c/--credential";
  auto iface = option(t, i, end, "-i");
  if (!iface) iface = option(t, i, end, "--interface");
  s.all_interfaces = !iface || !(*iface == "lo" || loopback_host(*iface));
  s.port = option(t, i, end, "-p").value_or(option(t, i, end, "--port").value_or("7681"));
}

// The server a word starts: "code-server", "jupyter", "ttyd", or "".
std::string server_at(const std::vector<Token>& t, std::size_t i) {
  std::string b = base(t[i].text);
  if (b == "code-server" || b == "ttyd") return b;
  bool sub = i + 1 < t.size() &&
             (t[i + 1].text == "notebook" || t[i + 1].text == "lab" || t[i + 1].text == "server");
  if ((b == "jupyter" && sub) || b == "jupyter-lab" || b == "jupyter-notebook" ||
      b == "start-notebook.sh" || b == "start-notebook.py" || b == "start-singleuser.sh")
    return "jupyter";
  return "";
}

// The image's own entrypoint when the command holds only its arguments (a Kubernetes `args:`
// with no `command:`): the code-server image runs code-server.
std::string entrypoint_server(const Workload& w, const std::vector<Token>& t) {
  if (t.empty() || t[0].text.empty() || t[0].text[0] != '-') return "";
  std::string repo = w.image.substr(0, w.image.find('@'));
  if (auto c = repo.rfind(':'); c != std::string::npos && repo.find('/', c) == std::string::npos)
    repo.resize(c);
  std::string b = base(repo);
  return b == "code-server" || b == "ttyd" ? b : "";
}

}  // namespace

std::vector<ServerStart> servers_started(const Workload& w) {
  std::vector<ServerStart> out;
  std::vector<Token> t = tokens(w);
  auto add = [&](const std::string& name, std::size_t at, std::size_t options_from) {
    ServerStart s;
    s.from = t[at].from;
    s.name = name;
    if (name == "code-server") code_server(t, options_from, t.size(), s);
    if (name == "jupyter") jupyter(t, options_from, t.size(), s);
    if (name == "ttyd") ttyd(t, options_from, t.size(), s);
    out.push_back(std::move(s));
  };
  if (std::string implicit = entrypoint_server(w, t); !implicit.empty()) add(implicit, 0, 0);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (std::string name = server_at(t, i); !name.empty()) add(name, i, i + 1);
  }
  return out;
}

}  // namespace sbr::engine
