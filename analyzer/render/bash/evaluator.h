// The bash partial evaluator (private to analyzer/render/bash). It walks the syntax tree once,
// in execution order, with a symbolic state: concrete values where the script fixes them,
// symbolic words (with their origin) where the environment, arguments, `read` or a command
// substitution decide. Branches on unknown values are both evaluated and their facts marked
// with the branch condition; their states are merged afterwards.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzer/render/bash/eval_state.h"
#include "analyzer/render/bash/render.h"
#include "analyzer/render/bash/syntax.h"
#include "analyzer/render/bash/value.h"

namespace sbr::bash {

Condition join(const Condition& outer, const Condition& inner);
std::string short_text(std::string_view s);
// A file test (`-S PATH`) in words: what it says when it holds and when it fails
// (condition_atoms.cpp).
std::pair<std::string, std::string> file_test_words(std::string_view op, const std::string& path);

// Word helpers shared by expansion and assignment (expand.cpp).
EWord literal(std::string text);
void concat_into(EWord& a, const EWord& b);
// `a` is computed from `b`: it takes b's taint (and secret) when it has none of its own.
void concat_taint(EWord& a, const EWord& b);

struct RenderAbort {
  Problem problem;
};

class Evaluator {
 public:
  Evaluator(const SourceFile& file, const SourceSet* sources, const RenderLimits& limits);
  ScriptRender run();

