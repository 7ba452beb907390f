// Sprig's urlParse and urlJoin over Go's net/url: Parse splits scheme, opaque part, authority
// (userinfo, host), path, query and fragment and unescapes them; URL.String escapes them back.
// IPv6 zone identifiers are not checked beyond their brackets and port.
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

enum class UrlPart { Path, Host, UserPassword, Fragment };

struct UrlError : std::runtime_error {
  using std::runtime_error::runtime_error;
  bool whole_text = false;  // url.Error names the whole text (a fragment's error)
};

// Go's strconv.Quote for the short ASCII texts url errors quote.
std::string url_quote(std::string_view s) {
  return go_sprintf("%q", {Value::string(std::string(s))}, 0);
}

bool url_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int url_unhex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return (c | 0x20) - 'a' + 10;
}

// net/url's shouldEscape for the parts sprig's functions touch.
bool url_should_escape(unsigned char c, UrlPart part) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return false;
  if (part == UrlPart::Host &&
      std::string_view("!$&'()*+,;=:[]<>\"").find(static_cast<char>(c)) != std::string_view::npos)
    return false;
  if (c == '-' || c == '_' || c == '.' || c == '~') return false;
  if (std::string_view("$&+,/:;=?@").find(static_cast<char>(c)) != std::string_view::npos) {
    switch (part) {
      case UrlPart::Path:
        return c == '?';
      case UrlPart::UserPassword:
        return c == '@' || c == '/' || c == '?' || c == ':';
      case UrlPart::Fragment:
        return false;
      case UrlPart::Host:
        break;
    }
  }
  if (part == UrlPart::Fragment && (c == '!' || c == '(' || c == ')' || c == '*')) return false;
  return true;
}

std::string url_escape(std::string_view s, UrlPart part) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (!url_should_escape(c, part)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// net/url's unescape: %XX decoded; a host takes %-escapes only for non-ASCII bytes (and %25),
// and no byte that would need escaping.
std::string url_unescape(std::string_view s, UrlPart part) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '%') {
      if (i + 2 >= s.size() || !url_hex(s[i + 1]) || !url_hex(s[i + 2]))
        throw UrlError("invalid URL escape " + url_quote(s.substr(i, 3)));
      if (part == UrlPart::Host && url_unhex(s[i + 1]) < 8 && s.substr(i, 3) != "%25")
        throw UrlError("invalid URL escape " + url_quote(s.substr(i, 3)));
      out += static_cast<char>(url_unhex(s[i + 1]) * 16 + url_unhex(s[i + 2]));
      i += 3;
      continue;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (part == UrlPart::Host && c < 0x80 && url_should_escape(c, part))
      throw UrlError("invalid character " + url_quote(s.substr(i, 1)) + " in host name");
    out += s[i++];
  }
  return out;
}

bool valid_port(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  return port.substr(1).find_first_not_of("0123456789") == std::string_view::npos;
}

std::string parse_host(std::string_view host) {
  std::size_t colon = std::string_view::npos;
  if (!host.empty() && host[0] == '[') {
    const std::size_t close = host.rfind(']');
    if (close == std::string_view::npos) throw UrlError("missing ']' in host");
    colon = close + 1;
  } else {
    colon = host.rfind(':');
  }
  if (colon != std::string_view::npos && colon <= host.size() && !valid_port(host.substr(colon)))
    throw UrlError("invalid port " + url_quote(host.substr(colon)) + " after host");
  return url_unescape(host, UrlPart::Host);
}

struct ParsedUrl {
  std::string scheme, opaque, host, path, query, fragment, userinfo;
};

ParsedUrl parse_url(std::string_view raw) {
  ParsedUrl u;
  const std::size_t hash = raw.find('#');
  std::string_view rest = raw.substr(0, hash);
  for (unsigned char c : rest) {
    if (c < 0x20 || c == 0x7f) throw UrlError("net/url: invalid control character in URL");
  }
  if (rest == "*") {
    u.path = "*";
  } else {
    // The scheme: letters, then letters, digits, + - or ., before the first colon.
    for (std::size_t i = 0; i < rest.size(); ++i) {
      const char c = rest[i];
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
      if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
        if (i == 0) break;
        continue;
      }
      if (c == ':') {
        if (i == 0) throw UrlError("missing protocol scheme");
        for (char s : rest.substr(0, i)) u.scheme += static_cast<char>(std::tolower(s));
        rest.remove_prefix(i + 1);
      }
      break;
    }
    if (!rest.empty() && rest.back() == '?' && rest.find('?') == rest.size() - 1) {
      rest.remove_suffix(1);
    } else if (std::size_t q = rest.find('?'); q != std::string_view::npos) {
      u.query = std::string(rest.substr(q + 1));
      rest = rest.substr(0, q);
    }
    if (rest.empty() || rest[0] != '/') {
      if (!u.scheme.empty()) {
        u.opaque = std::string(rest);
        rest = {};
      } else if (rest.substr(0, rest.find('/')).find(':') != std::string_view::npos) {
        throw UrlError("first path segment in URL cannot contain colon");
      }
    }
    if (u.opaque.empty() && rest.substr(0, 2) == "//" &&
        (!u.scheme.empty() || rest.substr(0, 3) != "///")) {
      std::string_view authority = rest.substr(2);
      rest = {};
      if (std::size_t slash = authority.find('/'); slash != std::string_view::npos) {
        rest = authority.substr(slash);
        authority = authority.substr(0, slash);
      }
      const std::size_t at = authority.rfind('@');
      u.host = parse_host(at == std::string_view::npos ? authority : authority.substr(at + 1));
      if (at != std::string_view::npos) {
        // Userinfo.String(): the name and password unescaped, then escaped back.
        std::string_view info = authority.substr(0, at);
        if (info.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                   "-._:~!$&'()*+,;=%@") != std::string_view::npos)
          throw UrlError("net/url: invalid userinfo");
        const std::size_t colon = info.find(':');
        u.userinfo = url_escape(url_unescape(info.substr(0, colon), UrlPart::UserPassword),
                                UrlPart::UserPassword);
        if (colon != std::string_view::npos) {
          u.userinfo +=
              ":" + url_escape(url_unescape(info.substr(colon + 1), UrlPart::UserPassword),
                               UrlPart::UserPassword);
        }
      }
    }
    if (u.opaque.empty()) u.path = url_unescape(rest, UrlPart::Path);
  }
  if (hash != std::string_view::npos) {
    try {
      u.fragment = url_unescape(raw.substr(hash + 1), UrlPart::Fragment);
    } catch (UrlError& e) {
      e.whole_text = true;
      throw;
    }
  }
  return u;
}

