// nft's command language: `table`/`chain`/`set` blocks, `add|insert|create|delete|flush`
// commands and `define`. Applied in order to a copy of the ruleset and committed only when the
// whole input parses, because `nft -f` loads a file atomically.
#include "analyzer/frontends/gates/nft_parser.h"

#include <algorithm>

namespace sbr::gates {

bool is_nft_family(const std::string& w, Family* f) {
  static const std::map<std::string, Family> m = {
      {"ip", Family::Ip},   {"ip6", Family::Ip6},       {"inet", Family::Inet},
      {"arp", Family::Arp}, {"bridge", Family::Bridge}, {"netdev", Family::Netdev}};
  auto it = m.find(w);
  if (it == m.end()) return false;
  if (f != nullptr) *f = it->second;
  return true;
}

namespace {

class Parser {
 public:
  Parser(const std::vector<Token>& t, Ruleset rs) : t_(t), rs_(std::move(rs)) {}

  bool run() {
    while (ok() && i_ < t_.size()) {
      skip_separators();
      if (i_ >= t_.size()) break;
      command();
    }
    return ok();
  }
  Ruleset& result() { return rs_; }
  const std::string& error() const { return error_; }
  Location error_at() const { return error_at_; }

 private:
  bool ok() const { return error_.empty(); }
  void fail(const std::string& msg, size_t at) {
    if (!ok()) return;
    error_ = msg;
    const Token& tok = t_[std::min(at, t_.size() - 1)];
    error_at_ = tok.from.at;
  }
  bool sep(size_t k) const {
    return k < t_.size() && (t_[k].kind == TokKind::Newline || t_[k].kind == TokKind::Semi);
  }
  bool is(size_t k, TokKind kind) const { return k < t_.size() && t_[k].kind == kind; }
  std::string word(size_t k) const {
    return k < t_.size() && (t_[k].kind == TokKind::Word || t_[k].kind == TokKind::String)
               ? t_[k].text
               : "";
  }
  void skip_separators() {
    while (sep(i_)) ++i_;
  }
  // End of the statement starting at i_: a separator or an unmatched `}` at depth 0.
  size_t statement_end() const {
    int depth = 0;
    size_t k = i_;
    for (; k < t_.size(); ++k) {
      if (t_[k].kind == TokKind::LBrace) ++depth;
      if (t_[k].kind == TokKind::RBrace) {
        if (depth == 0) break;
        --depth;
      }
      if (depth == 0 && sep(k)) break;
    }
    return k;
  }
  void skip_statement() { i_ = statement_end(); }
  void skip_block() {  // at '{'
    int depth = 0;
    for (; i_ < t_.size(); ++i_) {
      if (t_[i_].kind == TokKind::LBrace) ++depth;
      if (t_[i_].kind == TokKind::RBrace && --depth == 0) {
        ++i_;
        return;
      }
    }
    fail("unbalanced `{`", t_.size() - 1);
  }
  bool expect_close() {
    if (!is(i_, TokKind::RBrace)) {
      fail("expected `}`", i_);
      return false;
    }
    ++i_;
    return true;
  }

  // [family] name...: the family is optional and defaults to ip, as in nft.
  Family family() {
    Family f = Family::Ip;
    if (is_nft_family(word(i_), &f) && is(i_ + 1, TokKind::Word)) {
      ++i_;
      return f;
    }
    return Family::Ip;
  }
  std::string name(const char* what) {
    if (!is(i_, TokKind::Word) && !is(i_, TokKind::String)) {
      fail(std::string("expected a ") + what + " name", i_);
      return "";
    }
    return t_[i_++].text;
  }
  Table* find_table(Family f, const std::string& n, size_t at) {
    Table* tb = rs_.table(f, n);
    if (tb == nullptr) fail("no such table: " + n, at);
    return tb;
  }
  Chain* find_chain(Table* tb, const std::string& n, size_t at) {
    if (tb == nullptr) return nullptr;
    Chain* c = tb->chain(n);
    if (c == nullptr) fail("no such chain: " + n, at);
    return c;
  }