  // Pieces used across the evaluator's translation units.
  void statements(TSNode parent, Ctx& ctx);
  void statement(TSNode n, Ctx& ctx);
  void redirected_statement(TSNode n, Ctx& ctx);
  void list_statement(TSNode n, Ctx& ctx);
  void pipeline_statement(TSNode n, Ctx& ctx);
  void declaration(TSNode n, Ctx& ctx);
  void command(TSNode n, Ctx& ctx, const std::vector<TSNode>& redirects);
  // One simple command's words, expanded once (command_words.cpp).
  struct CommandWords {
    std::vector<TSNode> args;  // the argument nodes, for what a function call validates
    std::vector<Value> words;  // the name's words, then each argument's
    std::vector<EWord> env_prefix, stdin_words;
    // The heredoc or here-string on every path (its first alternative is stdin_words).
    Value stdin_value;
    // `NAME=value cmd`: each prefix's `NAME=value` word on every path, and the value a
    // function called here sees as NAME.
    std::vector<Value> env_values;
    std::vector<std::pair<std::string, Value>> env_vars;
    std::optional<std::string> ifs;  // an `IFS=...` prefix (set and empty: no splitting)
    std::string stdin_file;
    Provenance stdin_from;
    std::vector<std::pair<std::string, Location>> writes;  // files stdout writes
    std::vector<std::string> write_vars;                   // the variable naming each, or ""
    std::vector<bool> write_temp;                          // each a mktemp path
    std::vector<std::string> write_shown;  // each path as a message shows it (UnknownPart)
    bool stdout_redirected = false;  // to a file, /dev/null or stderr: not captured by `$(...)`
  };
  struct ArgvVariant {
    std::vector<EWord> argv;
    std::vector<EWord> env;  // the environment prefix's words on this path
    Condition cond;          // the path the values were chosen on (empty for the default values)
  };
  void read_known_line(const EWord& src, const std::vector<std::string>& names,
                       const std::optional<std::string>& ifs,
                       bool whole = false);  // read_builtin.cpp
  std::optional<CommandWords> command_words(TSNode n, Ctx& ctx,
                                            const std::vector<TSNode>& outer_redirects);
  void redirect_words(CommandWords& cw, std::vector<TSNode> redirects, Ctx& ctx);
  void prefix_assignment(CommandWords& cw, TSNode a, Ctx& ctx);
  Value joined_value(TSNode n, Ctx& ctx);  // one word on every path (an assignment's)
  std::vector<ArgvVariant> argv_variants(const CommandWords& cw, const Ctx& ctx) const;
  void record_stdin_variants(const ArgvVariant& def, const CommandWords& cw, const State& before,
                             std::size_t first, TSNode n, Ctx& ctx);
  // Runs one argument list: a function call, a builtin, or a recorded command (true).
  bool run_words(std::vector<EWord> argv, CommandWords cw, TSNode n, Ctx& ctx);
  // Its phases for an external command: the invocation recorded, the files it writes, and
  // the code of a `sh -c` run in place.
  void record_invocation(Invocation inv, const std::vector<EWord>& cmd, CommandWords& cw,
                         const std::string& bname, TSNode n, Ctx& ctx);
  void note_file_write(std::size_t k, const CommandWords& cw, const std::vector<EWord>& cmd,
                       const std::string& bname, const Ctx& ctx);
  void run_inline_script(const std::vector<EWord>& cmd, const std::string& bname, Ctx& ctx);
  void run_shell_text(const std::vector<EWord>& cmd, const std::string& bname, Ctx& ctx);
  const SyntaxTree* placed_tree(const std::string& text, Location at, unsigned column0);
  std::optional<Value> reparsed_word(TSNode n, Ctx& ctx, bool assignment);
  std::optional<Value> reparsed_text(const std::string& text, Location at, Ctx& ctx,
                                     bool assignment);
  Value expand_adjacent(const std::vector<TSNode>& nodes, std::size_t& i, Ctx& ctx);
  bool inline_run_allowed(Location at);
  void call_function(const std::string& name, const std::vector<EWord>& cmd,
                     const std::vector<TSNode>& args, std::pair<TSNode, const SyntaxTree*> fn,
                     TSNode n, Ctx& ctx);
  // Budgets of one path (path_budget.cpp): the path is cut and reported (SB0019), the rest of
  // the script goes on.
  void cut_path(const std::string& what, Location at, std::string topic = "");
  bool calls_function(const std::vector<EWord>& argv) const;
  void run_function_variants(std::vector<ArgvVariant>& variants, CommandWords& cw,
                             const State& before, TSNode n, Ctx& ctx);
  // Whether this run of command `bname` is recorded: false past max_runs_per_place runs from
  // one call site, and for a text tool past max_text_tool_invocations commands.
  bool record_run_here(const std::string& bname, TSNode n, const Ctx& ctx);
  // A builtin that changes the evaluator's state, as it is called (builtins.cpp).
  struct BuiltinCall {
    const std::vector<EWord>& cmd;
    TSNode n;
    Ctx& ctx;
    const std::vector<EWord>& stdin_words;
    const Value& stdin_value;
    const std::string& stdin_file;
    const std::optional<std::string>& ifs;
    // Each word's value on every path (the command's name first), for a builtin that can use
    // another path's word where the default one leads nowhere (`source`).
    const std::vector<Value>& words;
  };
  bool builtin(const std::string& bname, const BuiltinCall& call);  // builtins.cpp
  // One function per builtin, found through a table (builtins.cpp, read_builtin.cpp).
  void builtin_set(const BuiltinCall& c);
  void builtin_umask(const BuiltinCall& c);
  void builtin_trap(const BuiltinCall& c);
  void builtin_source(const BuiltinCall& c);
  const SyntaxTree* source_on_other_path(const BuiltinCall& c, const EWord& target);
  const SyntaxTree* source_by_tail(const EWord& target, Location at);
  void builtin_read(const BuiltinCall& c);
  void builtin_shift(const BuiltinCall& c);
  void builtin_exit(const BuiltinCall& c);
  void builtin_return(const BuiltinCall& c);
  void builtin_break(const BuiltinCall& c);
  void builtin_eval(const BuiltinCall& c);
  void builtin_alias(const BuiltinCall& c);
  void builtin_shopt(const BuiltinCall& c);
  // `prun args` where `alias prun='podman run --privileged'` and aliases are on: runs the
  // alias's text followed by the rest of the command as written (aliases.cpp).
  bool run_alias(const std::string& name, TSNode n, Ctx& ctx);
  void builtin_printf_v(const BuiltinCall& c);
  void set_option(const std::string& opt, bool on, const EWord& at);
  std::string trap_expansion(const std::string& handler);
  // `read`/`mapfile`: the input on every path; one path's input as one word, and the lines of
  // a known input as array elements (read_builtin.cpp).
  const Value& read_words(const BuiltinCall& c);
  EWord read_input(const BuiltinCall& c, const std::vector<EWord>& input);
  void read_alternative(const BuiltinCall& c, const std::vector<EWord>& input);
  // How `read`/`mapfile` cut a known input into an array's elements.
  enum class Split : std::uint8_t { Lines, FirstLine, EveryLine };
  void read_into_array(const std::string& name, const EWord& src, const std::vector<EWord>& lines,
                       const std::string& seps, Split split);
  void if_statement(TSNode n, Ctx& ctx);  // control_flow.cpp
  void if_branch(TSNode cnd, const std::vector<TSNode>& body, const std::vector<TSNode>& rest,
                 std::size_t rest_i, Ctx& ctx);
  void note_condition_step(StepKind kind, TSNode inner, bool negated,
                           const std::vector<TSNode>& body, TSNode else_part, const Ctx& ctx);
  void if_body(const std::vector<TSNode>& b, Ctx& bc);
  void else_branch(const std::vector<TSNode>& rest, std::size_t rest_i, Ctx& ec, Ctx& ctx);
  void case_statement(TSNode n, Ctx& ctx);  // control_flow.cpp
  // Its pieces: the subject and the items, then the path(s) a known or unknown value takes.
  struct CaseStatement {
    TSNode value{};
    Value subject;
    EWord v;          // the subject's default word
    std::string var;  // the variable the subject reads ("" when none)
    std::vector<TSNode> items;
  };
  std::vector<std::string> case_patterns(TSNode it, Ctx& ctx);
  void case_item_body(TSNode it, Ctx& ctx);
  void case_known_value(const CaseStatement& cs, Ctx& ctx);
  void case_unknown_value(const CaseStatement& cs, Ctx& ctx);
  void for_statement(TSNode n, Ctx& ctx);   // loops.cpp
  void loop_statement(TSNode n, Ctx& ctx);  // loops.cpp: while, until, C-style for
  // `while read ...; done < known-input`: one iteration per line (read_loop.cpp); false when
  // the loop is not of that form or its input is unknown.
  bool read_loop(TSNode loop, const std::vector<TSNode>& redirects, Ctx& ctx);
  void read_loop_lines(TSNode loop, const std::vector<EWord>& input, Ctx& ctx);

