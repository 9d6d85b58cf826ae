// Tests for game parameters: the "name(key=value,...)" text form, typed resolution against specs, printing.
#include "core/game_parameters.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {


const std::vector<ParamSpec> kSpecs = {
    {"strict", false, "a bool"},
    {"size", std::int64_t{10}, "an int"},
    {"komi", 0.5, "a float"},
    {"variant", std::string("classic"), "a string"},
};

TEST(ParseGameString, NameOnly) {
  const GameString parsed = parse_game_string("virus_war");
  EXPECT_EQ(parsed.name, "virus_war");
  EXPECT_TRUE(parsed.params.empty());
}

TEST(ParseGameString, ParametersKeepTheirTextAndSurroundingSpaceIsIgnored) {
  const GameString parsed = parse_game_string("  virus_war ( strict = true , size=12 )  ");
  EXPECT_EQ(parsed.name, "virus_war");
  const std::map<std::string, std::string> expected = {{"strict", "true"}, {"size", "12"}};
  EXPECT_EQ(parsed.params, expected);
}

TEST(ParseGameString, EmptyParenthesesMeanNoParameters) {
  const GameString parsed = parse_game_string("virus_war()");
  EXPECT_EQ(parsed.name, "virus_war");
  EXPECT_TRUE(parsed.params.empty());
}

TEST(ParseGameString, MalformedTextIsRejectedWithTheReason) {
  EXPECT_NE(error_of<GameParameterError>([] { parse_game_string("virus_war(strict=true"); }).find("closing ')'"),
            std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { parse_game_string("virus_war(strict)"); }).find("key=value"), std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { parse_game_string("virus_war(a=1,a=2)"); }).find("given twice"),
            std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { parse_game_string("virus_war(bad-key=1)"); }).find("'bad-key'"),
            std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { parse_game_string("virus war"); }).find("not a game name"), std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { parse_game_string(""); }).find("not a game name"), std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { parse_game_string("(strict=true)"); }).find("not a game name"), std::string::npos);
}

TEST(ResolveParameters, DefaultsFillEveryParameter) {
  const GameParameters resolved = resolve_parameters("g", kSpecs, {});
  ASSERT_EQ(resolved.size(), 4u);
  EXPECT_EQ(std::get<bool>(resolved.at("strict")), false);
  EXPECT_EQ(std::get<std::int64_t>(resolved.at("size")), 10);
  EXPECT_EQ(std::get<double>(resolved.at("komi")), 0.5);
  EXPECT_EQ(std::get<std::string>(resolved.at("variant")), "classic");
}

TEST(ResolveParameters, TypedValuesAndTextAreAccepted) {
  const GameParameters resolved = resolve_parameters(
      "g", kSpecs, {{"strict", true}, {"size", std::string("12")}, {"komi", std::string("-1.25")}});
  EXPECT_EQ(std::get<bool>(resolved.at("strict")), true);
  EXPECT_EQ(std::get<std::int64_t>(resolved.at("size")), 12);
  EXPECT_EQ(std::get<double>(resolved.at("komi")), -1.25);
  EXPECT_EQ(std::get<std::string>(resolved.at("variant")), "classic");
}

// The spellings of configs and search options too (core/text.h parse_bool).
TEST(ResolveParameters, BoolTextForms) {
  for (const char* yes : {"true", "True", "TRUE", "1"})
    EXPECT_TRUE(std::get<bool>(resolve_parameters("g", kSpecs, {{"strict", std::string(yes)}}).at("strict")))
        << yes;
  for (const char* no : {"false", "False", "FALSE", "0"})
    EXPECT_FALSE(std::get<bool>(resolve_parameters("g", kSpecs, {{"strict", std::string(no)}}).at("strict")))
        << no;
  for (const char* other : {"yes", "no", "on", "off"})
    EXPECT_NE(error_of<GameParameterError>([&] { resolve_parameters("g", kSpecs, {{"strict", std::string(other)}}); })
                  .find("expects bool, got '" + std::string(other) + "'"),
              std::string::npos)
        << other;
}