Value fn_url_parse(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "urlParse", at);
  const std::string raw = text_of(a[0]);
  ParsedUrl u;
  try {
    u = parse_url(raw);
  } catch (const UrlError& e) {
    const std::string named = e.whole_text ? raw : raw.substr(0, raw.find('#'));
    throw RenderError(fmt::format("error calling urlParse: unable to parse url: parse {}: {}",
                                  url_quote(named), e.what()),
                      at);
  }
  // URL.Hostname(): the host without a valid port, then without IPv6 brackets.
  std::string hostname = u.host;
  if (std::size_t colon = hostname.rfind(':');
      colon != std::string::npos && valid_port(std::string_view(hostname).substr(colon)))
    hostname.resize(colon);
  if (hostname.size() >= 2 && hostname.front() == '[' && hostname.back() == ']')
    hostname = hostname.substr(1, hostname.size() - 2);
  return Value::new_map({{"scheme", Value::string(u.scheme)},
                         {"host", Value::string(u.host)},
                         {"hostname", Value::string(hostname)},
                         {"path", Value::string(u.path)},
                         {"query", Value::string(u.query)},
                         {"opaque", Value::string(u.opaque)},
                         {"fragment", Value::string(u.fragment)},
                         {"userinfo", Value::string(u.userinfo)}});
}

// sprig's dictGetOrEmpty: a missing key is "", any value but a string stops the template.
std::string url_key(const Map& d, const char* key, const Location& at) {
  auto f = d.find(key);
  if (f == d.end()) return "";
  if (!f->second.is_string()) {
    static const std::map<Kind, const char*> kKinds = {
        {Kind::Nil, "invalid"},   {Kind::Bool, "bool"},  {Kind::Int, "int"},
        {Kind::Float, "float64"}, {Kind::List, "slice"}, {Kind::Map, "map"},
        {Kind::Method, "func"}};
    throw RenderError(fmt::format("error calling urlJoin: unable to parse {} key, must be of type "
                                  "string, but {} found",
                                  key, kKinds.at(f->second.kind)),
                      at);
  }
  return f->second.s;
}

Value fn_url_join(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "urlJoin", at);
  static const Map kEmpty;
  const Map& d = a[0].is_map() ? *a[0].map : kEmpty;
  const std::string scheme = url_key(d, "scheme", at), host = url_key(d, "host", at),
                    path = url_key(d, "path", at), query = url_key(d, "query", at),
                    opaque = url_key(d, "opaque", at), fragment = url_key(d, "fragment", at);
  std::string user = url_key(d, "userinfo", at);
  if (!user.empty()) {
    try {
      user = parse_url("proto://" + user + "@host").userinfo;
    } catch (const UrlError& e) {
      throw RenderError(fmt::format("error calling urlJoin: unable to parse userinfo in dict: "
                                    "parse {}: {}",
                                    url_quote("proto://" + user + "@host"), e.what()),
                        at);
    }
  }
  // URL.String().
  std::string out;
  if (!scheme.empty()) out += scheme + ":";
  if (!opaque.empty()) {
    out += opaque;
  } else {
    if (!scheme.empty() || !host.empty() || !user.empty()) {
      if (!host.empty() || !path.empty() || !user.empty()) out += "//";
      if (!user.empty()) out += user + "@";
      out += url_escape(host, UrlPart::Host);
    }
    const std::string escaped = url_escape(path, UrlPart::Path);
    if (!escaped.empty() && escaped[0] != '/' && !host.empty()) out += '/';
    if (out.empty() && escaped.substr(0, escaped.find('/')).find(':') != std::string::npos)
      out += "./";
    out += escaped;
  }
  if (!query.empty()) out += "?" + query;
  if (!fragment.empty()) out += "#" + url_escape(fragment, UrlPart::Fragment);
  return Value::string(out);
}

}  // namespace

void add_url_functions(FunctionTable& t) {
  t["urlParse"] = fn_url_parse;
  t["urlJoin"] = fn_url_join;
}

}  // namespace sbr::render::helm