  // Expansion (expand.cpp): a word's value, its words on every path that reaches it.
  Value expand_word(TSNode n, Ctx& ctx, bool assignment = false);
  EWord expand_joined(TSNode n, Ctx& ctx);  // one word, no splitting ("$*"-like join)
  Value expand_heredoc(TSNode body, Ctx& ctx, bool quoted);  // its pieces on every path
  // The pieces of expand_word, one per node kind; each ends in finish_expansion, which moves
  // the words to their place of use.
  Value finish_expansion(TSNode n, Ctx& ctx, Value v);
  Value expand_literal(TSNode n, Ctx& ctx, bool assignment = false);
  Value expand_string(TSNode n, Ctx& ctx);
  Value quoted_part(TSNode c, Ctx& ctx);
  Value expand_concatenation(TSNode n, Ctx& ctx, bool assignment);
  Value expand_arithmetic(TSNode n, Ctx& ctx);
  // Parameter expansion (expand_param.cpp).
  struct ParamRef;  // expand_param.h
  Value expand_parameter(TSNode n, Ctx& ctx, bool assignment);
  bool resolve_indirect(ParamRef& p);
  Value parameter_values(TSNode n, Ctx& ctx, ParamRef& p);
  bool special_parameter(ParamRef& p, Location at, const Ctx& ctx, std::vector<EWord>& vals);
  Value array_value(const Var& v, ParamRef& p, const Ctx& ctx);
  Value element_value(const Var& v, ParamRef& p, Ctx& ctx);
  // `${handlers[$cmd]}` with cmd unknown: each other element on the path where the key is its.
  void key_alternatives(const Var& v, ParamRef& p, const std::string& key_default, const Ctx& ctx,
                        Value& out);
  Value scalar_value(const Var& v, ParamRef& p, const Ctx& ctx);
  void element_alternatives(const Var& v, ParamRef& p, std::size_t at, const Ctx& ctx, Value& out);
  Value unresolved_parameter(TSNode n, Ctx& ctx, const ParamRef& p);
  // The operator applied to the value on every path, then the value split unless quoted
  // (expand_param_ops.cpp).
  Value operated_value(TSNode n, Ctx& ctx, ParamRef& p, Value vals, bool assignment);
  static EWord parameter_length(const ParamRef& p, const std::vector<EWord>& vals);
  Value operand_value(const ParamRef& p, Ctx& ctx);  // on every path
  Value pattern_value(TSNode o, Ctx& ctx);           // one operand, on every path
  Value apply_parameter_op(ParamRef& p, Value vals, Ctx& ctx);
  // `${X:-d}`, `${X:+a}` and their kin: each path's value with each path's operand.
  Value apply_choice(ParamRef& p, const Value& vals, Ctx& ctx);
  bool choose(const ParamRef& p, std::vector<EWord>& vals, EWord operand, Ctx& ctx);
  static void mark_secret(const ParamRef& p, std::vector<EWord>& vals);
  Value parameter_fields(TSNode n, Ctx& ctx, Value vals, bool assignment);
  static void remove_affixes(const ParamRef& p, std::vector<EWord>& vals, const EWord& pat);
  static void apply_other_op(const ParamRef& p, std::vector<EWord>& vals);
  void place_default(const ParamRef& p, std::vector<EWord>& vals, EWord& d, bool unknown,
                     bool use_default, Ctx& ctx);
  static void place_alternative(const ParamRef& p, std::vector<EWord>& vals, const EWord& a,
                                bool unknown, bool use_alt);
  static void substitute(const ParamRef& p, std::vector<EWord>& vals, const EWord& pat,
                         const EWord& rep);
  // The variable `name` here (locals first), to read; lookup_mut to change it in place.
  const Var* lookup(const std::string& name) const;
  const std::string& referent(const std::string& name) const;  // through namerefs_
  void declare_nameref(TSNode assignment, Ctx& ctx);
  std::string current_ifs() const;  // expand_param_ops.cpp
  bool array_guard_idiom(const ParamRef& p, const Ctx& ctx) const;
  std::optional<std::pair<long, long>> slice_bounds(const ParamRef& p, Ctx& ctx);
  static void slice(const ParamRef& p, std::pair<long, long> bounds, std::vector<EWord>& vals);
  Var* lookup_mut(const std::string& name);
  Var& assign_slot(const std::string& name, bool local);
  const std::pair<TSNode, const SyntaxTree*>* function(const std::string& name) const;
  void assign(TSNode n, Ctx& ctx, bool local, bool exported, bool readonly, bool force_array,
              bool force_assoc);
  // The pieces of assign (assign.cpp).
  struct Assignment {
    std::string name;
    bool local, exported, readonly, force_array, force_assoc, append;
  };
  void assign_array(TSNode n, TSNode value, const Assignment& as, Ctx& ctx);
  Value keyed_element(TSNode c, const std::string& name, Ctx& ctx);
  Value scalar_assigned(TSNode n, TSNode value, const std::string& name, Ctx& ctx);
  EWord assigned_word(EWord v, TSNode n, TSNode value, const std::string& name,
                      const Ctx& ctx) const;
  void assign_element(Var& slot, TSNode index, const Value& val, bool force_assoc, Ctx& ctx);
  std::optional<std::size_t> element_slot(Var& slot, TSNode index, bool force_assoc, Ctx& ctx);
  static void store_scalar(Var& slot, EWord v, const Assignment& as);
  // An unknown value stored in `name` here is the same value wherever it is used.
  void name_value(EWord& v, const std::string& name, TSNode n, const Ctx& ctx) const;

