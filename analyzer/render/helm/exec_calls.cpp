// include, template and tpl: a named template's body, or tpl's text, run with its own dot and
// variables.
#include <fmt/format.h>

#include <utility>

#include "analyzer/render/helm/exec.h"

namespace sbr::render::helm {

Output Exec::call_named(const std::string& name, const Value& dot, const Location& at) {
  auto found = set_.named.find(name);
  if (found == set_.named.end()) {
    RenderError e(fmt::format("no template \"{}\" associated with the chart", name), at);
    e.missing_define = name;
    throw e;
  }
  if (depth_ >= kMaxIncludeDepth)
    throw RenderError(fmt::format("template \"{}\": more than {} nested include/template calls",
                                  name, kMaxIncludeDepth),
                      at);
  ++depth_;
  auto saved_vars = std::move(vars_);
  vars_.clear();
  vars_.push_back({"$", dot, {}});
  Output out;
  Output* saved = out_;
  out_ = &out;
  std::shared_ptr<NodeList> body = found->second;  // a define may be replaced while it runs
  try {
    list(*body, dot);
  } catch (...) {
    out_ = saved;
    vars_ = std::move(saved_vars);
    --depth_;
    throw;
  }
  out_ = saved;
  vars_ = std::move(saved_vars);
  --depth_;
  return out;
}

// Helm parses tpl's text into a clone of the template set: its defines are seen while it runs
// (by its includes too) and are gone after, the set's own back in place.
Output Exec::run_text(const std::string& text, const Value& dot, const Location& at) {
  auto parsed = std::make_shared<ParsedFile>();
  ParseError error;
  if (!parse_template(text, at.file, *parsed, error))
    throw RenderError("tpl: " + error.message, at);
  set_.keep.push_back(parsed);
  using Hidden = std::vector<std::pair<std::string, std::shared_ptr<NodeList>>>;
  struct Restore {  // the defines tpl's text replaced, put back when it returns or fails
    TemplateSet& set;
    Hidden hidden;
    ~Restore() {
      for (auto it = hidden.rbegin(); it != hidden.rend(); ++it) {
        if (it->second)
          set.named[it->first] = it->second;
        else
          set.named.erase(it->first);
      }
    }
  } restore{set_, {}};
  auto define = [&](const std::string& name, std::shared_ptr<NodeList> body) {
    restore.hidden.emplace_back(name, std::exchange(set_.named[name], std::move(body)));
  };
  for (auto& d : parsed->defines) define(d.first, d.second);
  define("\x01tpl", std::make_shared<NodeList>(parsed->body));
  Output out = call_named("\x01tpl", dot, at);
  // tpl text has no file of its own: its spans are the calling action's.
  for (Span& sp : out.spans) {
    if (sp.at.file == at.file && !sp.values.valid()) sp.at = at;
  }
  return out;
}

}  // namespace sbr::render::helm
