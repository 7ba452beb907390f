// Text files that are not UTF-8: a byte-order mark says UTF-16 or UTF-32 (editors on Windows
// write them). Every reader downstream expects UTF-8, and the NUL bytes of UTF-16 would make
// the file look binary, so the walk decodes them once, keeping every line where it was.
#pragma once

#include <string>
#include <string_view>

namespace sbr {

// "UTF-8", "UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE" from a leading byte-order mark; ""
// without one.
std::string_view bom_encoding(std::string_view bytes);

// Replaces `bytes` by its UTF-8 text without the byte-order mark when it starts with one.
// Returns false, leaving `bytes` as they were and saying why in `why`, when the text does not
// decode in the encoding its mark names.
bool decode_to_utf8(std::string& bytes, std::string& why);

}  // namespace sbr