  // Conditions (conditions.cpp).
  struct Truth {
    std::optional<bool> known;          // decided by concrete values
    std::optional<bool> default_value;  // with every symbolic value at its default
    std::string text;                   // "AGENTBOX_NET=full"
    std::string negated_text;           // "AGENTBOX_NET!=full"
    std::string subject;                // CondAtom::subject of the value tested, or ""
    std::string equals;                 // the literal it equals when true (`==`), or ""
    std::string negated_equals;         // ... when false (`!=`)
    std::string platform;               // CondAtom::platform when true (platform_tests.h)
    // Decided on the default path, the other way on one other path of an operand's value
    // (`MODE=unsafe` set by an option): that path's condition, for the branch it takes.
    std::optional<Condition> other_path;
    std::vector<std::string> narrow;  // the variables the operands read (to narrow on it)
  };
  // On the path other_path names, the variables a test read hold that path's value only.
  void narrow_to_path(const Truth& t);
  // The path condition atom for `t` holding (or not).
  static CondAtom atom(const Truth& t, bool holds);
  // The identity of the value `$NAME` has here, for CondAtom::subject ("" when not stable).
  std::string subject_of(const std::string& name);
  // `case $1 in --net) ...`: "started with `--net`" for the script's own arguments, "`fn` is
  // called with `--net`" for a function's (condition_atoms.cpp).
  CondAtom case_atom(const std::string& label, const std::string& joined,
                     const std::vector<std::string>& patterns, const std::string& subject,
                     const EWord& value) const;
  // Whose arguments the positional parameter `label` holds here ("" the script's, else the
  // function's); nullopt when `label` is not a positional parameter.
  std::optional<std::string> positional_owner(const std::string& label, const EWord& value) const;
  // A test `label OP operand` of a positional parameter, in those words.
  void reword_positional(const std::string& label, const std::string& op, const EWord& value,
                         const EWord& operand, Truth& t) const;
  // The path on which a command fails (`||`) or succeeds (`&&`), in words.
  static CondAtom outcome_atom(std::string_view command, bool fails);
  Truth condition(TSNode n, Ctx& ctx);
  // The pieces of condition, one per form.
  static Truth undecided(TSNode n, const Ctx& ctx);
  Truth test_command_truth(TSNode n, Ctx& ctx, Truth unknown);
  Truth binary_truth(TSNode n, Ctx& ctx, const Truth& unknown);
  static void platform_comparison(const std::string& label, const std::string& op, const EWord& b,
                                  Truth& t);
  Truth unary_truth(TSNode n, Ctx& ctx);
  Truth nonempty_truth(TSNode n, Ctx& ctx);
  // Whether a set/empty test reads a credential (`[ -n "$GITHUB_TOKEN" ]`, `"${!var:-}"` with
  // `var` naming one): neither branch of it is a non-default switch.
  bool tests_credential(TSNode operand, const Ctx& ctx) const;
  Truth list_truth(TSNode n, Ctx& ctx);
  std::optional<Truth> command_truth(TSNode n, Ctx& ctx, Truth unknown);
  // Arithmetic (arith.cpp): the value when the script fixes it.
  std::optional<long long> arith(TSNode n, Ctx& ctx);
  std::optional<long long> arith_word(TSNode n, Ctx& ctx);
  std::optional<long long> arith_unary(TSNode n, Ctx& ctx);
  std::optional<long long> arith_binary(TSNode n, Ctx& ctx);
  std::optional<long long> arith_assign(TSNode n, Ctx& ctx, const std::string& op);
  std::optional<long long> arith_var(const std::string& name);
  void arith_set(const std::string& name, long long x, TSNode n, const Ctx& ctx);

