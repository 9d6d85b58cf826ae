// The conformance suite: every registered game, each preset and every toy, checked by the same random-play invariants.
//
// A new game gets all of this by registering (games/registry.cc); presets come from its
// GameSpec. Per-step checks run at every step; the costlier ones (clones, illegal actions,
// hidden-state samples, symmetries, swapped sub-moves) at a random sample of steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/errors.h"
#include "core/game.h"
#include "core/player_view.h"
#include "core/random_play.h"
#include "tests/conformance/game_catalog.h"
#include "tests/test_scale.h"

namespace boardlab {
namespace {

// Everything observable that a refused action must leave alone.
struct Snapshot {
  std::uint64_t hash;
  std::string text;
  std::vector<Step> history;
  std::vector<std::vector<Action>> legal;  // per seat, then chance
  explicit Snapshot(const State& s) : hash(s.hash()), text(s.to_string()), history(s.history()) {
    for (Player p = 0; p < s.game().num_players(); ++p) legal.push_back(s.legal_actions(p));
    legal.push_back(s.legal_actions(kChancePlayer));
  }
  bool operator==(const Snapshot&) const = default;
};

std::vector<float> observe(const State& s, Player p) {
  std::vector<float> out(s.game().observation_shape().size());
  s.observation(p, out);
  return out;
}

class Conformance : public ::testing::TestWithParam<int> {
 protected:
  const CatalogGame& entry() const { return catalog_games()[GetParam()]; }
  const Game& game() const { return *entry().game; }
};

// Legal lists at every node: ascending, in range, for exactly the players who act; the mask agrees.
// This runs at every step of every game, so the mask is compared as a whole (an assertion per
// action of Stratego's 3,613 made its thousand games take most of an hour).
void check_legal_sets(const State& s) {
  const Game& g = s.game();
  const Player actor = s.current_player();
  const int actions = g.num_distinct_actions();
  std::vector<std::uint8_t> mask(actions), expected(actions);
  for (Player p = kChancePlayer; p < g.num_players(); ++p) {
    const std::vector<Action> legal = s.legal_actions(p);
    const bool acts = !s.is_terminal() && (p == actor || (actor == kSimultaneousPlayer && p >= 0));
    ASSERT_EQ(!legal.empty(), acts) << "player " << p << " at\n" << s.to_string();
    ASSERT_TRUE(std::adjacent_find(legal.begin(), legal.end(), std::greater_equal<>()) == legal.end())
        << "legal actions of " << p << " are not ascending and unique";
    for (Action a : legal) ASSERT_TRUE(a >= 0 && a < actions) << a;
    if (p < 0) continue;
    s.legal_mask(p, mask);
    std::fill(expected.begin(), expected.end(), 0);
    for (Action a : legal) expected[a] = 1;
    if (mask == expected) continue;
    const auto at = std::mismatch(mask.begin(), mask.end(), expected.begin()).first - mask.begin();
    FAIL() << "mask of " << p << " at " << at << " says " << int{mask[at]} << ", the legal list "
           << int{expected[at]};
  }
  if (s.is_chance_node()) {
    const std::vector<ChanceOutcome> outcomes = s.chance_outcomes();
    const std::vector<Action> legal = s.legal_actions(kChancePlayer);
    ASSERT_EQ(outcomes.size(), legal.size());
    double total = 0;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      ASSERT_EQ(outcomes[i].action, legal[i]);
      ASSERT_GT(outcomes[i].probability, 0);
      total += outcomes[i].probability;
    }
    ASSERT_NEAR(total, 1.0, 1e-9);
  } else {
    ASSERT_THROW(s.chance_outcomes(), InputError);
  }
}

// What the declared game type promises about this node.
void check_type(const State& s) {
  const GameType type = s.game().type();
  if (!type.simultaneous()) { ASSERT_FALSE(s.is_simultaneous_node()); }
  if (!type.has_chance()) { ASSERT_FALSE(s.is_chance_node()); }
  if (type.chance == Chance::kSetup && s.is_chance_node()) {
    for (const Step& step : s.history()) ASSERT_EQ(step.player, kChancePlayer) << "chance after a player acted";
  }
  if (s.is_truncated()) { ASSERT_TRUE(s.is_terminal()); }
}

void check_observations(const State& s) {
  const ObservationShape shape = s.game().observation_shape();
  ASSERT_GT(shape.size(), 0);
  for (Player p = 0; p < s.game().num_players(); ++p) {
    const std::vector<float> obs = observe(s, p);
    for (float v : obs) ASSERT_TRUE(std::isfinite(v));
    ASSERT_EQ(observe(s, p), obs) << "observation of " << p << " is not deterministic";
  }
  std::vector<float> wrong(static_cast<std::size_t>(shape.size()) + 1);
  EXPECT_THROW(s.observation(0, wrong), InputError);
}

// Clones are equal, independent copies.
void check_clone(const State& s, Rng& rng) {
  std::unique_ptr<State> copy = s.clone();
  ASSERT_TRUE(Snapshot(*copy) == Snapshot(s));
  if (s.is_terminal()) return;
  std::vector<Action> joint;
  const Snapshot before(s);
  apply_random_step(*copy, rng, joint);
  ASSERT_TRUE(Snapshot(s) == before) << "playing on a clone changed the original";
}

// Illegal actions and joint actions are refused with IllegalActionError and change nothing.
void check_refusals(State& s, Rng& rng) {
  const Game& g = s.game();
  const Snapshot before(s);
  const auto refused = [&](auto&& play, const char* what) {
    try {
      play();
      ADD_FAILURE() << what << " was accepted at\n" << before.text;
    } catch (const IllegalActionError& e) {
      EXPECT_GT(std::string(e.what()).size(), 10u) << "a refusal should say why";
    }
    ASSERT_TRUE(Snapshot(s) == before) << what << " changed the state";
  };
  if (s.is_terminal()) {
    refused([&] { s.apply(0); }, "an action after the end");
    return;
  }
  if (s.is_simultaneous_node()) {
    refused([&] { s.apply(s.legal_actions(0).front()); }, "a single action at a simultaneous node");
    std::vector<Action> joint(g.num_players());
    for (Player p = 0; p < g.num_players(); ++p) joint[p] = s.random_legal_action(p, rng);
    std::vector<Action> short_joint(joint.begin(), joint.end() - 1);
    refused([&] { s.apply_joint(short_joint); }, "a joint action with a seat missing");
    for (Player p = 0; p < g.num_players(); ++p) {
      const std::vector<Action> legal = s.legal_actions(p);
      for (Action a : {Action{-1}, Action{g.num_distinct_actions()}}) {
        std::vector<Action> bad = joint;
        bad[p] = a;
        refused([&] { s.apply_joint(bad); }, "a joint action out of range");
      }
      for (Action a = 0; a < g.num_distinct_actions(); ++a) {
        if (std::binary_search(legal.begin(), legal.end(), a)) continue;
        std::vector<Action> bad = joint;
        bad[p] = a;
        refused([&] { s.apply_joint(bad); }, "a joint action with an illegal part");
        break;
      }
    }
    return;
  }
  const std::vector<Action> legal = s.legal_actions();
  refused([&] { s.apply(-1); }, "action -1");
  refused([&] { s.apply(g.num_distinct_actions()); }, "an action past the action space");
  for (int tries = 0; tries < 4; ++tries) {
    const Action a = static_cast<Action>(rng.below(static_cast<std::uint32_t>(g.num_distinct_actions())));
    if (!std::binary_search(legal.begin(), legal.end(), a)) refused([&] { s.apply(a); }, "an illegal action");
  }
  std::vector<Action> joint(g.num_players(), legal.front());
  refused([&] { s.apply_joint(joint); }, "a joint action at a node that is not simultaneous");
}

// Hidden states drawn for a player are ones it cannot tell apart from the true state.
// Returns whether the draw differs from the true state.
bool check_hidden_samples(const State& s, Rng& rng) {
  const Game& g = s.game();
  bool differs = false;
  for (Player p = 0; p < g.num_players(); ++p) {
    std::unique_ptr<State> other = s.sample_hidden(p, rng);
    EXPECT_EQ(other->current_player(), s.current_player());
    EXPECT_EQ(other->move_number(), s.move_number());
    EXPECT_EQ(other->is_terminal(), s.is_terminal());
    EXPECT_EQ(observe(*other, p), observe(s, p)) << "player " << p << " can tell a drawn state apart";
    EXPECT_EQ(other->information_key(p), s.information_key(p)) << "player " << p;
    EXPECT_EQ(other->legal_actions(p), s.legal_actions(p)) << "player " << p;
    EXPECT_EQ(other->history().size(), s.history().size());
    if (s.starts_from_initial_state()) {
      EXPECT_EQ(other->record_for(p), s.record_for(p)) << "player " << p;
      EXPECT_EQ(other->public_record(), s.public_record());
    }
    if (g.type().perfect_information()) {
      EXPECT_EQ(other->hash(), s.hash()) << "nothing is hidden, so the draw is the state itself";
      EXPECT_EQ(s.information_key(p), s.hash());
    }
    differs = differs || other->hash() != s.hash();
  }
  return differs;
}

// Each symmetry that holds maps legal sets, observations and returns onto the image state's.
void check_symmetries(const State& s) {
  const Game& g = s.game();
  const ObservationShape shape = g.observation_shape();
  const int cells = shape.cells();
  for (int k = 0; k < static_cast<int>(g.symmetries().size()); ++k) {
    if (!g.symmetry_holds(s, k)) continue;
    const Symmetry& sym = g.symmetries()[k];
    std::unique_ptr<State> image = g.apply_symmetry(s, k);
    const Player mover = s.current_player();
    ASSERT_EQ(image->current_player(), mover >= 0 ? sym.map_player(mover) : mover) << sym.name;
    for (Player p = 0; p < g.num_players(); ++p) {
      const Player q = sym.map_player(p);
      std::set<Action> expected, actual;
      for (Action a : s.legal_actions(p)) expected.insert(sym.action[g.action_to_view(p, a)]);
      for (Action a : image->legal_actions(q)) actual.insert(g.action_to_view(q, a));
      ASSERT_EQ(actual, expected) << sym.name << ", seat " << p << "\n" << s.to_string();
      const std::vector<float> obs = observe(s, p), mapped = observe(*image, q);
      for (int c = 0; c < shape.channels; ++c)
        for (int i = 0; i < cells; ++i)
          ASSERT_EQ(mapped[sym.map_plane(c) * cells + sym.cell[i]], obs[c * cells + i])
              << sym.name << ", seat " << p << ", plane " << c << ", cell " << i;
    }
    if (s.is_terminal()) {
      const std::vector<double> r = s.returns(), ri = image->returns();
      for (Player p = 0; p < g.num_players(); ++p) ASSERT_EQ(ri[sym.map_player(p)], r[p]) << sym.name;
    }
  }
}

// What a network is told and asked at a state: who moves, and each seat's observation and
// legal actions. The evaluation cache (mcts/evaluation_cache.h) reuses answers by hash(), so
// states with one hash must have one digest.
std::uint64_t position_digest(const State& s) {
  std::uint64_t h = 1469598103934665603ULL;
  const auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 1099511628211ULL; };
  mix(static_cast<std::uint64_t>(s.current_player() + 16));
  for (Player p = 0; p < s.game().num_players(); ++p) {
    for (Action a : s.legal_actions(p)) mix(static_cast<std::uint64_t>(a));
    mix(~0ULL);
    for (float x : observe(s, p)) mix(std::bit_cast<std::uint32_t>(x));
  }
  return h;
}