  void command() {
    size_t start = i_;
    std::string verb = word(i_);
    if (verb == "add" || verb == "create" || verb == "insert" || verb == "delete" ||
        verb == "destroy" || verb == "flush" || verb == "replace" || verb == "reset") {
      ++i_;
    } else if (verb == "table" || verb == "chain" || verb == "set" || verb == "map" ||
               verb == "element") {
      verb = "add";
    } else if (verb == "define" || verb == "redefine") {
      define();
      return;
    } else if (verb == "include" || verb == "list" || verb == "monitor" || verb == "describe" ||
               verb == "undefine" || verb == "export" || verb == "import") {
      skip_statement();
      return;
    } else {
      fail("unknown command `" + (verb.empty() ? t_[i_].text : verb) + "`", i_);
      return;
    }
    std::string object = word(i_);
    ++i_;
    if (verb == "flush" && object == "ruleset") {
      rs_.tables.clear();
      rs_.ipsets.clear();
    } else if (object == "table") {
      table_cmd(verb, start);
    } else if (object == "chain") {
      chain_cmd(verb, start);
    } else if (object == "rule") {
      rule_cmd(verb, start);
    } else if (object == "set" || object == "map") {
      set_cmd(verb, start);
    } else if (object == "element") {
      element_cmd(verb, start);
    } else {
      --i_;
      skip_statement();  // flowtable, counter, quota...: nothing an egress verdict needs
    }
  }

  void define() {
    ++i_;
    std::string n = name("variable");
    if (word(i_) != "=") {
      fail("expected `=` in define", i_);
      return;
    }
    ++i_;
    size_t end = statement_end();
    std::string err;
    auto vals = parse_nft_values(t_, i_, end, defs_, err);
    if (!err.empty()) fail(err, i_);
    defs_[n] = vals;
    i_ = end;
  }

  void table_cmd(const std::string& verb, size_t start) {
    Family f = family();
    std::string n = name("table");
    if (!ok()) return;
    if (verb == "delete" || verb == "destroy") {
      rs_.remove_table(f, n);
      return;
    }
    Table* tb = rs_.table(f, n);
    if (verb == "flush") {
      if (tb != nullptr) {
        for (auto& c : tb->chains) c.rules.clear();
      }
      return;
    }
    if (tb == nullptr) {
      rs_.tables.push_back(Table{f, n, t_[start].from, {}, {}});
      tb = &rs_.tables.back();
    }
    if (is(i_, TokKind::LBrace)) table_body(*tb);
  }

  // Inside a `{ ... }` block: skips separators and says whether a statement follows. False at
  // the closing brace (consumed), after an earlier error, or at the end of input (an error).
  bool next_in_block(const std::string& what) {
    if (!ok()) return false;
    skip_separators();
    if (i_ >= t_.size()) {
      fail("unbalanced `{` in " + what, t_.size() - 1);
      return false;
    }
    if (is(i_, TokKind::RBrace)) {
      ++i_;
      return false;
    }
    return true;
  }

  void table_body(Table& tb) {
    ++i_;  // '{'
    while (next_in_block("table " + tb.name)) {
      std::string w = word(i_);
      size_t start = i_;
      if (w == "chain") {
        ++i_;
        Chain& c = ensure_chain(tb, name("chain"), start);
        if (is(i_, TokKind::LBrace)) chain_body(c);
      } else if (w == "set") {
        ++i_;
        NamedSet& s = tb.sets[name("set")];
        if (s.name.empty()) s.from = t_[start].from;
        s.name = word(start + 1);
        if (is(i_, TokKind::LBrace)) set_body(s);
      } else if (is(i_ + 2, TokKind::LBrace) || is(i_ + 1, TokKind::LBrace)) {
        while (!is(i_, TokKind::LBrace)) ++i_;
        skip_block();  // map, flowtable, counter, quota, ct helper...
      } else {
        skip_statement();
      }
    }
  }

  Chain& ensure_chain(Table& tb, const std::string& n, size_t start) {
    if (Chain* c = tb.chain(n)) return *c;
    Chain c;
    c.name = n;
    c.from = t_[start].from;
    tb.chains.push_back(std::move(c));
    return tb.chains.back();
  }

  void chain_body(Chain& c) {
    ++i_;  // '{'
    while (next_in_block("chain " + c.name)) {
      size_t end = statement_end();
      std::string w = word(i_);
      if (w == "type") {
        c.type = word(i_ + 1);
        for (size_t k = i_; k + 1 < end; ++k) {
          if (word(k) == "hook") c.hook = word(k + 1);
        }
        if (c.hook.empty()) fail("chain type without a hook", i_);
      } else if (w == "policy") {
        std::string p = word(i_ + 1);
        if (p != "accept" && p != "drop") {
          fail("policy must be accept or drop", i_ + 1);
        } else {
          c.policy = p == "drop" ? Verdict::Drop : Verdict::Accept;
          c.policy_from = t_[i_].from;
        }
      } else if (w == "comment" || w == "devices" || w == "flags") {
        // nothing for egress
      } else {
        Rule r;
        std::string err;
        Location at;
        if (!parse_nft_rule(t_, i_, end, defs_, r, err, at)) {
          fail(err, i_);
          return;
        }
        c.rules.push_back(std::move(r));
      }
      i_ = end;
    }
  }