  // Observations (facts.cpp, observe_*.cpp, lifecycle.cpp): what is there, for the
  // checks to judge.
  bool node_exits(TSNode n, const SyntaxTree* tree, int depth = 0);
  std::optional<StepKind> node_security_step(TSNode n, const SyntaxTree* tree);
  bool node_warns(TSNode n, const SyntaxTree* tree, int depth = 0);
  StatusUse status_after_or(TSNode right, const SyntaxTree* tree);
  void mark_validated(const std::string& var);
  void validate_from_function(TSNode body, const SyntaxTree* tree, const std::vector<EWord>& args,
                              const std::vector<std::string>& arg_vars);
  void note_splices(const Invocation& inv, const std::vector<EWord>& argv,
                    const std::vector<EWord>& stdin_words, const std::string& write_target,
                    Ctx& ctx);
  void note_command_facts(const Invocation& inv, const std::vector<EWord>& argv,
                          const std::vector<EWord>& stdin_words, Ctx& ctx,
                          const std::vector<std::pair<std::string, Location>>& writes);
  void note_secrets(const std::vector<EWord>& argv, const std::vector<EWord>& stdin_words, Ctx& ctx,
                    const std::vector<std::pair<std::string, Location>>& writes);
  void note_resources(const Invocation& inv, const std::vector<EWord>& argv, Ctx& ctx);
  void note_exec(const Invocation& inv, const std::vector<std::string>& texts, Ctx& ctx);
  void note_fetch_pipes(TSNode pipeline, const Ctx& ctx);  // queries/fetch_pipe.scm
  void add_resource(Resource r);
  void add_step(SecurityStep s);
  ScriptObservations& observed() { return out_.observed; }
  void finish_facts();