// Two sub-moves of one turn played in the other order: the hash agrees with the positions.
void check_swapped_sub_moves(const State& before, const Step& first, const Step& second, const State& after) {
  if (first.player < 0 || first.player != second.player) return;
  std::unique_ptr<State> swapped = before.clone();
  const std::vector<Action> legal = swapped->legal_actions();
  if (!std::binary_search(legal.begin(), legal.end(), second.action)) return;
  swapped->apply(second.action);
  if (swapped->current_player() != first.player) return;
  const std::vector<Action> then = swapped->legal_actions();
  if (!std::binary_search(then.begin(), then.end(), first.action)) return;
  swapped->apply(first.action);
  bool same = swapped->to_string() == after.to_string();
  for (Player p = 0; same && p < after.game().num_players(); ++p)
    same = swapped->legal_actions(p) == after.legal_actions(p) && observe(*swapped, p) == observe(after, p);
  if (same) { EXPECT_EQ(swapped->hash(), after.hash()) << "equal positions hash differently:\n" << after.to_string(); }
  if (swapped->hash() == after.hash()) {
    EXPECT_EQ(swapped->to_string(), after.to_string()) << "different positions hash equally";
    EXPECT_EQ(position_digest(*swapped), position_digest(after)) << "equal hashes, different observations or legal sets";
  }
}