TEST(ResolveParameters, AnIntegerWidensToAFloatParameter) {
  const GameParameters resolved = resolve_parameters("g", kSpecs, {{"komi", std::int64_t{3}}});
  ASSERT_TRUE(std::holds_alternative<double>(resolved.at("komi")));
  EXPECT_EQ(std::get<double>(resolved.at("komi")), 3.0);
}

TEST(ResolveParameters, UnknownParameterNamesGameParameterAndTheKnownOnes) {
  const std::string message = error_of<GameParameterError>([] { resolve_parameters("mygame", kSpecs, {{"colour", true}}); });
  EXPECT_NE(message.find("'mygame'"), std::string::npos) << message;
  EXPECT_NE(message.find("'colour'"), std::string::npos) << message;
  EXPECT_NE(message.find("strict, size, komi, variant"), std::string::npos) << message;

  const std::string none = error_of<GameParameterError>([] { resolve_parameters("bare", {}, {{"x", true}}); });
  EXPECT_NE(none.find("none"), std::string::npos) << none;
}

TEST(ResolveParameters, WrongTypeNamesParameterAndExpectedType) {
  const std::string typed = error_of<GameParameterError>([] { resolve_parameters("g", kSpecs, {{"strict", std::int64_t{3}}}); });
  EXPECT_NE(typed.find("'strict'"), std::string::npos) << typed;
  EXPECT_NE(typed.find("expects bool"), std::string::npos) << typed;
  EXPECT_NE(typed.find("int 3"), std::string::npos) << typed;

  const std::string text = error_of<GameParameterError>([] { resolve_parameters("g", kSpecs, {{"size", std::string("12x")}}); });
  EXPECT_NE(text.find("'size'"), std::string::npos) << text;
  EXPECT_NE(text.find("expects int"), std::string::npos) << text;
  EXPECT_NE(text.find("'12x'"), std::string::npos) << text;

  // A float must not be silently truncated into an int parameter.
  EXPECT_NE(error_of<GameParameterError>([] { resolve_parameters("g", kSpecs, {{"size", 2.5}}); }).find("expects int"),
            std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { resolve_parameters("g", kSpecs, {{"size", std::string("")}}); }).find("expects int"),
            std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { resolve_parameters("g", kSpecs, {{"komi", std::string("half")}}); })
                .find("expects float"),
            std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { resolve_parameters("g", kSpecs, {{"strict", std::string("yes")}}); })
                .find("expects bool"),
            std::string::npos);
}

TEST(GameString, PrintsNameAloneOrSortedParameters) {
  EXPECT_EQ(game_string("g", {}), "g");
  const GameParameters params = {{"variant", std::string("x")}, {"strict", true}, {"size", std::int64_t{7}}};
  EXPECT_EQ(game_string("g", params), "g(size=7,strict=true,variant=x)");
}

TEST(GameString, RoundTripsThroughParseAndResolve) {
  const std::vector<GameParameters> cases = {
      {},
      {{"strict", true}},
      {{"size", std::int64_t{-3}}, {"komi", 0.1}, {"variant", std::string("wide")}},
      {{"komi", 1e-7}, {"strict", false}},
  };
  for (const GameParameters& given : cases) {
    const GameParameters full = resolve_parameters("g", kSpecs, given);
    const std::string text = game_string("g", full);
    const GameString parsed = parse_game_string(text);
    EXPECT_EQ(parsed.name, "g");
    GameParameters reread;
    for (const auto& [key, value] : parsed.params) reread[key] = value;
    // Doubles must print exactly (0.1 and 1e-7 included) for the round trip to be equal.
    EXPECT_EQ(resolve_parameters("g", kSpecs, reread), full) << text;
  }
}

TEST(ParamText, ValuesPrintAndParseBack) {
  EXPECT_EQ(param_to_string(true), "true");
  EXPECT_EQ(param_to_string(std::int64_t{-42}), "-42");
  EXPECT_EQ(param_to_string(std::string("abc")), "abc");
  EXPECT_EQ(std::get<double>(parse_param(param_to_string(0.1), 0.0, "x")), 0.1);
  EXPECT_EQ(param_type_name(1.0), "float");
  EXPECT_EQ(param_type_name(std::string()), "string");
}

}  // namespace
}  // namespace boardlab
