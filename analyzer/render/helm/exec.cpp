#include "analyzer/render/helm/exec.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/placeholders.h"

namespace sbr::render::helm {

namespace {

// Restores the variable stack when a control structure or template call ends.
template <typename Vars>
struct ScopeGuard {
  Vars& vars;
  std::size_t mark;
  ~ScopeGuard() { vars.resize(mark); }
};
template <typename Vars>
ScopeGuard(Vars&, std::size_t) -> ScopeGuard<Vars>;  // clang 14 deduces no aggregate

// Sprig's functions that change a map in place: every holder of it sees the change.
bool mutates_maps(const std::string& name) {
  return name == "set" || name == "unset" || name == "merge" || name == "mergeOverwrite" ||
         name == "mustMerge" || name == "mustMergeOverwrite";
}

}  // namespace

void append_value(Output& out, const Value& v, const Location& at) {
  std::size_t start = out.text.size();
  out.spans.push_back({start, at, v.from, v.path});
  std::string printed = print_value(v);
  out.text += printed;
  if (!v.lines || !v.is_string()) return;
  // Line k of the string starts after its k-th newline.
  std::uint32_t line = 0;
  std::size_t k = 0;
  for (const LineOrigin& lo : *v.lines) {
    while (line < lo.line && k < printed.size()) {
      if (printed[k++] == '\n') ++line;
    }
    if (line != lo.line || (k >= printed.size() && line > 0)) break;
    out.spans.push_back({start + k, lo.at.valid() ? lo.at : at, lo.values, lo.note});
  }
}

Value output_value(const Output& out) {
  Value v = Value::string(out.text);
  auto lines = std::make_shared<LineOrigins>();
  std::size_t s = 0;
  std::uint32_t line = 0;
  Span current;
  bool have = false;
  for (std::size_t k = 0; k <= out.text.size(); ++k) {
    bool line_start = k == 0 || out.text[k - 1] == '\n';
    if (line_start && k > 0) ++line;
    if (line_start && k < out.text.size() && have)
      lines->push_back({line, current.at, current.values, current.note});
    while (s < out.spans.size() && out.spans[s].offset == k) {
      current = out.spans[s++];
      have = true;
      if (k >= out.text.size()) break;
      LineOrigin lo{line, current.at, current.values, current.note};
      if (!lines->empty() && lines->back().line == line) {
        // Within a line, the span that came from values tells the reader most.
        if (!lines->back().values.valid() || line_start) lines->back() = lo;
      } else {
        lines->push_back(lo);
      }
    }
  }
  if (!lines->empty()) v.lines = lines;
  // A one-line string whose only span came from values keeps that origin as its own.
  if (lines->size() == 1 && lines->front().values.valid()) {
    v.from = lines->front().values;
    v.path = lines->front().note;
  }
  return v;
}

void Exec::run(const NodeList& nodes, const Value& dot, Output& out) {
  Output* saved = out_;
  out_ = &out;
  if (vars_.empty()) vars_.push_back({"$", root_, {}});
  list(nodes, dot);
  out_ = saved;
}

Exec::Flow Exec::list(const NodeList& nodes, const Value& dot) {
  if (nesting_ >= kMaxBodyNesting) {
    throw RenderError(fmt::format("template bodies (if, range, with, include) nested more than {} "
                                  "levels deep, as a define that includes itself makes them: "
                                  "sbreview stops there",
                                  kMaxBodyNesting),
                      nodes.empty() ? Location{} : nodes.front().at);
  }
  struct Level {
    int& n;
    explicit Level(int& c) : n(c) { ++n; }
    ~Level() { --n; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;
  } level(nesting_);
  for (const Node& n : nodes) {
    Flow f = node(n, dot);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

void Exec::text(const Node& n) {
  // Each line of template text maps to its own template line.
  std::uint32_t line = n.at.line;
  out_->spans.push_back({out_->text.size(), n.at, {}, {}});
  std::size_t k = 0;
  for (std::size_t nl; (nl = n.text.find('\n', k)) != std::string::npos && nl + 1 < n.text.size();
       k = nl + 1) {
    out_->text.append(n.text, k, nl + 1 - k);
    out_->spans.push_back({out_->text.size(), Location{n.at.file, ++line, 1}, {}, {}});
  }
  out_->text.append(n.text, k, std::string::npos);
  check_output(n.at);
}

Exec::Flow Exec::node(const Node& n, const Value& dot) {
  step(n.at);
  ScopeGuard scope{vars_, vars_.size()};
  switch (n.type) {
    case Node::Type::Text:
      text(n);
      return Flow::Normal;
    case Node::Type::Action: {
      Value v = pipeline(*n.pipe, dot);
      if (n.pipe->decls.empty()) emit(v, n.at);
      scope.mark = vars_.size();  // a declaration lives to the end of the enclosing list
      return Flow::Normal;
    }
    case Node::Type::If:
    case Node::Type::With:
      return guard(n, dot);
    case Node::Type::Range:
      return range(n, dot);
    case Node::Type::Template: {
      Value arg_dot = n.pipe ? pipeline(*n.pipe, dot) : Value{};
      Output sub = call_named(n.text, arg_dot, n.at);
      append_value(*out_, output_value(sub), n.at);
      return Flow::Normal;
    }
    case Node::Type::Break:
      return Flow::Break;
    case Node::Type::Continue:
      return Flow::Continue;
  }
  return Flow::Normal;
}

Exec::Flow Exec::range_item(const Node& n, const Value& key, const Value& item) {
  ScopeGuard scope{vars_, vars_.size()};
  const auto& decls = n.pipe->decls;
  if (decls.size() == 1) vars_.push_back({decls[0], item, {}});
  if (decls.size() == 2) {
    vars_.push_back({decls[0], key, {}});
    vars_.push_back({decls[1], item, {}});
  }
  Flow f = list(*n.body, item);
  return f;
}

Exec::Flow Exec::range(const Node& n, const Value& dot) {
  Pipeline p = *n.pipe;
  p.decls.clear();
  Value v = pipeline(p, dot);
  bool any = false;
  auto body = [&](const Value& key, const Value& item) {
    any = true;
    step(n.at);
    return range_item(n, key, item) == Flow::Break;
  };
  if (v.is_list()) {
    std::shared_ptr<List> items = v.list;  // the body may change the list it ranges over
    for (std::size_t k = 0; k < items->size(); ++k) {
      if (body(Value::integer(static_cast<std::int64_t>(k)), (*items)[k])) break;
    }
  } else if (v.is_map()) {
    // Go ranges over the keys as sorted before the first iteration, looking each one up as it
    // comes: the body may `set` or `unset` entries of the map it ranges over (a real chart does),
    // which must neither crash nor change the order.
    std::shared_ptr<Map> items = v.map;
    std::vector<std::string> keys;
    keys.reserve(items->size());
    for (const auto& entry : *items) {
      if (entry.second.kind != Kind::Method) keys.push_back(entry.first);  // .Files' methods
    }
    for (const std::string& key : keys) {
      auto it = items->find(key);
      Value item = it == items->end() ? Value() : it->second;  // a copy: the body may erase it
      if (body(Value::string(key), item)) break;
    }
  } else if (v.kind == Kind::Int) {
    for (std::int64_t k = 0; k < v.i; ++k) {
      if (body(Value::integer(k), Value::integer(k))) break;
    }
  } else if (!v.is_nil()) {
    throw RenderError("range can't iterate over " + print_value(v), n.at);
  }
  if (!any && n.otherwise) list(*n.otherwise, dot);
  return Flow::Normal;
}

void Exec::emit(const Value& v, const Location& at) {
  if (v.kind == Kind::Method) throw RenderError("can't print a function value", at);
  append_value(*out_, v, at);
  check_output(at);
}

void Exec::declare(const Pipeline& p, const Value& v,
                   const std::vector<std::string>& placeholders) {
  for (const std::string& name : p.decls) {
    if (!p.assign) {
      vars_.push_back({name, v, placeholders});
      continue;
    }
    for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
      if (it->name == name) {
        it->value = v;
        it->placeholders = placeholders;
        return;
      }
    }
    throw RenderError("undefined variable: " + name, p.at);
  }
}

Value Exec::pipeline(const Pipeline& p, const Value& dot) {
  auto commands = [&] {
    Value v;
    bool first = true;
    for (const Command& c : p.commands) {
      v = command(c, dot, first ? nullptr : &v);
      first = false;
    }
    return v;
  };
  if (p.decls.empty()) return commands();
  PlaceholderScope placeholders(*this);
  Value v = commands();
  declare(p, v, placeholders.read());
  return v;
}

Value Exec::variable(const std::string& name, const Location& at) {
  for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
    if (it->name != name) continue;
    if (placeholders_) {
      for (const std::string& p : it->placeholders) note_placeholder(p);
    }
    return it->value;
  }
  throw RenderError("undefined variable: " + name, at);
}

Value Exec::fields(Value v, const std::vector<std::string>& names, std::vector<Value>* args,
                   const Location& at) {
  bool stand_in = false;  // the chain went through values an unvendored dependency provides
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    bool last = k + 1 == names.size();
    if (v.is_nil() && stand_in) {
      note_stand_in(names, k, at);
      return Value{};
    }
    if (v.is_nil()) throw RenderError("nil pointer evaluating interface {}." + name, at);
    const bool from_stand_in = is_stand_in(v);
    stand_in = stand_in || from_stand_in;
    if (!v.is_map())
      throw RenderError(fmt::format("can't evaluate field {} in type {}", name, type_name(v)), at);
    Value next = member(v, name);
    if (from_stand_in && next.is_nil() && stand_ins_ != nullptr) {
      std::string path;
      for (std::size_t j = 0; j <= k; ++j) path += "." + names[j];
      missing_key_ = StandInRead{at, path};
    }
    if (placeholders_ && v.map.get() == release_ && is_upgrade_placeholder(name))
      note_placeholder("Release." + name);
    if (next.kind == Kind::Method) {
      std::vector<Value> none;
      next = (*next.method)(last && args ? *args : none);
      if (last && args) args->clear();
    }
    v = std::move(next);
  }
  if (args && !args->empty())
    throw RenderError(fmt::format("{} is not a method but has arguments", names.back()), at);
  if (reads_) note_read(v);
  return v;
}

// `(.Values.x.y).z`, `$v.z`: a pipeline's or a variable's nil is no value at all to Go (its
// evalPipeline turns a nil interface into an invalid value), and fields of it are empty, where
// `.Values.x.y.z` stops with "nil pointer evaluating". The nil-guard parentheses idiom
// (`(.Values.resources.limits).cpu`) relies on it.
Value Exec::fields_of_result(Value v, const Arg& a) {
  if (v.is_nil() && !a.fields.empty()) return Value{};
  return fields(std::move(v), a.fields, nullptr, a.at);
}

void Exec::note_stand_in(const std::vector<std::string>& names, std::size_t upto,
                         const Location& at) {
  if (!stand_in_read_ || *stand_in_read_) return;
  std::string path;
  for (std::size_t k = 0; k <= upto; ++k) path += "." + names[k];
  *stand_in_read_ = StandInRead{at, path};
}

// A field of a map: its type's method of that name, else its key (Go's evalField order).
Value Exec::member(const Value& m, const std::string& name) {
  if (m.methods) {
    auto method = m.methods->find(name);
    if (method != m.methods->end()) return method->second;
  }
  auto found = m.map->find(name);
  return found == m.map->end() ? Value{} : found->second;
}

bool Exec::is_stand_in(const Value& v) const {
  return stand_ins_ && v.is_map() &&
         std::find(stand_ins_->begin(), stand_ins_->end(), v.map.get()) != stand_ins_->end();
}

void Exec::note_read(const Value& v) {
  if (v.is_map() && std::find(roots_->begin(), roots_->end(), v.map.get()) != roots_->end()) {
    if (reads_->empty() || !reads_->back().whole) reads_->push_back({{}, {}, true});
    return;
  }
  if (v.path.empty()) return;  // not from .Values: its operands were read on the way
  if (!reads_->empty() && reads_->back().path == v.path &&
      reads_->back().values.file == v.from.file)
    return;
  reads_->push_back({v.from, v.path, false});
}

Value Exec::arg(const Arg& a, const Value& dot) {
  switch (a.type) {
    case Arg::Type::Dot:
      return fields(dot, a.fields, nullptr, a.at);
    case Arg::Type::Field:
      return fields(dot, a.fields, nullptr, a.at);
    case Arg::Type::Variable:
      return fields_of_result(variable(a.name, a.at), a);
    case Arg::Type::Pipe:
      return fields_of_result(pipeline(*a.pipe, dot), a);
    case Arg::Type::Identifier: {
      Command c;
      c.args.push_back(a);
      c.at = a.at;
      return call(a.name, c, dot, nullptr);
    }
    case Arg::Type::Literal:
      return a.literal;
  }
  return {};
}

Value Exec::command(const Command& c, const Value& dot, const Value* piped) {
  const Arg& head = c.args.front();
  if (head.type == Arg::Type::Identifier) return call(head.name, c, dot, piped);
  if (c.args.size() == 1 && !piped) return arg(head, dot);
  // A method (.Files.Get "x") takes the operands after it, and a piped value last.
  std::vector<Value> args;
  for (std::size_t k = 1; k < c.args.size(); ++k) args.push_back(arg(c.args[k], dot));
  if (piped) args.push_back(*piped);
  Value base;
  std::vector<std::string> chain = head.fields;
  if (head.type == Arg::Type::Variable)
    base = variable(head.name, head.at);
  else if (head.type == Arg::Type::Pipe)
    base = pipeline(*head.pipe, dot);
  else if (head.type == Arg::Type::Literal)
    throw RenderError("can't give argument to non-function " + print_value(head.literal), c.at);
  else
    base = dot;
  if (chain.empty()) throw RenderError("can't give argument to non-function", c.at);
  return fields(base, chain, &args, c.at);
}

Value Exec::logic(const std::string& name, const Command& c, const Value& dot, const Value* piped) {
  std::size_t n = c.args.size() - 1 + (piped ? 1 : 0);
  if (n < 1)
    throw RenderError("wrong number of args for " + name + ": want at least 1 got 0", c.at);
  bool want = name == "or";
  Value v;
  for (std::size_t k = 1; k <= n; ++k) {
    if (k < c.args.size())
      v = arg(c.args[k], dot);
    else if (piped)
      v = *piped;
    if (truthy(v) == want) return v;
  }
  return v;
}

Value Exec::call(const std::string& name, const Command& c, const Value& dot, const Value* piped) {
  if (name == "and" || name == "or") return logic(name, c, dot, piped);
  const FunctionTable& table = functions();
  auto found = table.find(name);
  if (found == table.end())
    throw RenderError(fmt::format("function \"{}\" not defined (not supported by sbreview's "
                                  "chart engine)",
                                  name),
                      c.at);
  if (placeholders_ && is_placeholder_function(name)) note_placeholder(name);
  std::vector<Value> args;
  args.reserve(c.args.size());
  for (std::size_t k = 1; k < c.args.size(); ++k) {
    // ternary's condition decides between its operands as a guard decides between branches.
    bool condition = name == "ternary" && !piped && k + 1 == c.args.size();
    args.push_back(condition ? condition_arg(c.args[k], dot, c.at) : arg(c.args[k], dot));
  }
  if (piped) args.push_back(*piped);
  // Go's `call` names its callee as the template wrote it: the text goes first.
  if (name == "call" && !args.empty())
    args.insert(args.begin(),
                Value::string(c.args.size() > 1 ? operand_text(c.args[1]) : print_value(*piped)));
  if (reads_ && mutates_maps(name)) shared_ = true;
  Value r;
  try {
    r = found->second(*this, args, c.at);
  } catch (RenderError& e) {
    if (!e.at.valid()) e.at = c.at;  // a bound met deep inside a value: at the call
    throw;
  }
  charge_result(name, r, c.at);
  // `quote .Values.x`, `default "a" .Values.x`: the text still came from that values line.
  if (!r.lines && !r.is_map() && !r.is_list()) {
    for (auto it = args.rbegin(); it != args.rend() && !r.from.valid(); ++it)
      inherit_origin(r, *it);
  }
  return r;
}

}  // namespace sbr::render::helm
