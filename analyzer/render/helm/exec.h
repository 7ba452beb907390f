// Executes parsed templates as Go's text/template does (missingkey=zero, as Helm sets it),
// writing output with the template and values position of every span.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/render/helm/ast.h"
#include "analyzer/render/helm/value.h"

namespace sbr::render::helm {

// Where a span of output came from.
struct Span {
  std::size_t offset = 0;  // into Output::text
  Location at;
  Location values;
  std::string note;
};

// A guard (`if`/`with`) as the executor saw it decide: where it is and, when its deciding
// value came from .Values, where that value was written.
// A value a template used, as the executor saw it: what a switch's flipped render must
// re-run that template for. Only whole operands count (`.Values.debug.enabled`, `toYaml
// .Values.debug`), not the maps a field chain passes through on the way.
struct ValueRead {
  Location values;     // where the value was written (invalid: --set, or not a values file)
  std::string path;    // its key path as written there; "" with `whole`
  bool whole = false;  // a chart's whole .Values was used: every switch may change the output
};

// A read of a value only an unvendored dependency would have provided.
struct StandInRead {
  Location at;       // the template action
  std::string path;  // ".Values.postgresql.primary.host" as far as the chain went
};

struct GuardSeen {
  Location at;           // the {{ if }} / {{ with }} action
  Location values;       // where the deciding value was written (invalid: --set, or not values)
  std::string path;      // its key path as written there ("debug.enabled"); "" when not values
  bool boolean = false;  // the deciding value is a boolean (a switch a consumer can flip)
  bool truth = false;
  // A string the guard compared the value with (`eq .Values.builder "dind"`): a case of an
  // enumeration, which a consumer can choose as they flip a boolean.
  std::string alternative;
  // A placeholder the guard's pipeline read (`Release.IsUpgrade`, `lookup`): what only a real
  // install knows decided it (placeholders.h). Such a guard has no values `path`.
  std::string placeholder;
};

// A branch a guard did not take: where its text would have gone, and the YAML keys its own
// text writes at its first level (`runtimeClassName`, `securityContext`), so that a field
// absent from the output can be reported at the guard that left it out.
struct Skipped {
  std::size_t offset = 0;  // into Output::text
  GuardSeen guard;
  std::uint32_t indent = 0;  // columns before those keys
  std::vector<std::string> keys;
};

struct Output {
  std::string text;
  std::vector<Span> spans;       // by offset
  std::vector<Skipped> skipped;  // branches not taken in this template's own text
};

class Exec;
using Function = Value (*)(Exec&, std::vector<Value>&, const Location&);
using FunctionTable = std::unordered_map<std::string, Function>;

// The functions of the engine: Go's builtins, Helm's and the sprig set (funcs_*.cpp).
const FunctionTable& functions();

// The named templates of a chart tree (every file's `define`s) and the budget they share.
struct TemplateSet {
  std::map<std::string, std::shared_ptr<NodeList>> named;
  std::vector<std::shared_ptr<ParsedFile>> keep;  // owners of `tpl`-parsed texts
};

constexpr int kMaxIncludeDepth = 200;  // nested include/template/tpl calls
// Bodies run inside each other (if, range, with, define, include, tpl, all counted together):
// each level is native stack, and the include and control-structure bounds alone multiply
// (200 includes of a define 50 ifs deep overflowed the stack). Sized to 8 MiB thread stacks.
constexpr int kMaxBodyNesting = 1000;
constexpr std::uint64_t kMaxSteps = 5'000'000;           // nodes executed per template file
constexpr std::size_t kMaxOutput = 16u << 20;            // bytes of output per template file
constexpr std::size_t kMaxOutputLines = 1'000'000;       // lines of output per template file
constexpr std::size_t kMaxTemplateFileBytes = 4u << 20;  // one template file's text
// What functions may build (docs/robustness.md, "Budgets"): one string or list they return, and
// everything they build in one template file together (a loop that doubles a string or a list
// meets the first; one that keeps building, the second). Amplifying functions (repeat, indent,
// replace, until, join, printf widths) check before they build. Past a budget the template stops
// with a finding of cause analyzer that names it.
constexpr std::size_t kMaxValueBytes = 16u << 20;
constexpr std::size_t kMaxListItems = 1'000'000;
constexpr std::uint64_t kMaxBuiltBytes = 256ull << 20;
// The cost charged for one list or map element, in bytes.
constexpr std::uint64_t kElementBytes = 64;

class Exec {
 public:
  Exec(TemplateSet& set, Value root);

