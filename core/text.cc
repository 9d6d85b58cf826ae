// User input quoted for error messages: every byte visible, valid UTF-8 out, the echo capped.
#include "core/text.h"

#include <cstdint>

namespace boardlab {
namespace {

// The length of the valid UTF-8 sequence at the start of `s` (1..4), or 0 when it is not
// one: a stray continuation byte, a truncated sequence, an overlong form, a surrogate or a
// code point past U+10FFFF.
std::size_t utf8_length(std::string_view s, char32_t& code) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  std::size_t n;
  char32_t min;
  if (b0 < 0x80) {
    code = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    n = 2, min = 0x80, code = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3, min = 0x800, code = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4, min = 0x10000, code = b0 & 0x07;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) return 0;
    code = (code << 6) | (b & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return n;
}

void append_byte(std::string& out, unsigned char b) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

// Appends `s` to `out` escaped, at most `max_chars` characters of it; true when some was left out.
bool escape(std::string_view s, std::size_t max_chars, std::string& out) {
  std::size_t chars = 0, i = 0;
  while (i < s.size() && chars < max_chars) {
    char32_t code;
    const std::size_t n = utf8_length(s.substr(i), code);
    if (n == 0 || code < 0x20 || code == 0x7F || (code >= 0x80 && code < 0xA0)) {
      // A control character (C0, DEL, C1) or a byte that is no UTF-8: each byte as \xNN.
      const std::size_t bytes = n == 0 ? 1 : n;
      for (std::size_t k = 0; k < bytes; ++k) append_byte(out, static_cast<unsigned char>(s[i + k]));
      i += bytes;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
    ++chars;
  }
  return i < s.size();
}

}  // namespace

std::optional<std::size_t> invalid_utf8_at(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    char32_t code;
    const std::size_t n = utf8_length(s.substr(i), code);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

std::string valid_utf8(std::string_view s) {
  if (!invalid_utf8_at(s)) return std::string(s);
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    char32_t code;
    const std::size_t n = utf8_length(s.substr(i), code);
    if (n == 0) {
      append_byte(out, static_cast<unsigned char>(s[i]));
      i += 1;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string escape_input(std::string_view s, std::size_t max_chars) {
  std::string out;
  if (escape(s, max_chars, out)) out += "\xE2\x80\xA6 (" + std::to_string(s.size()) + " bytes)";
  return out;
}

std::string quote_input(std::string_view s) {
  std::string out = "'";
  // The length note stays outside the quotes: it is not part of the input.
  const bool cut = escape(s, kInputEchoChars, out);
  out += cut ? "\xE2\x80\xA6' (" + std::to_string(s.size()) + " bytes)" : "'";
  return out;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace boardlab
