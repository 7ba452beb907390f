// Sprig's base32 codec, sha512sum, the JSON forms beside helm's toJson (pretty, raw, and the
// must forms) and the regex functions RE2 does not give as Go has them (QuoteMeta, FindAll).
#include <re2/re2.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "analyzer/render/helm/digest.h"
#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"
#include "analyzer/render/helm/unicode_go.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

constexpr const char* kBase32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// base32.StdEncoding.EncodeToString: 5 bytes to 8 characters, `=` padding.
std::string base32_encode(const std::string& in) {
  std::string out;
  for (std::size_t k = 0; k < in.size(); k += 5) {
    std::uint64_t bits = 0;
    const std::size_t n = std::min<std::size_t>(5, in.size() - k);
    for (std::size_t i = 0; i < 5; ++i)
      bits = (bits << 8) | (i < n ? static_cast<unsigned char>(in[k + i]) : 0);
    static constexpr std::size_t kChars[] = {0, 2, 4, 5, 7, 8};
    for (std::size_t i = 0; i < 8; ++i)
      out += i < kChars[n] ? kBase32Alphabet[(bits >> (35 - 5 * i)) & 31] : '=';
  }
  return out;
}

// base32.StdEncoding.DecodeString, line breaks dropped first; false with Go's CorruptInputError
// text (the offset counted in the text without line breaks).
bool base32_decode(std::string src, std::string& out, std::string& error) {
  std::erase_if(src, [](char c) { return c == '\r' || c == '\n'; });
  const std::size_t olen = src.size();
  std::size_t pos = 0;
  auto corrupt = [&error](std::size_t at) {
    error = "illegal base32 data at input byte " + std::to_string(at);
    return false;
  };
  bool end = false;
  while (pos < olen && !end) {
    unsigned char dbuf[8] = {};
    std::size_t dlen = 8;
    for (std::size_t j = 0; j < 8;) {
      if (pos >= olen) return corrupt(olen - (olen - pos) - j);
      const char in = src[pos++];
      const std::size_t left = olen - pos;
      if (in == '=' && j >= 2 && left < 8) {
        if (left + j < 8 - 1) return corrupt(olen);
        for (std::size_t k = 0; k < 8 - 1 - j; ++k) {
          if (left > k && src[pos + k] != '=') return corrupt(olen - left + k - 1);
        }
        dlen = j;
        end = true;
        if (dlen == 1 || dlen == 3 || dlen == 6) return corrupt(olen - left - 1);
        break;
      }
      const char* found = in ? std::strchr(kBase32Alphabet, in) : nullptr;
      if (!found) return corrupt(olen - left - 1);
      dbuf[j++] = static_cast<unsigned char>(found - kBase32Alphabet);
    }
    std::uint64_t bits = 0;
    for (unsigned char d : dbuf) bits = (bits << 5) | d;
    static constexpr std::size_t kBytes[] = {0, 0, 1, 0, 2, 3, 0, 4, 5};
    for (std::size_t i = 0; i < kBytes[dlen]; ++i)
      out += static_cast<char>((bits >> (32 - 8 * i)) & 0xff);
  }
  return true;
}

Value fn_b32enc(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "b32enc", at);
  return Value::string(base32_encode(text_of(a[0])));
}

// sprig returns the decoder's error text in place of the data.
Value fn_b32dec(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "b32dec", at);
  std::string out, error;
  if (!base32_decode(text_of(a[0]), out, error)) return Value::string(error);
  return Value::string(out);
}

Value fn_sha512(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "sha512sum", at);
  return Value::string(sha512_hex(text_of(a[0])));
}

Value json_with(Args& a, const Location& at, const char* name, const char* indent, bool html) {
  arity(a, 1, 1, name, at);
  try {
    return Value::string(to_json_styled(a[0], indent, html));
  } catch (const std::runtime_error& e) {
    throw RenderError(std::string("error calling ") + name + ": " + e.what(), at);
  }
}

Value fn_to_pretty_json(Exec&, Args& a, const Location& at) {
  return json_with(a, at, "toPrettyJson", "  ", true);
}
Value fn_must_to_pretty_json(Exec&, Args& a, const Location& at) {
  return json_with(a, at, "mustToPrettyJson", "  ", true);
}
Value fn_to_raw_json(Exec&, Args& a, const Location& at) {
  return json_with(a, at, "toRawJson", "", false);
}
Value fn_must_to_raw_json(Exec&, Args& a, const Location& at) {
  return json_with(a, at, "mustToRawJson", "", false);
}

// sprig's mustFromJson: any JSON value (helm's fromJson keeps only objects); a text that does
// not parse stops the template.
Value fn_must_from_json(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "mustFromJson", at);
  Value out;
  std::string error;
  if (!parse_json_value(text_of(a[0]), out, error))
    throw RenderError("error calling mustFromJson: " + error, at);
  return out;
}

// Go's regexp.QuoteMeta escapes exactly \.+*?()|[]{}^$ (RE2's QuoteMeta escapes more).
Value fn_regex_quote_meta(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "regexQuoteMeta", at);
  std::string out;
  for (char c : text_of(a[0])) {
    if (std::string_view("\\.+*?()|[]{}^$").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return Value::string(out);
}

// Go's FindAllString: successive non-overlapping matches, at most n (all when n < 0), an empty
// match right after the previous match skipped.
Value fn_regex_find_all(Exec& ex, Args& a, const Location& at) {
  arity(a, 3, 3, "regexFindAll", at);
  const std::string s = text_of(a[1]);
  const RE2& re = regex_of(text_of(a[0]), at);
  std::int64_t n = int_of(a[2]);
  if (n < 0) n = static_cast<std::int64_t>(s.size()) + 1;
  List out;
  std::size_t pos = 0;
  std::int64_t prev_end = -1;
  while (static_cast<std::int64_t>(out.size()) < n && pos <= s.size()) {
    re2::StringPiece m;
    if (!re.Match(s, pos, s.size(), RE2::UNANCHORED, &m, 1)) break;
    const auto start = static_cast<std::size_t>(m.data() - s.data());
    const std::size_t end = start + m.size();
    bool accept = true;
    if (end == pos) {
      accept = static_cast<std::int64_t>(start) != prev_end;
      std::size_t width = 0;
      go_unicode::decode(s, pos, width);
      pos += width > 0 ? width : 1;
    } else {
      pos = end;
    }
    prev_end = static_cast<std::int64_t>(end);
    if (accept) {
      ex.charge(m.size() + kElementBytes, "regexFindAll", at);
      out.push_back(Value::string(std::string(m)));
    }
  }
  return Value::new_list(std::move(out));
}

}  // namespace

void add_encoding_functions(FunctionTable& t) {
  t["b32enc"] = fn_b32enc;
  t["b32dec"] = fn_b32dec;
  t["sha512sum"] = fn_sha512;
  t["toPrettyJson"] = fn_to_pretty_json;
  t["mustToPrettyJson"] = fn_must_to_pretty_json;
  t["toRawJson"] = fn_to_raw_json;
  t["mustToRawJson"] = fn_must_to_raw_json;
  t["mustFromJson"] = fn_must_from_json;
  t["regexQuoteMeta"] = fn_regex_quote_meta;
  t["regexFindAll"] = fn_regex_find_all;
}

}  // namespace sbr::render::helm
