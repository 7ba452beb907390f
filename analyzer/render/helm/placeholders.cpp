// Placeholders that decide a guard. The executor notes what a guard's pipeline reads of
// .Release and which placeholder functions it calls (directly or through the helpers it
// includes); the chart is then rendered once more as an upgrade (switches.cpp), or the guard
// is reported when no other value can be tried.
#include "analyzer/render/helm/placeholders.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace sbr::render::helm {

namespace {

// .Release.Name and .Namespace are placeholders too, but they only name objects, and the
// fullname helper `helm create` writes guards on the name (`if contains $name
// .Release.Name`) in nearly every chart: a finding there would be noise.
const char* const kUpgradeFields[] = {"IsUpgrade", "IsInstall", "Revision"};

const char* const kFunctions[] = {"lookup",      "now",       "randAlphaNum", "randAlpha",
                                  "randNumeric", "randAscii", "randInt",      "randBytes",
                                  "shuffle",     "uuidv4"};

std::string described(const std::string& placeholder) {
  if (placeholder == "lookup")
    return "`lookup`, which is empty here as in `helm template` (an install against a cluster "
           "that holds the object reads it)";
  if (placeholder == "now")
    return "`now`, which is fixed here at 2000-01-01 (helm reads the clock)";
  return fmt::format("`{}`, which is a fixed placeholder here (random in helm)", placeholder);
}

}  // namespace

// The dot's .Release is shared by every template and subchart of one render (and by the dicts
// a chart passes `$` in), so its map tells a read of `.context.Release.IsUpgrade` too.
Exec::Exec(TemplateSet& set, Value root) : set_(set), root_(std::move(root)) {
  if (!root_.is_map()) return;
  auto release = root_.map->find("Release");
  if (release != root_.map->end() && release->second.is_map()) release_ = release->second.map.get();
}

Exec::PlaceholderScope::PlaceholderScope(Exec& e)
    : e_(e), outer_(std::exchange(e.placeholders_, e.guards_ ? &seen_ : nullptr)) {}

Exec::PlaceholderScope::~PlaceholderScope() {
  e_.placeholders_ = outer_;
}

void Exec::PlaceholderScope::decided(const Location& at, bool truth) {
  for (const std::string& p : read()) {
    bool known = std::any_of(e_.guards_->begin(), e_.guards_->end(),
                             [&](const GuardSeen& g) { return g.at == at && g.placeholder == p; });
    if (!known) e_.guards_->push_back({at, {}, {}, false, truth, {}, p});
  }
}

const std::vector<std::string>& Exec::PlaceholderScope::read() {
  for (const std::string& p : seen_) {
    if (outer_ && std::find(outer_->begin(), outer_->end(), p) == outer_->end())
      outer_->push_back(p);
  }
  return seen_;
}

void Exec::note_placeholder(const std::string& name) {
  if (std::find(placeholders_->begin(), placeholders_->end(), name) == placeholders_->end())
    placeholders_->push_back(name);
}

Value Exec::condition_arg(const Arg& a, const Value& dot, const Location& at) {
  PlaceholderScope placeholders(*this);
  Value v = arg(a, dot);
  placeholders.decided(at, truthy(v));
  return v;
}

bool is_upgrade_placeholder(const std::string& field) {
  return std::find(std::begin(kUpgradeFields), std::end(kUpgradeFields), field) !=
         std::end(kUpgradeFields);
}

bool is_placeholder_function(const std::string& name) {
  return std::find(std::begin(kFunctions), std::end(kFunctions), name) != std::end(kFunctions);
}

bool upgrade_decides(const std::vector<GuardSeen>& guards) {
  return std::any_of(guards.begin(), guards.end(),
                     [](const GuardSeen& g) { return g.placeholder.rfind("Release.", 0) == 0; });
}

void report_placeholder_guards(const std::string& chart, const std::vector<GuardSeen>& guards,
                               RenderOutput& out) {
  for (const GuardSeen& g : guards) {
    if (!is_placeholder_function(g.placeholder)) continue;
    out.problems.push_back(
        {ProblemKind::SwitchNotRendered,
         fmt::format("this guard of chart {} is decided by {}: a real install may take the "
                     "branch sbreview did not render (it rendered the {} one), and what that "
                     "branch produces is not analysed",
                     chart, described(g.placeholder), g.truth ? "true" : "false"),
         g.at, Cause::Analyzer});
  }
}

}  // namespace sbr::render::helm
