// Tests for quoting user input in error messages, and that every parser's error goes through it: no NUL cut, valid UTF-8, a capped echo.
#include "core/text.h"

#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "core/errors.h"
#include "core/game_parameters.h"
#include "games/registry.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

using namespace std::string_literals;

TEST(QuoteInput, PlainTextIsQuotedAsIs) {
  EXPECT_EQ(quote_input("e5"), "'e5'");
  EXPECT_EQ(quote_input(""), "''");
  EXPECT_EQ(quote_input("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80"), "'caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80'");
}

TEST(QuoteInput, ControlBytesAndNulAreEscaped) {
  EXPECT_EQ(quote_input("a1\0b"s), "'a1\\x00b'");
  EXPECT_EQ(quote_input("a\tb\nc\x7f"), "'a\\x09b\\x0ac\\x7f'");
  EXPECT_EQ(quote_input("\xC2\x85"), "'\\xc2\\x85'");  // U+0085, a C1 control
}

TEST(QuoteInput, InvalidUtf8IsEscapedByteByByte) {
  EXPECT_EQ(quote_input("a\xFF" "1"), "'a\\xff1'");
  EXPECT_EQ(quote_input("\xC3"), "'\\xc3'");                  // truncated sequence
  EXPECT_EQ(quote_input("\xC0\xAF"), "'\\xc0\\xaf'");         // overlong '/'
  EXPECT_EQ(quote_input("\xED\xA0\x80"), "'\\xed\\xa0\\x80'");  // a surrogate
  EXPECT_EQ(quote_input("\xF4\x90\x80\x80"), "'\\xf4\\x90\\x80\\x80'");  // past U+10FFFF
  EXPECT_EQ(quote_input("\x80x"), "'\\x80x'");                // stray continuation byte
}

TEST(QuoteInput, LongInputIsCappedWithItsLength) {
  const std::string big(5'000'000, 'a');
  const std::string quoted = quote_input(big);
  EXPECT_EQ(quoted, "'" + std::string(kInputEchoChars, 'a') + "\xE2\x80\xA6' (5000000 bytes)");
  EXPECT_EQ(quote_input(std::string(kInputEchoChars, 'b')), "'" + std::string(kInputEchoChars, 'b') + "'");
  // The cap counts characters, and never cuts a multi-byte one.
  std::string accents;
  for (int i = 0; i < 100; ++i) accents += "\xC3\xA9";
  EXPECT_FALSE(invalid_utf8_at(quote_input(accents)).has_value());
}

TEST(QuoteInput, TheResultIsAlwaysValidUtf8WithoutNul) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  const std::string quoted = quote_input(all + all + all);
  EXPECT_FALSE(invalid_utf8_at(quoted).has_value());
  EXPECT_EQ(quoted.find('\0'), std::string::npos);
}

TEST(InvalidUtf8At, FindsTheFirstBadByte) {
  EXPECT_FALSE(invalid_utf8_at("abc \xC3\xA9").has_value());
  EXPECT_EQ(invalid_utf8_at("ab\xFF"), 2u);
  EXPECT_EQ(invalid_utf8_at("\xC3\xA9\xC3"), 2u);
}

TEST(ValidUtf8, OnlyStrayBytesAreEscaped) {
  // A message keeps its newlines, tabs and valid characters; only what Python cannot decode changes.
  EXPECT_EQ(valid_utf8("line 1\n\tcaf\xC3\xA9"), "line 1\n\tcaf\xC3\xA9");
  EXPECT_EQ(valid_utf8("at '\xFF' and \xC3"), "at '\\xff' and \\xc3");
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\\xed\\xa0\\x80");  // an encoded surrogate is no UTF-8
  EXPECT_EQ(valid_utf8(""), "");
}

// Each parser that echoes its input: the message keeps the part after a NUL, is valid UTF-8,
// and stays short for a huge token.
void expect_quoted(const std::string& message, const std::string& shown) {
  EXPECT_NE(message.find(shown), std::string::npos) << message;
  EXPECT_FALSE(invalid_utf8_at(message).has_value()) << message;
  EXPECT_EQ(message.find('\0'), std::string::npos);
  EXPECT_LT(message.size(), 600u) << message.size();
}

TEST(ParserErrors, GameStrings) {
  expect_quoted(error_of([] { parse_game_string("virus\0war"s); }), "'virus\\x00war'");
  expect_quoted(error_of([] { parse_game_string("virus_war(strict=\xFF"); }), "\\xff");
  expect_quoted(error_of([] { load_game("virus_war(strict=\xFF)"); }), "'\\xff'");
  expect_quoted(error_of([] { load_game(std::string(5'000'000, 'x')); }), "(5000000 bytes)");
  expect_quoted(error_of([] { load_game("virus_war(strict=" + std::string(5'000'000, '1') + ")"); }), "bytes)");
}

TEST(ParserErrors, ActionStringsAndRecords) {
  for (const char* name : {"virus_war", "morabaraba"}) {
    const auto game = load_game(name);
    const auto state = game->new_initial_state();
    expect_quoted(error_of([&] { state->string_to_action("a1\0b"s); }), "'a1\\x00b'");
    expect_quoted(error_of([&] { state->string_to_action("\xFF\xFE"); }), "'\\xff\\xfe'");
    expect_quoted(error_of([&] { state->string_to_action(std::string(5'000'000, 'z')); }), "(5000000 bytes)");
    expect_quoted(error_of([&] { game->load_record(std::string(5'000'000, 'z')); }), "(5000000 bytes)");
    expect_quoted(error_of([&] { game->load_record("z\xFF"); }), "'z\\xff'");
  }
}

struct TinyConfig {
  std::int64_t count = 1;
  std::string mode = "a";
  template <class V>
  void visit(V& v) {
    v("count", count, "a count", Range::between(0, 10));
    v("mode", mode, "a mode", Choices{"a", "b"});
  }
};

TEST(ParserErrors, ConfigKeysAndValues) {
  const auto set = [](const std::string& item) {
    TinyConfig c;
    Config(c).set(item);
  };
  expect_quoted(error_of<ConfigError>([&] { set("co\0unt=1"s); }), "'co\\x00unt'");
  expect_quoted(error_of<ConfigError>([&] { set("mode=\xFF"); }), "'\\xff'");
  expect_quoted(error_of<ConfigError>([&] { set(std::string(5'000'000, 'k') + "=1"); }), "(5000000 bytes)");
  expect_quoted(error_of<ConfigError>([&] { set("mode=" + std::string(5'000'000, 'v')); }), "(5000000 bytes)");
  expect_quoted(error_of<ConfigError>([&] {
                  TinyConfig c;
                  Config(c).set_options("count=1,\xFF\0"s, "option");
                }),
                "'\\xff\\x00'");
}

}  // namespace
}  // namespace boardlab