  void set_body(NamedSet& s) {
    ++i_;  // '{'
    while (next_in_block("set " + s.name)) {
      size_t end = statement_end();
      if (word(i_) == "elements" && word(i_ + 1) == "=") {
        i_ += 2;
        std::string err;
        auto vals = parse_nft_values(t_, i_, end, defs_, err);
        if (!err.empty()) fail(err, i_);
        s.elements.insert(s.elements.end(), vals.begin(), vals.end());
      }
      i_ = end;
    }
  }

  void chain_cmd(const std::string& verb, size_t start) {
    Family f = family();
    std::string tn = name("table");
    std::string cn = name("chain");
    if (!ok()) return;
    Table* tb = find_table(f, tn, start);
    if (tb == nullptr) return;
    if (verb == "delete" || verb == "destroy") {
      tb->chains.erase(std::remove_if(tb->chains.begin(), tb->chains.end(),
                                      [&](const Chain& c) { return c.name == cn; }),
                       tb->chains.end());
      return;
    }
    if (verb == "flush") {
      if (Chain* c = find_chain(tb, cn, start)) c->rules.clear();
      return;
    }
    Chain& c = ensure_chain(*tb, cn, start);
    if (is(i_, TokKind::LBrace)) chain_body(c);
  }

  void rule_cmd(const std::string& verb, size_t start) {
    Family f = family();
    std::string tn = name("table");
    std::string cn = name("chain");
    if (!ok()) return;
    Chain* c = find_chain(find_table(f, tn, start), cn, start);
    size_t end = statement_end();
    if (c == nullptr) return;
    if (verb != "add" && verb != "insert") {
      i_ = end;  // delete/replace by handle: handles are not known statically
      return;
    }
    size_t index = verb == "insert" ? 0 : c->rules.size();
    while (word(i_) == "position" || word(i_) == "handle" || word(i_) == "index") {
      if (word(i_) == "index") {
        size_t n = std::strtoul(word(i_ + 1).c_str(), nullptr, 10);
        index = std::min(verb == "insert" ? n : n + 1, c->rules.size());
      }
      i_ += 2;
    }
    Rule r;
    std::string err;
    Location at;
    if (!parse_nft_rule(t_, i_, end, defs_, r, err, at)) {
      fail(err, i_);
      return;
    }
    r.from = t_[start].from;
    c->rules.insert(c->rules.begin() + static_cast<std::ptrdiff_t>(index), std::move(r));
    i_ = end;
  }

  void set_cmd(const std::string& verb, size_t start) {
    Family f = family();
    std::string tn = name("table");
    std::string sn = name("set");
    if (!ok()) return;
    Table* tb = find_table(f, tn, start);
    if (tb == nullptr) return;
    if (verb == "delete" || verb == "destroy") {
      tb->sets.erase(sn);
    } else if (verb == "flush") {
      tb->sets[sn].elements.clear();
    } else {
      NamedSet& s = tb->sets[sn];
      if (s.name.empty()) {
        s.name = sn;
        s.from = t_[start].from;
      }
      if (is(i_, TokKind::LBrace)) set_body(s);
    }
  }

  void element_cmd(const std::string& verb, size_t start) {
    Family f = family();
    std::string tn = name("table");
    std::string sn = name("set");
    if (!ok()) return;
    Table* tb = find_table(f, tn, start);
    if (tb == nullptr) return;
    auto it = tb->sets.find(sn);
    if (it == tb->sets.end()) {
      fail("no such set: " + sn, start);
      return;
    }
    size_t end = statement_end();
    std::string err;
    auto vals = parse_nft_values(t_, i_, end, defs_, err);
    if (!err.empty()) {
      fail(err, i_);
      return;
    }
    auto& el = it->second.elements;
    if (verb == "delete" || verb == "destroy") {
      for (const auto& v : vals) {
        el.erase(
            std::remove_if(el.begin(), el.end(), [&](const Value& e) { return e.text == v.text; }),
            el.end());
      }
    } else {
      el.insert(el.end(), vals.begin(), vals.end());
    }
    i_ = end;
  }

  const std::vector<Token>& t_;
  Ruleset rs_;
  Defines defs_;
  size_t i_ = 0;
  std::string error_;
  Location error_at_;
};

}  // namespace

bool apply_nft(const std::vector<Token>& tokens, Ruleset& rs, std::vector<Problem>& problems) {
  if (tokens.empty()) return true;
  Parser p(tokens, rs);
  if (!p.run()) {
    problems.push_back({ProblemKind::ParseError, "nft: " + p.error(), p.error_at()});
    return false;
  }
  rs = std::move(p.result());
  return true;
}

}  // namespace sbr::gates
