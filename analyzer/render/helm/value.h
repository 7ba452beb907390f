// The one value type of the chart engine: what Go's text/template sees through Helm's
// map[string]interface{} values (nil, bool, int64, float64, string, list, map) plus the
// methods of .Files and .Capabilities. A value remembers the values-file line it came from,
// so rendered text can point a finding at the line a chart's consumer edits.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/provenance.h"
#include "analyzer/support/cause.h"

namespace sbr::render::helm {

struct Value;
using List = std::vector<Value>;
using Map = std::map<std::string, Value>;  // Go's templates iterate maps by sorted key
using Method = std::function<Value(const std::vector<Value>&)>;

// Where one line of a multi-line string came from (toYaml of values, include output).
struct LineOrigin {
  std::uint32_t line = 0;  // 0-based line of the string
  Location at;             // template position, or invalid
  Location values;         // values position, or invalid
  std::string note;        // values key path
};
using LineOrigins = std::vector<LineOrigin>;

enum class Kind : std::uint8_t { Nil, Bool, Int, Float, String, List, Map, Method };

struct Value {
  Value() = default;
  Value(const Value&) = default;
  Value(Value&&) noexcept = default;
  Value& operator=(const Value&) = default;
  Value& operator=(Value&&) noexcept = default;
  // Takes a deep chain of maps and lists apart one level at a time: a template can nest a value
  // a level per loop iteration, and freeing it recursively would overflow the stack.
  ~Value();

  Kind kind = Kind::Nil;
  bool b = false;
  std::int64_t i = 0;
  double f = 0;
  std::string s;
  // Lists and maps are shared as Go's slices and maps are: `set $d "k" v` changes every holder.
  std::shared_ptr<List> list;
  std::shared_ptr<Map> map;
  std::shared_ptr<Method> method;
  // A Go map type's methods (helm's `.Files` is a map of files with Get, Glob...): a field
  // name finds them before the map's keys; len, range and index see the keys only.
  std::shared_ptr<const Map> methods;
  Location from;     // the values line (key line for maps), invalid when not from values
  std::string path;  // the values key path ("securityContext.privileged")
  std::shared_ptr<const LineOrigins> lines;  // per-line origins of a multi-line string

  static Value boolean(bool v);
  static Value integer(std::int64_t v);
  static Value number(double v);
  static Value string(std::string v);
  static Value new_list(List v = {});
  static Value new_map(Map v = {});
  static Value function(Method m);

  bool is_nil() const { return kind == Kind::Nil; }
  bool is_string() const { return kind == Kind::String; }
  bool is_map() const { return kind == Kind::Map; }
  bool is_list() const { return kind == Kind::List; }
  bool is_number() const { return kind == Kind::Int || kind == Kind::Float; }
};

// A template error: stops the render of one template with a message naming the cause.
// A template that stops. Most stops are places where sbreview's engine could not follow the
// chart (cause analyzer: a gap of sbreview unless shown otherwise); the chart's own `fail` and
// `required` are the repository's, as helm stops there too.
struct RenderError : std::runtime_error {
  Location at;
  Cause cause = Cause::Analyzer;
  std::string missing_define;  // an include or template of a name nothing defines
  RenderError(const std::string& what, Location where) : std::runtime_error(what), at(where) {}
  RenderError(const std::string& what, Location where, Cause why)
      : std::runtime_error(what), at(where), cause(why) {}
};

// How deep maps and lists may nest inside each other: the engine's printers, copies and
// comparisons recurse once per level, and a template can nest a value a level per `range`
// iteration. Past it the template stops (a budget of sbreview, cause analyzer).
inline constexpr int kMaxValueDepth = 512;
// How many maps, lists and scalars one print, copy, comparison or conversion may visit: a list
// that holds the same list twice, 40 times over (`$a = list $a $a` in a loop), is small in memory
// and has 2^40 elements to print.
inline constexpr std::uint64_t kMaxValueVisits = 4'000'000;

// One level of that recursion, counted per thread; throws RenderError past kMaxValueDepth, or
// past kMaxValueVisits levels entered since the outermost one.
class ValueDepth {
 public:
  ValueDepth();
  ~ValueDepth();
  ValueDepth(const ValueDepth&) = delete;
  ValueDepth& operator=(const ValueDepth&) = delete;
};

// Whether `v` is `target`'s map or holds it somewhere inside (through maps and lists). `set` and
// the merges ask before they store a value into a map: a map that contains itself has no end,
// and Go's printers (and helm with them) never finish it.
bool contains_map(const Value& v, const Map* target);
// The maps, lists and scalars `v` holds, itself included (a shared one counted once).
std::uint64_t count_nodes(const Value& v);

// Go's truth: false, 0, nil, and empty strings, lists and maps are false.
bool truthy(const Value& v);
// Go's fmt %v of the value as text/template prints it (nil prints "<no value>" there; Helm
// removes that, so `print_value` returns "" for nil).
std::string print_value(const Value& v);
std::string format_float(double f);  // %v of a float64: shortest, exponent from 1e21 / 1e-4
// The Go type name for messages and `typeOf` ("string", "float64", "map[string]interface {}").
std::string type_name(const Value& v);
// Deep copy of lists and maps (sprig's deepCopy, values merged per chart).
Value deep_copy(const Value& v);
// Numeric views; throw RenderError-free std::runtime_error when not numeric.
bool as_int(const Value& v, std::int64_t& out);
double as_float(const Value& v);
// Equality as Go's `eq` for basic kinds (int and float are distinct kinds in Go).
bool basic_equal(const Value& a, const Value& b, bool& comparable);
// Copies the values origin of `from` to `v` when `v` has none.
void inherit_origin(Value& v, const Value& from);

}  // namespace sbr::render::helm
