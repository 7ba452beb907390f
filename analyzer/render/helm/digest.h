// Hashing and encoding for the template functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sbr::render::helm {

std::string sha256_hex(std::string_view data);
std::string sha1_hex(std::string_view data);
std::string sha512_hex(std::string_view data);  // sha512.cpp
std::uint32_t adler32(std::string_view data);
std::string base64_encode(std::string_view data);
bool base64_decode(std::string_view text, std::string& out);

}  // namespace sbr::render::helm