// Reading records back: the full record gives the same game; the public record and each
// player's record give a game that reads the same to that viewer.
void check_records(const State& s, Rng& rng, bool views) {
  const Game& g = s.game();
  const std::string record = s.record();
  std::unique_ptr<State> back = g.load_record(record);
  ASSERT_EQ(back->history(), s.history()) << record;
  ASSERT_EQ(back->move_number(), s.move_number()) << record;
  ASSERT_EQ(back->current_player(), s.current_player()) << record;
  ASSERT_EQ(back->hash(), s.hash());
  ASSERT_EQ(back->to_string(), s.to_string());
  ASSERT_EQ(back->record(), record);
  if (!views) return;
  const std::string seen = s.public_record();
  ASSERT_EQ(g.sample_record(seen, kPublicViewer, rng)->public_record(), seen);
  for (Player p = 0; p < g.num_players(); ++p) {
    const std::string mine = s.record_for(p);
    ASSERT_EQ(g.sample_record(mine, p, rng)->record_for(p), mine) << "player " << p;
  }
  if (g.type().perfect_information()) { ASSERT_EQ(seen, record); }
}

// Standing returns (a game with GameTraits::has_standings) are a draw's now: those out keep
// their settled returns, the others share the top ranks, and at the end they are the returns.
void check_standings(const State& s, const std::vector<double>& r) {
  const Game& g = s.game();
  std::vector<double> standing(static_cast<std::size_t>(g.num_players()));
  if (!g.traits().has_standings) {
    if (s.is_terminal()) { ASSERT_THROW(s.standing_returns(standing), InputError); }
    return;
  }
  s.standing_returns(standing);
  std::vector<double> in;
  for (Player p = 0; p < g.num_players(); ++p) {
    if (s.is_out(p) || s.is_terminal()) {
      ASSERT_EQ(standing[p], r[p]) << "the standing return of player " << p;
    }
    if (!s.is_out(p)) in.push_back(standing[p]);
  }
  for (double v : in) ASSERT_EQ(v, in.front()) << "the players still in share the top ranks at\n" << s.to_string();
}