  Location loc(TSNode n, const SyntaxTree* tree) const;
  Location loc(TSPoint p, const SyntaxTree* tree) const;
  // A parsed file's repairs (SB0018) and the error it still has (SB0001); `sourced` names a
  // sourced file, empty for the script itself.
  void report_syntax(const SyntaxTree& t, const std::string& sourced);
  Provenance prov(TSNode n, const Ctx& ctx) const;
  void step(TSNode n, const Ctx& ctx);
  [[noreturn]] void abort_budget(const std::string& what, Location at);
  // What abort_budget says of a script or sourced file past RenderLimits::max_script_bytes.
  std::string script_too_large(std::size_t bytes) const;
  void capture_output(const std::vector<EWord>& cmd, bool stdout_redirected, const Ctx& ctx,
                      const Provenance& at);
  void capture_piece(Capture& c, EWord piece, const Ctx& ctx);
  bool capture_lines(Capture& c, const std::vector<EWord>& cmd, const Ctx& ctx,
                     const Provenance& at);
  std::optional<Value> captured_words(const Capture& c, bool quoted);
  std::optional<Value> captured_pieces(const Capture& c);
  Value command_substitution(TSNode n, Ctx& ctx);  // substitution.cpp
  Value process_substitution(TSNode n, Ctx& ctx);
  void taint_output(EWord& w, const std::vector<TSNode>& stmts, TSNode n, const Ctx& ctx);
  bool escaped_output(const std::vector<TSNode>& stmts, const SyntaxTree* tree) const;
  // `$(cd "$(dirname "$0")/.." && pwd)` and its kin, as a repository path (path_idioms.cpp).
  std::optional<EWord> path_idiom(const std::vector<TSNode>& stmts, Ctx& ctx);
  // Functions nothing calls, evaluated as entry points (entry_points.cpp).
  void note_definition(const std::string& name, const SyntaxTree* tree);
  bool referenced(const std::string& name) const;
  bool used_elsewhere(const std::string& name) const;
  void run_entry_points();
  void note_unresolved_source(TSNode n, const Ctx& ctx, const EWord& target);
  std::optional<std::string> path_operand(TSNode cmd, Ctx& ctx, std::string& name, bool& canonical);
  // Held by every recursive walk for the duration of one level (RenderLimits::max_nesting).
  class Nest {
   public:
    Nest(Evaluator& e, TSNode n, const Ctx& ctx);
    ~Nest() { --e_.nesting_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Evaluator& e_;
  };
  void charge_bytes(std::size_t n, Location at);
  const SyntaxTree* tree_for_source(const std::string& path, Location at);
  std::string script_dir() const;
  const SourceFile* repository_file(const std::string& path) const;  // repository_text.cpp
  const SourceFile* repository_text_file(const std::vector<EWord>& cmd) const;
  std::string path_of(const SyntaxTree* tree) const;

