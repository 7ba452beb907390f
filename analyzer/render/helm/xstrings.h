// huandu/xstrings' word splitting, as sprig's kebabcase (ToKebabCase) and snakecase
// (ToSnakeCase) use it.
#pragma once

#include <string>
#include <string_view>

namespace sbr::render::helm {

// xstrings' camelCaseToLowerCase: `s` cut into words (capitals start one, "HTTPServer" is
// "HTTP" "Server", digits join a word as xstrings decides), lower-cased and joined by
// `connector`; spaces, '-' and '_' become `connector`. ASCII letters, digits and punctuation are
// classed as Go's unicode package classes them; other bytes are "other" characters.
std::string xstrings_lower_words(std::string_view s, char connector);

}  // namespace sbr::render::helm
