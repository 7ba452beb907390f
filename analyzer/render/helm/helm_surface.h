// The function surface of helm v4.2 (docs/rendering.md, "Functions"): what a chart may call.
#pragma once

#include <span>
#include <string_view>

namespace sbr::render::helm {

// Whether helm's engine defines `name` (sprig, helm's own, Go's builtins).
bool helm_defines(std::string_view name);
// Every such name, sorted.
std::span<const std::string_view> helm_function_names();

}  // namespace sbr::render::helm
