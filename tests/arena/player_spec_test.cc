// Tests for the player spec syntax: kinds, arguments, options in parentheses, quoting, lists split at top-level commas, and each malformed input with its message.
#include "arena/player_spec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

using Options = std::vector<std::pair<std::string, std::string>>;

TEST(PlayerSpec, KindArgumentAndOptions) {
  const PlayerSpec random = parse_player_spec("random");
  EXPECT_EQ(random.kind, "random");
  EXPECT_FALSE(random.argument);
  EXPECT_TRUE(random.options.empty());

  const PlayerSpec uct = parse_player_spec(" uct:200 ");
  EXPECT_EQ(uct.kind, "uct");
  EXPECT_EQ(uct.argument, "200");

  const PlayerSpec mcts = parse_player_spec("mcts( algorithm = puct , simulations=8 )");
  EXPECT_EQ(mcts.kind, "mcts");
  EXPECT_FALSE(mcts.argument);
  EXPECT_EQ(mcts.options, (Options{{"algorithm", "puct"}, {"simulations", "8"}}));
  EXPECT_EQ(mcts.option("simulations"), "8");
  EXPECT_FALSE(mcts.option("c_puct"));
  EXPECT_TRUE(parse_player_spec("mcts()").options.empty());

  const PlayerSpec agent = parse_player_spec("agent:runs/x/checkpoints/latest.pt(simulations=8)");
  EXPECT_EQ(agent.argument, "runs/x/checkpoints/latest.pt");
  EXPECT_EQ(agent.options, (Options{{"simulations", "8"}}));
  EXPECT_EQ(parse_player_spec("agent:/tmp/a b.pt").argument, "/tmp/a b.pt");
  EXPECT_EQ(parse_player_spec("mcts(name=)").option("name"), "");
}

TEST(PlayerSpec, QuotedArgumentsAndValues) {
  const PlayerSpec agent = parse_player_spec("agent:'my,run/(1)/latest.pt'(simulations=8)");
  EXPECT_EQ(agent.argument, "my,run/(1)/latest.pt");
  EXPECT_EQ(agent.options, (Options{{"simulations", "8"}}));
  EXPECT_EQ(parse_player_spec("agent:\"it's.pt\"").argument, "it's.pt");
  EXPECT_EQ(parse_player_spec(R"(agent:'it\'s \\ here.pt')").argument, R"(it's \ here.pt)");
  // A backslash before anything else stays: Windows paths read as typed.
  EXPECT_EQ(parse_player_spec(R"(agent:'C:\runs\x.pt')").argument, R"(C:\runs\x.pt)");
  EXPECT_EQ(parse_player_spec("mcts(note='a,b)c')").option("note"), "a,b)c");
  EXPECT_EQ(parse_player_spec("agent:' padded '").argument, " padded ");
  EXPECT_EQ(parse_player_spec("agent:'k=v.pt'").argument, "k=v.pt");
}

TEST(PlayerSpec, TheCanonicalTextReadsBack) {
  for (const PlayerSpec& spec : std::vector<PlayerSpec>{
           {"random", std::nullopt, {}},
           {"uct", "200", {{"rollouts", "2"}}},
           {"agent", "my,run/(1)/it's \\ latest.pt", {{"simulations", "8"}, {"note", "a,b"}}},
           {"agent", " x ", {}},
           {"agent", "k=v.pt", {}},
           {"mcts", std::nullopt, {{"name", ""}}},
       }) {
    const std::string text = player_spec_string(spec);
    SCOPED_TRACE(text);
    const PlayerSpec back = parse_player_spec(text);
    EXPECT_EQ(back.kind, spec.kind);
    EXPECT_EQ(back.argument, spec.argument);
    EXPECT_EQ(back.options, spec.options);
  }
  EXPECT_EQ(player_spec_string({"agent", "my,run/latest.pt", {{"simulations", "8"}}}),
            "agent:'my,run/latest.pt'(simulations=8)");
  EXPECT_EQ(player_spec_string({"uct", "200", {}}), "uct:200");
}

TEST(PlayerSpecList, SplitsOnlyAtTopLevelCommas) {
  EXPECT_EQ(split_player_specs("random, uct:200"), (std::vector<std::string>{"random", "uct:200"}));
  EXPECT_EQ(split_player_specs("agent:ck.pt(simulations=8),mcts(algorithm=puct,simulations=8),random"),
            (std::vector<std::string>{"agent:ck.pt(simulations=8)", "mcts(algorithm=puct,simulations=8)", "random"}));
  EXPECT_EQ(split_player_specs("agent:'my,run/latest.pt'(simulations=8),random"),
            (std::vector<std::string>{"agent:'my,run/latest.pt'(simulations=8)", "random"}));
  EXPECT_EQ(split_player_specs("mcts(note='x,(y'),random"),
            (std::vector<std::string>{"mcts(note='x,(y')", "random"}));
}

