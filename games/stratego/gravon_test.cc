// Gravon XML: games written by hand from the format's description read into the engine, round trips, malformed files.
#include "games/stratego/gravon.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/random_play.h"
#include "games/registry.h"
#include "games/stratego/stratego.h"

namespace boardlab::stratego {
namespace {

// Barrage, ranks 1 to 10 (a1 first): Red's Flag a1, Bomb b1, Spy c1, Scouts d1 e1, Miner f1,
// General g1, Marshal h1; Blue the same on rank 10; lakes on c5 d5 g5 h5 and c6 d6 g6 h6.
const std::string kBarrageField = std::string("MBCDDEKLAA") + std::string(30, 'A') + "AA__AA__AA" + "AA__AA__AA" +
                                  std::string(30, 'A') + "YNOPPQWXAA";

std::string barrage_game(const std::string& moves, const std::string& result = R"(<result type="1" winner="1"/>)",
                         const std::string& field = kBarrageField) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n <game type = \"barrage\">\n"
         "  <field content=\"" + field + "\"/>\n" + moves +
         "  <player id =\"1\">R&amp;D</player>\n  <player id =\"2\">blue &#x263A;</player>\n  " + result +
         "\n </game>\n</stratego>\n";
}

// Red's Scout takes Blue's on e10 (both fall), then another runs d1-d4-a4 and takes the Flag on a10.
const std::string kMoves =
    "  <move id=\"1\" source=\"E1\" target=\"E10\"/>\n  <move id=\"2\" source=\"G10\" target=\"G9\"/>\n"
    "  <move id=\"3\" source=\"D1\" target=\"D4\"/>\n  <move id=\"4\" source=\"G9\" target=\"G10\"/>\n"
    "  <move id=\"5\" source=\"D4\" target=\"A4\"/>\n  <move id=\"6\" source=\"G10\" target=\"G9\"/>\n"
    "  <move id=\"7\" source=\"A4\" target=\"A10\"/>\n";

TEST(Gravon, ReadsAHandWrittenBarrageGame) {
  const GravonGame g = read_gravon(barrage_game(kMoves));
  EXPECT_EQ(g.game->to_string(),
            "stratego(blue_setup=,chasing_rule=false,move_cap=0,observed_moves=1,red_setup=,setup=play,two_square_limit=5,variant=barrage)");
  const std::string red = "FB12239X" + std::string(32, '.');
  const std::string blue = "..X9322" "1BF" + std::string(30, '.');
  EXPECT_EQ(g.state->record(), red + " " + blue + " e1-e10 g10-g9 d1-d4 g9-g10 d4-a4 g10-g9 a4-a10");
  // The strike shows both Scouts to both players.
  EXPECT_NE(g.state->record_for(1).find("e1-e10=22"), std::string::npos);
  ASSERT_TRUE(g.state->is_terminal());
  const auto& st = static_cast<const StrategoState&>(*g.state);
  EXPECT_EQ(st.end_reason(), StrategoState::EndReason::kFlagCaptured);
  EXPECT_EQ(g.state->returns(), (std::vector<double>{1, -1}));
  EXPECT_EQ(g.players[0], "R&D");
  EXPECT_EQ(g.players[1], "blue \xE2\x98\xBA");
  EXPECT_EQ(g.winner, 0);
  EXPECT_EQ(g.result_type, 1);
}

TEST(Gravon, WritesTheGameItRead) {
  const GravonGame g = read_gravon(barrage_game(kMoves));
  const std::string xml = write_gravon(*g.state, g.players);
  EXPECT_EQ(xml,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n <game type=\"barrage\">\n"
            "  <field content=\"" + kBarrageField + "\"/>\n" + kMoves +
            "  <player id=\"1\">R&amp;D</player>\n  <player id=\"2\">blue \xE2\x98\xBA</player>\n"
            "  <result type=\"1\" winner=\"1\"/>\n </game>\n</stratego>\n");
  const GravonGame back = read_gravon(xml);
  EXPECT_EQ(back.state->record(), g.state->record());
  EXPECT_EQ(back.state->hash(), g.state->hash());
  EXPECT_EQ(back.players, g.players);
}

TEST(Gravon, ReadsLowerCaseSquaresAndTheArchivesJForK) {
  // Blue's General walks k-wards... from h10 the Marshal goes to i10, then k10 written as J10.
  const std::string moves =
      "  <move id=\"1\" source=\"h1\" target=\"h2\"/>\n  <move id=\"2\" source=\"H10\" target=\"I10\"/>\n"
      "  <move id=\"3\" source=\"H2\" target=\"H1\"/>\n  <move id=\"4\" source=\"I10\" target=\"J10\"/>\n";
  const GravonGame g = read_gravon(barrage_game(moves, ""));
  EXPECT_NE(g.state->record().find("h1-h2 h10-i10 h2-h1 i10-k10"), std::string::npos) << g.state->record();
  EXPECT_FALSE(g.state->is_terminal());
  EXPECT_EQ(g.winner, -1);
  EXPECT_EQ(g.result_type, -1);
}

TEST(Gravon, KeepsAResultTheMovesDoNotReach) {
  // Blue resigns (type 3) after one move each.
  const std::string moves =
      "  <move id=\"1\" source=\"H1\" target=\"H2\"/>\n  <move id=\"2\" source=\"H10\" target=\"H9\"/>\n";
  const GravonGame g = read_gravon(barrage_game(moves, R"(<result type="3" winner="1"/>)"));
  EXPECT_FALSE(g.state->is_terminal());
  EXPECT_EQ(g.winner, 0);
  EXPECT_EQ(g.result_type, 3);
  // Written back with the same result, it reads the same.
  const std::string xml = write_gravon(*g.state, g.players, g.winner, g.result_type);
  EXPECT_NE(xml.find("<result type=\"3\" winner=\"1\"/>"), std::string::npos);
  const GravonGame back = read_gravon(xml);
  EXPECT_EQ(back.winner, 0);
  EXPECT_EQ(back.result_type, 3);
  EXPECT_EQ(back.state->record(), g.state->record());
  // An ongoing game written without a result has none.
  EXPECT_EQ(write_gravon(*g.state).find("<result"), std::string::npos);
}

// Gravon's server judged chases by its own rule: an archived game with a third chase in a row
// (the rule file forbids it) replays, unless the caller asks for the rule file's rule.
TEST(Gravon, ReadsGamesThatBreakTheRuleFilesChasingRuleUnlessAskedToCheckIt) {
  // Red's General on e4 follows Blue's Miner from e7 as it flees: the last move is the third chase.
  const std::string field = std::string("MBCDAEALAD") + std::string(20, 'A') + "AAAAKAAAAA" + "AA__AA__AA" +
                            "AA__AA__AA" + "AAAAQAAAAA" + std::string(20, 'A') + "YNOPAAWXAP";
  std::string moves;
  int id = 0;
  for (const char* move : {"E4-E5", "D10-D9", "E5-E6", "E7-E8", "E6-E7", "E8-F8", "E7-F7", "F8-F9", "F7-F8"}) {
    const std::string m = move;
    const auto dash = m.find('-');
    moves += "  <move id=\"" + std::to_string(++id) + "\" source=\"" + m.substr(0, dash) + "\" target=\"" +
             m.substr(dash + 1) + "\"/>\n";
  }
  const std::string xml = barrage_game(moves, R"(<result type="3" winner="1"/>)", field);
  const GravonGame g = read_gravon(xml);
  EXPECT_FALSE(static_cast<const StrategoGame&>(*g.game).chasing_rule());
  EXPECT_NE(g.state->record().find("f7-f8"), std::string::npos);
  try {
    read_gravon(xml, "chasing_rule=true");
    ADD_FAILURE() << "the third chase was accepted under the rule file's chasing rule";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("F7-F8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("chasing rule"), std::string::npos) << e.what();
  }
}

TEST(Gravon, ParametersAddToTheGame) {
  const GravonGame g = read_gravon(barrage_game(kMoves), "two_square_limit=3,move_cap=50");
  EXPECT_EQ(g.game->to_string(),
            "stratego(blue_setup=,chasing_rule=false,move_cap=50,observed_moves=1,red_setup=,setup=play,two_square_limit=3,variant=barrage)");
  EXPECT_THROW(read_gravon(barrage_game(kMoves), "variant=classic"), GameParameterError);
  EXPECT_THROW(read_gravon(barrage_game(kMoves), "colour=red"), GameParameterError);
  EXPECT_THROW(read_gravon(barrage_game(kMoves), "move_cap=many"), GameParameterError);
}

// Random games of both variants, finished or cut short, written and read back under the same rules.
TEST(Gravon, RandomGamesRoundTrip) {
  for (const char* text : {"stratego(move_cap=300)", "stratego(variant=barrage)", "stratego(setup=random,variant=barrage)"}) {
    auto game = load_game(text);
    Rng rng(41);
    std::vector<Action> joint;
    for (int n = 0; n < 30; ++n) {
      auto s = game->new_initial_state();
      const int stop = n % 3 == 0 ? 80 + static_cast<int>(rng.below(200)) : 1 << 30;
      for (int step = 0; step < stop && !s->is_terminal(); ++step) apply_random_step(*s, rng, joint);
      const auto& st = static_cast<const StrategoState&>(*s);
      const std::string xml = write_gravon(*s, {"red", "blue"});
      const std::string cap = std::to_string(st.stratego().move_cap());
      const GravonGame back = read_gravon(xml, "two_square_limit=3,move_cap=" + cap);
      SCOPED_TRACE(std::string(text) + ", game " + std::to_string(n));
      std::vector<Action> expected, actual;
      for (const Step& step : s->history()) expected.push_back(step.action);
      for (const Step& step : back.state->history()) actual.push_back(step.action);
      if (st.setting_up()) {
        EXPECT_TRUE(actual.empty()) << "a setup in progress is not written";
        continue;
      }
      EXPECT_EQ(actual, expected);
      EXPECT_EQ(back.state->to_string(), s->to_string());
      EXPECT_EQ(back.state->is_terminal(), s->is_terminal());
      if (s->is_terminal()) {
        EXPECT_EQ(back.state->returns(), s->returns());
        EXPECT_EQ(back.winner, st.winner());
      }
      EXPECT_EQ(write_gravon(*back.state, back.players, back.winner, back.result_type), xml);
    }
  }
}

void expect_refused(const std::string& xml, const std::string& reason, std::string_view parameters = "") {
  try {
    read_gravon(xml, parameters);
    ADD_FAILURE() << "accepted:\n" << xml;
  } catch (const NotationError& e) {
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << "expected '" << reason << "' in: " << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("gravon: ", 0), 0u) << e.what();
  }
}

std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Gravon, MalformedFilesAreRefusedWithTheReason) {
  const std::string good = barrage_game(kMoves);
  // XML
  expect_refused("", "no XML element");
  expect_refused("   \n", "no XML element");
  expect_refused("hello", "text 'hello' outside the root element");
  expect_refused("<stratego><game type=\"barrage\">", "<game> on line 1 is never closed");
  expect_refused("<stratego><game type=\"barrage\"></stratego>", "</stratego> closes <game> on line 1");
  expect_refused("<stratego></stratego><stratego/>", "a second root element");
  expect_refused("<stratego><game type=barrage/></stratego>", "must be quoted");
  expect_refused("<stratego><game type=\"barrage\" type=\"classic\"/></stratego>", "the attribute type twice");
  expect_refused("<stratego><game type=\"barrage/></stratego>", "is never closed");
  expect_refused("<stratego><!-- unclosed </stratego>", "comment <!-- is never closed");
  expect_refused(with(good, "R&amp;D", "R&D"), "a bare '&'");
  expect_refused(with(good, "R&amp;D", "&nbsp;"), "the entity &nbsp; is not one of");
  expect_refused(with(good, "&#x263A;", "&#xD800;"), "is not a character");
  expect_refused(with(good, "<player id =\"1\">", "<player id =\"1\"\n>\n< "), "line 14: a tag has no name");
  // The format
  expect_refused("<game type=\"barrage\"/>", "the root element is <game>");
  expect_refused("<stratego/>", "<stratego> holds no <game>");
  expect_refused("<stratego><game type=\"barrage\"/><game type=\"barrage\"/></stratego>", "a second <game>");
  expect_refused("<stratego><x><game type=\"barrage\"/></x></stratego>", "not directly inside <stratego>");
  expect_refused(with(good, "type = \"barrage\"", ""), "has no type");
  expect_refused(with(good, "type = \"barrage\"", "type=\"duell\""), "'duell' is not one this engine plays");
  expect_refused(with(good, "<field content=", "<field contents="), "<field> on line 4 has no content");
  expect_refused(with(good, kBarrageField, kBarrageField.substr(1)), "has 99 characters");
  expect_refused(with(good, "MBCDDEKLAA", "MBCDDEKLAZ"), "'Z' at index 9 (square K1); it is written with A");
  expect_refused(with(good, "AA__AA__AA", "AAA_AA__AA"), "'A' at index 42 (square C5), a lake");
  expect_refused(with(good, "AA__AA__AA", "_A__AA__AA"), "a lake '_' at index 40 (square A5)");
  expect_refused(with(good, "MBCDDEKLAA", "MBCDDEKLAM"), "gives Red 2 Flag(s); barrage has 1");
  expect_refused(with(good, "YNOPPQWXAA", "YNOPPQWXAC"), "Red's Spy at index 99 (square K10); Red sets up on ranks 1-4");
  expect_refused(with(good, "<field content=\"" + kBarrageField + "\"/>", ""), "moves without a <field>");
  expect_refused(with(good, "source=\"E1\"", "source=\"E0\""), "squares are A1..K10");
  expect_refused(with(good, "target=\"E10\"", "target=\"F10\""), "move 1 (line 5) E1-F10 is refused");
  expect_refused(with(good, "source=\"E1\" target=\"E10\"", "source=\"B1\" target=\"B2\""),
                 "move 1 (line 5) B1-B2 is refused: illegal action");
  expect_refused(with(good, "source=\"E1\"", ""), "needs a source and a target");
  expect_refused(with(good, "<move id=\"2\"", "<move id=\"3\""), "move 2 (line 6) has id '3'");
  expect_refused(with(good, "<move id=\"2\"", "<move id=\"two\""), "id must be a number");
  expect_refused(with(good, "</game>", "<move source=\"G9\" target=\"G8\"/></game>"), "comes after the end of the game");
  expect_refused(with(good, "winner=\"1\"", "winner=\"2\""), "says Blue winning; the moves end with Red winning");
  expect_refused(with(good, "winner=\"1\"", "winner=\"7\""), "it is 1 Red, 2 Blue or 3 a draw");
  expect_refused(with(good, "winner=\"1\"", ""), "has no winner");
  expect_refused(with(good, "<player id =\"2\">", "<player id=\"0\">"), "needs id 1 (Red) or 2 (Blue)");
}

TEST(Gravon, WritingSaysWhatItCannotWrite) {
  auto other = load_game("virus_war");
  EXPECT_THROW(write_gravon(*other->new_initial_state()), InputError);
  auto game = load_game("stratego(variant=barrage)");
  auto s = game->new_initial_state();
  EXPECT_THROW(write_gravon(*s, {}, 0), InputError);  // a winner without its result type
  EXPECT_THROW(write_gravon(*s, {}, 5, 1), InputError);
  // Half a setup: no field yet (Gravon has none), nor moves.
  s->apply(s->string_to_action("F"));
  const std::string xml = write_gravon(*s);
  EXPECT_EQ(xml.find("<field"), std::string::npos);
  EXPECT_FALSE(read_gravon(xml).state->is_terminal());
}

}  // namespace
}  // namespace boardlab::stratego
