// Tests for the game registry: loading games by name and parameters, and the errors for bad names and values.
#include "games/registry.h"

#include <gtest/gtest.h>

#include <string>

#include "core/errors.h"
#include "games/virus_war/virus_war.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {


TEST(Registry, ListsVirusWarWithItsParameter) {
  const GameSpec& spec = find_game("virus_war");
  EXPECT_EQ(spec.name, "virus_war");
  EXPECT_FALSE(spec.description.empty());
  ASSERT_EQ(spec.params.size(), 1u);
  EXPECT_EQ(spec.params[0].name, "strict");
  EXPECT_EQ(spec.params[0].default_value, ParamValue(false));
  bool listed = false;
  for (const GameSpec& game : registered_games()) listed = listed || game.name == "virus_war";
  EXPECT_TRUE(listed);
}

TEST(Registry, LoadsVirusWarWithDefaults) {
  const auto game = load_game("virus_war");
  ASSERT_NE(game, nullptr);
  EXPECT_EQ(game->name(), "virus_war");
  EXPECT_EQ(game->to_string(), "virus_war(strict=false)");
  EXPECT_EQ(game->num_players(), 2);
  EXPECT_EQ(game->num_distinct_actions(), 101);
  const auto* virus_war = dynamic_cast<const VirusWarGame*>(game.get());
  ASSERT_NE(virus_war, nullptr);
  EXPECT_FALSE(virus_war->strict());
}

TEST(Registry, LoadsStrictVirusWar) {
  for (const char* text : {"virus_war(strict=true)", "virus_war( strict = 1 )", "virus_war(strict=True)"}) {
    const auto game = load_game(text);
    const auto* virus_war = dynamic_cast<const VirusWarGame*>(game.get());
    ASSERT_NE(virus_war, nullptr) << text;
    EXPECT_TRUE(virus_war->strict()) << text;
    EXPECT_EQ(game->to_string(), "virus_war(strict=true)") << text;
  }
  const auto typed = load_game("virus_war", GameParameters{{"strict", true}});
  EXPECT_TRUE(dynamic_cast<const VirusWarGame&>(*typed).strict());
}

TEST(Registry, StrictChangesTheRules) {
  // Guards against a parameter that is accepted but ignored: pass is legal after entering
  // only without strict.
  for (bool strict : {false, true}) {
    const auto game = load_game(strict ? "virus_war(strict=true)" : "virus_war");
    const auto state = game->load_record("a1-b2-c3 k10-i9-h8");
    const auto actions = state->legal_actions();
    const bool can_pass = !actions.empty() && actions.back() == VirusWarGame::kPass;
    EXPECT_EQ(can_pass, !strict);
  }
}

TEST(Registry, UnknownGameNamesItAndListsKnownGames) {
  const std::string message = error_of<GameParameterError>([] { load_game("tic_tac_toe"); });
  EXPECT_NE(message.find("'tic_tac_toe'"), std::string::npos) << message;
  EXPECT_NE(message.find("known games: virus_war"), std::string::npos) << message;
  EXPECT_NE(error_of<GameParameterError>([] { load_game("virus_wars(strict=true)"); }).find("'virus_wars'"), std::string::npos);
  EXPECT_NE(error_of<GameParameterError>([] { find_game("chess"); }).find("'chess'"), std::string::npos);
}

TEST(Registry, UnknownParameterNamesItAndTheKnownOnes) {
  const std::string message = error_of<GameParameterError>([] { load_game("virus_war(size=12)"); });
  EXPECT_NE(message.find("'virus_war'"), std::string::npos) << message;
  EXPECT_NE(message.find("'size'"), std::string::npos) << message;
  EXPECT_NE(message.find("strict"), std::string::npos) << message;
}

TEST(Registry, BadBoolValueNamesParameterTypeAndValue) {
  const std::string message = error_of<GameParameterError>([] { load_game("virus_war(strict=maybe)"); });
  EXPECT_NE(message.find("'strict'"), std::string::npos) << message;
  EXPECT_NE(message.find("bool"), std::string::npos) << message;
  EXPECT_NE(message.find("'maybe'"), std::string::npos) << message;
  const std::string typed =
      error_of<GameParameterError>([] { load_game("virus_war", GameParameters{{"strict", std::int64_t{2}}}); });
  EXPECT_NE(typed.find("expects bool"), std::string::npos) << typed;
}

TEST(Registry, MalformedGameStringIsAParameterError) {
  EXPECT_THROW(load_game("virus_war(strict=true"), GameParameterError);
  EXPECT_THROW(load_game("virus_war(strict)"), GameParameterError);
}

TEST(Registry, GameToStringRoundTripsThroughLoadGame) {
  for (const char* text : {"virus_war", "virus_war(strict=false)", "virus_war(strict=true)"}) {
    const auto game = load_game(text);
    const auto again = load_game(game->to_string());
    EXPECT_EQ(again->to_string(), game->to_string()) << text;
    EXPECT_EQ(again->parameters(), game->parameters()) << text;
  }
}

}  // namespace
}  // namespace boardlab