  // Runs `nodes` with `dot` into `out`.
  void run(const NodeList& nodes, const Value& dot, Output& out);
  // `include NAME DOT` / `template NAME DOT`: the named template's output.
  Output call_named(const std::string& name, const Value& dot, const Location& at);
  // `tpl TEXT DOT`: parses `text` in this template set and runs it; its defines last as long.
  Output run_text(const std::string& text, const Value& dot, const Location& at);
  const Value& root() const { return root_; }
  TemplateSet& set() { return set_; }
  // Records every guard whose deciding value came from .Values (the chart's switches).
  void record_guards(std::vector<GuardSeen>* into) { guards_ = into; }
  // Records every value taken from .Values (`roots`: the maps that are a chart's whole
  // .Values), and whether the template changed state other templates share (`set` on a map),
  // after which re-running it alone would not reproduce a whole render.
  void record_reads(std::vector<ValueRead>* into, const std::vector<const Map*>* roots) {
    reads_ = into;
    roots_ = roots;
  }
  bool touched_shared_state() const { return shared_; }
  // `eq`/`ne` of a values string and a literal string inside a guard: records the literal as a
  // case of that value (GuardSeen::alternative).
  void note_comparison(const Value& x, const Value& y);
  // The values maps a dependency that is not vendored would fill (`.Values.postgresql` of an
  // unvendored postgresql): a field chain through them that meets nil is empty, as it would
  // not be nil with the dependency's values.yaml, and the first such read lands in `first`.
  void stand_ins(const std::vector<const Map*>* maps, std::optional<StandInRead>* first) {
    stand_ins_ = maps;
    stand_in_read_ = first;
  }
  // The last key read from those maps that is not there (`.Values.postgresql.image`: nil, and
  // nothing said yet), for a failure right after it that the nil causes (a helper reading
  // `.registry` of it).
  const std::optional<StandInRead>& missing_stand_in_key() const { return missing_key_; }

  // Before a function builds a value of `bytes` (`what` names it in the message): throws past
  // kMaxValueBytes for the one value or kMaxBuiltBytes for the template file, and counts it.
  void charge(std::uint64_t bytes, const char* what, const Location& at);

 private:
  struct Frame;
  enum class Flow : std::uint8_t { Normal, Break, Continue };

  Flow list(const NodeList& nodes, const Value& dot);
  Flow node(const Node& n, const Value& dot);
  Flow guard(const Node& n, const Value& dot);
  void note_skipped(const NodeList* branch, const GuardSeen& g);
  // While a guard's condition (or ternary's) runs, with recorded guards: the placeholders it
  // reads (placeholders.cpp), a field of .Release or a call of `lookup`, `now`, `rand*`...
  class PlaceholderScope {
   public:
    explicit PlaceholderScope(Exec& e);
    ~PlaceholderScope();
    PlaceholderScope(const PlaceholderScope&) = delete;
    PlaceholderScope& operator=(const PlaceholderScope&) = delete;
    // Each placeholder read becomes a guard at `at`; the enclosing condition read it too.
    void decided(const Location& at, bool truth);
    // The placeholders read so far (a variable declared from them carries them); the
    // enclosing condition read them too.
    const std::vector<std::string>& read();

   private:
    Exec& e_;
    std::vector<std::string> seen_;
    std::vector<std::string>* outer_;
  };
  void note_placeholder(const std::string& name);
  // An operand that decides like a guard (ternary's condition), its placeholders noted at `at`.
  Value condition_arg(const Arg& a, const Value& dot, const Location& at);
  Flow range(const Node& n, const Value& dot);
  Flow range_item(const Node& n, const Value& key, const Value& item);
  void text(const Node& n);
  void emit(const Value& v, const Location& at);
  Value pipeline(const Pipeline& p, const Value& dot);
  Value command(const Command& c, const Value& dot, const Value* piped);
  Value call(const std::string& name, const Command& c, const Value& dot, const Value* piped);
  Value logic(const std::string& name, const Command& c, const Value& dot, const Value* piped);
  Value arg(const Arg& a, const Value& dot);
  Value fields_of_result(Value v, const Arg& a);
  Value fields(Value v, const std::vector<std::string>& names, std::vector<Value>* args,
               const Location& at);
  Value variable(const std::string& name, const Location& at);
  void declare(const Pipeline& p, const Value& v, const std::vector<std::string>& placeholders);
  void step(const Location& at);
  void note_read(const Value& v);

  TemplateSet& set_;
  Value root_;
  Output* out_ = nullptr;
  // A template variable, with the placeholders its value was computed from: `$ns := lookup
  // ...` then `if not $ns` is a guard `lookup` decides.
  struct Var {
    std::string name;
    Value value;
    std::vector<std::string> placeholders;
  };
  std::vector<Var> vars_;
  int depth_ = 0;
  int nesting_ = 0;          // bodies running inside each other (kMaxBodyNesting)
  std::uint64_t built_ = 0;  // bytes functions built in this template file (kMaxBuiltBytes)
  void check_output(const Location& at) const;
  void charge_result(const std::string& name, const Value& r, const Location& at);
  std::uint64_t steps_ = 0;
  std::vector<GuardSeen>* guards_ = nullptr;
  std::vector<ValueRead>* reads_ = nullptr;
  const std::vector<const Map*>* roots_ = nullptr;
  const std::vector<const Map*>* stand_ins_ = nullptr;
  Location guard_at_;             // the guard whose pipeline runs, for note_comparison
  const Map* release_ = nullptr;  // the dot's .Release, whose IsUpgrade... are placeholders
  std::vector<std::string>* placeholders_ = nullptr;  // read by the guard pipeline under way
  std::optional<StandInRead>* stand_in_read_ = nullptr;
  std::optional<StandInRead> missing_key_;
  static Value member(const Value& m, const std::string& name);
  bool is_stand_in(const Value& v) const;
  void note_stand_in(const std::vector<std::string>& names, std::size_t upto, const Location& at);
  bool shared_ = false;
};

// A string value holding `out`'s text, with the origin of each of its lines.
Value output_value(const Output& out);
// Appends `v` (a string with line origins, or any value) to `out` at template position `at`.
void append_value(Output& out, const Value& v, const Location& at);

}  // namespace sbr::render::helm