  const SourceFile& file_;
  const SourceSet* sources_;
  RenderLimits limits_;
  std::vector<std::unique_ptr<SyntaxTree>> trees_;
  std::map<FileId, const SyntaxTree*> sourced_trees_;  // by file
  std::map<std::tuple<Location, unsigned, std::string>, const SyntaxTree*> placed_trees_;
  int reparsing_ = 0;
  std::map<Location, std::uint32_t> inline_runs_;  // by its place
  // Steps spent in each function's calls, with and without their nested calls, and how often
  // it was called (RenderLimits::hot_function_share); the functions no longer called.
  struct FunctionCost {
    std::uint64_t all = 0, own = 0;
    std::uint32_t calls = 0;
  };
  std::map<std::string, FunctionCost> function_cost_;
  std::uint64_t* callee_steps_ = nullptr;  // the running call's tally of its nested calls
  std::set<std::string> hot_functions_;
  bool hot_function(const std::string& name, TSNode n, const Ctx& ctx);
  // Functions (and `source`, `sh -c`) entered on the way to the current command, outermost
  // first: recorded on every invocation as its structural place in the script.
  std::vector<std::string> call_path_;
  // While the text of `docker|podman exec CTR sh -c '...'` runs: the exec words, in front of
  // every command it records (inline_script.cpp).
  std::vector<Word> exec_prefix_;
  std::set<std::string> recursive_;  // functions entered again while they ran
  // Each recorded call path names a function once, a recursive one as "f (recursive)".
  void collapse_recursion();
  State st_;
  ScriptRender out_;
  std::uint32_t steps_ = 0;
  std::size_t bytes_ = 0;
  int depth_ = 0;
  std::uint32_t nesting_ = 0;
  std::vector<Capture> captures_;  // innermost substitution last
  // `<(...)` outputs by the path word that stands for them, for mapfile/read to split.
  std::map<std::string, Value> substituted_files_;  // levels of Nest held now
  bool posix_sh_ = false;
  std::set<std::string> validated_;
  std::vector<Resource> resources_;
  std::vector<std::vector<Trap>> traps_at_start_;  // parallel to resources_
  std::vector<Trap> all_traps_;
  int last_background_ = -1;  // resource index of the last `&` start, for `pid=$!`
  std::map<std::string, EWord> tainted_files_;  // path written with tainted content
  struct Write {
    std::string path;
    std::string path_shown;
    std::string secret_var;
    Provenance from;
    bool protected_ = false;
    bool temp = false;
  };
  std::vector<Write> secret_writes_;
  std::set<std::string> chmodded_;
  std::set<std::string> removed_paths_;
  bool uses_net_admin_ = false;
  Provenance net_admin_at_;
  bool recursion_reported_ = false;
  // The call sites entered on the way to the current command, innermost last, and the runs
  // recorded per (command, innermost call site).
  std::vector<Location> call_sites_;
  std::map<std::pair<Location, Location>, std::uint32_t> runs_at_;
  std::uint32_t function_variant_runs_ = 0;
  bool text_tools_cut_ = false;
  int function_variant_depth_ = 0;
  std::vector<std::string> defined_;  // the analysed file's functions, in definition order
  std::set<std::string> called_;      // functions the evaluation called
  std::uint64_t assignments_ = 0;     // Var::serial of the latest assignment
  std::map<std::string, std::string> namerefs_;  // `declare -n ref=flags`: ref -> flags
  std::map<std::string, std::string> aliases_;   // `alias name=text`
  bool expand_aliases_ = false;                  // `shopt -s expand_aliases` (sh: always)
  std::vector<std::string> expanding_;           // aliases being expanded (not re-expanded)
  // The value of a `$(...)`/`<(...)` whose commands print the machine's own state
  // (machine_state.cpp): an untainted word, or the tainted word of a variable it expands (a
  // lookup of a name from the environment); nullopt when the commands are not machine state.
  std::optional<EWord> machine_state_value(const std::vector<TSNode>& stmts, const SyntaxTree* tree,
                                           Location at);
  std::optional<EWord> machine_state_taint(const std::vector<std::string>& names, Location at);
  // `if ! [[ $p =~ re ]]; then ...; exit 1; fi` (or the regex test with an else that exits)
  // validates the variables tested, as `[[ ... ]] || exit` does (facts.cpp).
  void validate_from_if(TSNode cnd, const std::vector<TSNode>& body, TSNode else_part,
                        const SyntaxTree* tree);
  // Tool-presence checks that skip the security steps and early successful exits before the
  // gate, read from the syntax of each file evaluated (observe_guards.cpp).
  void note_guards(TSNode root, const SyntaxTree* tree);
  void note_tool_guard(TSNode check, TSNode skip, const std::string& tool, TSNode branch,
                       const SyntaxTree* tree);
  void note_or_guard(TSNode check, TSNode branch, const SyntaxTree* tree);  // `check || branch`
  void note_if_guard(TSNode n, const SyntaxTree* tree);
  void note_early_success(TSNode n, const SyntaxTree* tree);
  // `podman exec CTR iptables ...` after CTR was started detached (observe_resources.cpp).
  void note_late_gate(const std::vector<std::string>& texts, const Invocation& inv);
  void note_nsenter_gate(const std::vector<EWord>& argv, const Invocation& inv);
  void note_late_gate(const std::string& container, std::vector<std::string> gate,
                      const Invocation& inv);
};

}  // namespace sbr::bash