TEST(PlayerSpecList, TheOldCommaSpellingNamesTheNewOne) {
  EXPECT_EQ(error_of([] { split_player_specs("agent:ck.pt,simulations=8,random"); }),
            "player 'agent:ck.pt,simulations=8,random': options go in parentheses, as in game strings: write "
            "'agent:ck.pt(simulations=8),random' (the comma form 'kind:key=value,...' is no longer read)");
  EXPECT_NE(error_of([] { split_player_specs("mcts:algorithm=puct,simulations=8"); })
                .find("write 'mcts(algorithm=puct,simulations=8)'"),
            std::string::npos);
  EXPECT_NE(error_of([] { split_player_specs("random,uct:200,uct_c=2"); }).find("write 'random,uct:200(uct_c=2)'"),
            std::string::npos);
  // One spec of a config's list, written the old way.
  EXPECT_NE(error_of([] { parse_player_spec("mcts:simulations=8,algorithm=puct"); })
                .find("write 'mcts(simulations=8,algorithm=puct)'"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_player_spec("mcts:simulations=8"); }).find("write 'mcts(simulations=8)'"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_player_spec("agent:ck.pt,simulations=8"); }).find("write 'agent:ck.pt(simulations=8)'"),
            std::string::npos);
}

TEST(PlayerSpec, EachMalformedInputSaysWhat) {
  const auto error = [](const char* text) { return error_of([&] { parse_player_spec(text); }); };
  EXPECT_EQ(error(""), "player '': it is empty; a spec is kind[:argument][(key=value,...)], e.g. uct:200");
  EXPECT_EQ(error("(a=1)"), "player '(a=1)': expected a player kind (random, uct, mcts, agent...) at byte 1");
  EXPECT_EQ(error("uct:"), "player 'uct:': nothing after ':'");
  EXPECT_EQ(error("mcts(simulations=8"), "player 'mcts(simulations=8': '(' without a closing ')'");
  EXPECT_EQ(error("mcts(simulations)"), "player 'mcts(simulations)': option 'simulations' is not of the form key=value");
  EXPECT_EQ(error("mcts(=8)"), "player 'mcts(=8)': option '=8' is not of the form key=value");
  EXPECT_EQ(error("mcts(a=1,a=2)"), "player 'mcts(a=1,a=2)': option 'a' given twice");
  EXPECT_EQ(error("mcts(a=1)(b=2)"), "player 'mcts(a=1)(b=2)': unexpected '(b=2)' after the spec (one set of options per spec)");
  EXPECT_EQ(error("uct:200)"), "player 'uct:200)': unexpected ')' after the spec");
  EXPECT_EQ(error("agent:'x.pt"), "player 'agent:'x.pt': the quote ' of the argument after ':' is never closed");
  EXPECT_EQ(error("agent:x'y.pt"), "player 'agent:x'y.pt': the argument after ':' has a quote inside; quote the whole of it: 'like this'");
  EXPECT_EQ(error("mcts(note=a(b))"), "player 'mcts(note=a(b))': the value of 'note' has a '(' inside; quote it: 'like (this)'");
  EXPECT_EQ(error("mcts(a='1' b)"), "player 'mcts(a='1' b)': unexpected 'b' at byte 12 in the options");
  // A bare argument or value runs to the next , ( ) and may hold spaces: a path with a space.
  EXPECT_EQ(parse_player_spec("uct:200 x").argument, "200 x");
  // Input is quoted one way (core/text.h): NUL and bytes that are not UTF-8 shown, long input capped.
  EXPECT_EQ(error_of([] { parse_player_spec(std::string("uc\0t", 4)); }),
            "player 'uc\\x00t': unexpected '\\x00t' after the spec");
  EXPECT_NE(error_of([] { parse_player_spec(std::string(100000, 'x') + "("); }).find("(100001 bytes)"), std::string::npos);
}

TEST(PlayerSpecList, MalformedListsSayWhat) {
  const auto error = [](const char* text) { return error_of([&] { split_player_specs(text); }); };
  EXPECT_EQ(error("random,,uct:5"), "players 'random,,uct:5': player 2 of 3 is empty");
  EXPECT_EQ(error("random,"), "players 'random,': player 2 of 2 is empty");
  EXPECT_EQ(error("random,mcts(a=1"), "player 'random,mcts(a=1': '(' without a closing ')'");
  EXPECT_EQ(error("random),uct:5"), "player 'random),uct:5': ')' at byte 7 closes nothing");
  EXPECT_EQ(error("agent:'a,b,random"), "player 'agent:'a,b,random': the quote ' at byte 7 is never closed");
  EXPECT_EQ(error("random,mcts(a)"), "player 'mcts(a)': option 'a' is not of the form key=value");
}

}  // namespace
}  // namespace boardlab