// A player out stays out and acts no more, and its return is settled when it goes out:
// returns() gives it from then to the end; the others' are zero until the end.
void check_outs(const State& s, std::vector<double>& settled) {
  const std::vector<double> r = s.returns();
  for (Player p = 0; p < s.game().num_players(); ++p) {
    if (!std::isnan(settled[p])) {
      ASSERT_TRUE(s.is_out(p)) << "player " << p << " came back in at\n" << s.to_string();
      ASSERT_EQ(r[p], settled[p]) << "the return of player " << p << ", out, changed at\n" << s.to_string();
    } else if (s.is_out(p)) {
      settled[p] = r[p];
    } else if (!s.is_terminal()) {
      ASSERT_EQ(r[p], 0.0) << "player " << p << " has a return before the end and is not out";
    }
    if (s.is_out(p)) { ASSERT_TRUE(s.legal_actions(p).empty()) << "player " << p << " is out and acts"; }
  }
  check_standings(s, r);
}

void check_end(State& s) {
  const GameType type = s.game().type();
  const std::vector<double> r = s.returns();
  double total = 0;
  for (double v : r) {
    ASSERT_GE(v, type.min_return);
    ASSERT_LE(v, type.max_return);
    total += v;
  }
  if (type.constant_sum()) { ASSERT_NEAR(total, type.utility == Utility::kZeroSum ? 0.0 : type.return_sum, 1e-9); }
  Rng rng(1);
  EXPECT_THROW(s.random_legal_action(rng), IllegalActionError);
}

TEST_P(Conformance, RandomGamesKeepEveryInvariant) {
  const Game& g = game();
  Rng rng(0xc0ffee ^ static_cast<std::uint64_t>(GetParam()));
  // A thousand games at least, up to three thousand while they are short (an eighth under
  // the sanitizers: tests/test_scale.h), and fewer only where they are so long that they pass
  // half a million steps first: classic Stratego's, about 1,460 steps a game, a thousand of
  // which took CI three minutes (about 340 of them do now).
  const int min_games = test_share(1000), max_games = test_share(3000);
  constexpr std::int64_t kStepBudget = 100000;
  const std::int64_t step_ceiling = test_share(500000);
  std::int64_t steps = 0;
  int games = 0, hidden_draws_that_differ = 0, hidden_draws = 0, swaps = 0, repeats = 0;
  // Each hash's digest, from the openings every game passes through and the deep steps.
  std::unordered_map<std::uint64_t, std::uint64_t> digest_of;
  std::vector<Action> joint;
  for (; games < max_games && (games < min_games || steps < kStepBudget) && steps < step_ceiling; ++games) {
    std::unique_ptr<State> s = g.new_initial_state();
    // The state before the previous step, for the swapped sub-move check: cloned only when that
    // check will run, which is why each step's draw is made one step ahead. History is read
    // only where a check needs it, and checked whole at the end: a copy of it (and a clone)
    // at every step made a game of 2,000 steps quadratic.
    std::unique_ptr<State> before_previous, previous;
    std::vector<Player> actors;  // who played each step
    bool previous_simultaneous = true;
    bool deep_draw = rng.below(24) == 0;
    int length = 0;
    std::vector<double> settled(static_cast<std::size_t>(g.num_players()), std::nan(""));
    while (true) {
      check_type(*s);
      check_legal_sets(*s);
      check_outs(*s, settled);
      if (HasFatalFailure()) return;
      const bool deep = deep_draw || s->is_terminal();
      deep_draw = rng.below(24) == 0;
      if (deep || s->move_number() < 3) {
        const auto [at, fresh] = digest_of.emplace(s->hash(), position_digest(*s));
        if (!fresh) {
          ++repeats;
          ASSERT_EQ(at->second, position_digest(*s))
              << "a state with an earlier state's hash has other observations or legal sets:\n" << s->to_string();
        }
      }
      if (deep) {
        check_observations(*s);
        check_clone(*s, rng);
        check_refusals(*s, rng);
        ++hidden_draws;
        hidden_draws_that_differ += check_hidden_samples(*s, rng);
        check_symmetries(*s);
        if (HasFatalFailure()) return;
      }
      if (s->is_terminal()) break;
      const int number = s->move_number();
      const bool simultaneous = s->is_simultaneous_node();
      const Player actor = s->current_player();
      before_previous = std::move(previous);
      previous = deep_draw ? s->clone() : nullptr;
      const int played = apply_random_step(*s, rng, joint);
      for (int i = 0; i < played; ++i) actors.push_back(simultaneous ? i : actor);
      length += played;
      ASSERT_LE(length, g.max_game_length());
      ASSERT_TRUE(s->move_number() == number || s->move_number() == number + 1)
          << "one step ends at most one turn";
      if (simultaneous) { ASSERT_EQ(s->move_number(), number + 1) << "a simultaneous round is a turn"; }
      if (deep) {
        const std::vector<Step> history = s->history();
        ASSERT_EQ(static_cast<int>(history.size()), length);
        if (!simultaneous && before_previous) {
          const Step previous_step = previous_simultaneous ? Step{} : history[history.size() - 2];
          check_swapped_sub_moves(*before_previous, previous_step, history.back(), *s);
          ++swaps;
        }
      }
      previous_simultaneous = simultaneous;
    }
    const std::vector<Step> history = s->history();
    ASSERT_EQ(static_cast<int>(history.size()), length);
    for (int i = 0; i < length; ++i) ASSERT_EQ(history[i].player, actors[i]) << "step " << i;
    steps += length;
    check_end(*s);
    check_records(*s, rng, games % 8 == 0);
    if (HasFatalFailure()) return;
  }
  RecordProperty("games", games);
  RecordProperty("steps", static_cast<int>(steps));
  EXPECT_GT(repeats, 0) << "every game starts from one position, so the digests were compared";
  if (!g.type().perfect_information()) {
    EXPECT_GT(hidden_draws_that_differ, hidden_draws / 10) << "sample_hidden never draws another hidden state";
  }
}

TEST_P(Conformance, PositionsSetUpMidGameAlsoRoundTrip) {
  // Records of unfinished games, cut at every turn boundary, read back.
  const Game& g = game();
  Rng rng(7);
  std::vector<Action> joint;
  for (int n = 0; n < 20; ++n) {
    std::unique_ptr<State> s = g.new_initial_state();
    const int stop = static_cast<int>(rng.below(40));
    while (!s->is_terminal() && s->move_number() < stop) apply_random_step(*s, rng, joint);
    std::unique_ptr<State> back = g.load_record(s->record());
    ASSERT_EQ(back->history(), s->history());
    ASSERT_EQ(back->hash(), s->hash());
  }
}

TEST_P(Conformance, RecordsStoppedInTheMiddleOfATurnReadBack) {
  // A record saved at any step (the web app's download and its Analyse button save one in the
  // middle of a turn of sub-moves) reads back to that very state, sub-moves still to make and
  // all, and a viewer's record to one that reads the same to that viewer. The mark of a turn
  // that goes on (kTurnGoesOn) is written exactly then, and means what it says: a record with
  // it removed or added is refused (as cut short, or as marking an ended turn), or reads the
  // state one closing step away where the notation leaves that step out (War's `end`).
  const Game& g = game();
  Rng rng(0x5eed ^ static_cast<std::uint64_t>(GetParam()));
  const std::string mark = " " + std::string(kTurnGoesOn);
  std::vector<Action> joint;
  int steps = 0;
  for (int n = 0; n < test_share(12); ++n) {
    std::unique_ptr<State> s = g.new_initial_state();
    // Each record is read whole, so a game is cut at 100 steps: a Stratego setup is 80.
    for (int length = 0; length < 100 && !s->is_terminal(); ++length) {
      const int number = s->move_number();
      apply_random_step(*s, rng, joint);
      check_records(*s, rng, ++steps % 4 == 0);
      if (HasFatalFailure()) return;
      const std::string record = s->record();
      const bool goes_on = !s->is_terminal() && s->move_number() == number;
      ASSERT_EQ(record.ends_with(mark), goes_on) << record;
      if (s->is_terminal()) continue;
      const std::string toggled = goes_on ? record.substr(0, record.size() - mark.size()) : record + mark;
      std::unique_ptr<State> other;
      try {
        other = g.load_record(toggled);
      } catch (const NotationError&) {
        continue;
      }
      // Read both ways, the two states are one left-out closing step apart.
      const State& open = goes_on ? *s : *other;
      const State& closed = goes_on ? *other : *s;
      ASSERT_NE(open.implied_turn_end(), kInvalidAction) << "the mark changed nothing: " << toggled;
      std::unique_ptr<State> after = open.clone();
      after->apply(open.implied_turn_end());
      ASSERT_EQ(after->history(), closed.history()) << toggled;
      ASSERT_EQ(after->hash(), closed.hash()) << toggled;
    }
  }
  RecordProperty("steps", steps);
}

TEST_P(Conformance, GameFactsAreConsistent) {
  const Game& g = game();
  const GameType type = g.type();
  EXPECT_GE(g.num_players(), 1);
  EXPECT_GT(g.num_distinct_actions(), 0);
  EXPECT_GT(g.max_game_length(), 0);
  EXPECT_LT(type.min_return, type.max_return);
  if (type.utility == Utility::kZeroSum) { EXPECT_EQ(type.return_sum, 0); }
  EXPECT_FALSE(type.describe().empty());
  for (Player p = 0; p < g.num_players(); ++p) EXPECT_FALSE(g.player_name(p).empty());
  for (const Symmetry& sym : g.symmetries()) {
    EXPECT_EQ(static_cast<int>(sym.cell.size()), g.observation_shape().cells()) << sym.name;
    EXPECT_EQ(static_cast<int>(sym.action.size()), g.num_distinct_actions()) << sym.name;
    EXPECT_TRUE(sym.player.empty() || static_cast<int>(sym.player.size()) == g.num_players()) << sym.name;
    EXPECT_TRUE(sym.plane.empty() || static_cast<int>(sym.plane.size()) == g.observation_shape().channels);
    // Each map is a permutation.
    EXPECT_TRUE(std::is_permutation(sym.cell.begin(), sym.cell.end(), [&] {
      std::vector<int> identity(sym.cell.size());
      for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int>(i);
      return identity;
    }().begin())) << sym.name;
    std::vector<Action> actions(sym.action.begin(), sym.action.end());
    std::sort(actions.begin(), actions.end());
    for (std::size_t a = 0; a < actions.size(); ++a) ASSERT_EQ(actions[a], static_cast<Action>(a)) << sym.name;
  }
  // The game string reads back as the same game.
  EXPECT_EQ(g.to_string(), entry().game_string);
  // Views: a seat out of range is refused.
  std::unique_ptr<State> s = g.new_initial_state();
  EXPECT_THROW(PlayerView(*s, g.num_players()), InputError);
  EXPECT_THROW(s->record_for(g.num_players()), InputError);
  EXPECT_THROW(s->information_key(-1), InputError);
}

std::string test_name(const ::testing::TestParamInfo<int>& info) {
  return identifier(catalog_games()[info.param].game_string);
}

INSTANTIATE_TEST_SUITE_P(Games, Conformance, ::testing::Range(0, static_cast<int>(catalog_games().size())),
                         test_name);

}  // namespace
}  // namespace boardlab
