// Self-play: one thread advancing many games at once, each move chosen by a batched search.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "config/config_schema.h"
#include "core/bot.h"
#include "core/game.h"
#include "core/rng.h"
#include "mcts/evaluator.h"
#include "mcts/search.h"
#include "mcts/search_driver.h"
#include "nn/outcome_target.h"
#include "nn/replay_buffer.h"

namespace boardlab {

struct SelfPlayConfig {
  int concurrent_games = 32;  // games one worker advances together (the batch it sends is about this large)
  // PUCT: moves are sampled from visits^(1/temperature) for the first temperature_moves
  // actions, then the most visited is played. Gumbel samples through its own noise.
  float temperature = 1.0f;
  int temperature_moves = 30;
  // Playout cap randomization (KataGo): a decision is searched with the full budget
  // (SearchConfig::simulations) with this probability, else with fast_simulations and no
  // root exploration (noise, forced playouts); only full searches train the policy (SelfPlayGame::Position::full_search).
  // 1 searches every move in full.
  double full_search_fraction = 1.0;
  int fast_simulations = 4;
  // A share of games begins with random_opening_turns turns of uniformly random play, as
  // evaluation's games do (`boardlab evaluate --opening`, 2 turns): the network then also
  // learns to play on from the unbalanced positions it is rated from, which its own
  // openings never reach. The random steps are in the record and train nothing.
  double random_opening_fraction = 0.0;
  int random_opening_turns = 2;
  // A fixed player (a spec of arena/player_spec.h: agent:CK, uct:N, ...) that takes every seat
  // but one in each game, with its own search and view; the other seat, cycling through the
  // seats game by game, is the network and alone trains its policy (unless imitate_opponent).
  // Training then learns a best response to that player (`boardlab exploit`). Empty:
  // self-play, the network in every seat.
  std::string opponent;
  // The share of games that seat the fixed opponent; the others are self-play, the network in
  // every seat. Below 1 the opponent is a teacher rather than a target: where self-play alone
  // ends in draws that teach the value nothing (War's passes), games against a player that
  // attacks end in kills, and the network's seat learns what a threat is worth. Its moves train
  // the value only, as with opponent_fraction 1.
  double opponent_fraction = 1.0;
  // The fixed opponent's moves train the policy head too, as one-hot targets beside the
  // network's own searched ones: a teacher's play imitated (AlphaGo's supervised start), where
  // the network's prior would otherwise take many games to find what the teacher knows. Off:
  // they train the value alone. Not with search.model_opponents, whose policy head learns the
  // opponent's moves alone already.
  bool imitate_opponent = false;
  // The policy target of a concealed choice drawn from the policy (search.concealed_moves=policy),
  // set from the game's outcome (nn/outcome_target.h).
  OutcomeTargetConfig concealed;

  template <class V>
  void visit(V& v) {
    v("concurrent_games", concurrent_games, "games each worker plays at once (its batch size)",
      Range::between(1, 100000));
    v("temperature", temperature, "PUCT: visit-count temperature for early moves", Range::between(0, 10));
    v("temperature_moves", temperature_moves, "PUCT: actions played with temperature, then greedy",
      Range::at_least(0));
    v("full_search_fraction", full_search_fraction,
      "playout cap randomization: share of moves searched in full, which alone train the policy (1: off)",
      Range::between(0.01, 1));
    v("fast_simulations", fast_simulations,
      "playout cap randomization: simulations of the other moves, without root noise", Range::between(1, kMaxSimulations));
    v("random_opening_fraction", random_opening_fraction,
      "share of games that begin with random_opening_turns turns of random play, training nothing (0: none)",
      Range::between(0, 1));
    v("random_opening_turns", random_opening_turns, "turns of random play that open those games",
      Range::at_least(0));
    v("opponent", opponent,
      "a fixed player (agent:CK, uct:N, ...) in every seat but the network's, whose policy alone trains (unless "
      "imitate_opponent): a best response to it (boardlab exploit), or a teacher in a share of games "
      "(opponent_fraction); empty: self-play");
    v("opponent_fraction", opponent_fraction,
      "share of games with the fixed opponent; the others are self-play (1: every game)", Range::between(0.01, 1));
    v("imitate_opponent", imitate_opponent,
      "the fixed opponent's moves train the policy too, as one-hot targets (off: the value alone)");
    v("concealed_step", concealed.step,
      "search.concealed_moves=policy: how far one game's outcome moves a concealed choice's policy target (0: none)",
      Range::between(0, 10));
    v("concealed_temperature", concealed.temperature,
      "search.concealed_moves=policy: the concealed policy's temperature over its choices' values (return units); "
      "higher keeps setups more varied",
      Range::between(0.001, 1000));
  }
};

class SelfPlayWorker {
 public:
  SelfPlayWorker(const Game& game, const SearchConfig& search, const SelfPlayConfig& config, Evaluator& evaluator,
                 std::uint64_t seed);
  // With a given random stream (a checkpoint's): its searches draw their seeds from it too,
  // so a resumed worker continues the stream it had.
  SelfPlayWorker(const Game& game, const SearchConfig& search, const SelfPlayConfig& config, Evaluator& evaluator,
                 const Rng& rng);

  // Plays until `stop` is set or at least `positions` searched positions were finished in
  // complete games; each finished game goes to `sink`. Unfinished games carry over to the
  // next call, so no search is wasted.
  void run(std::int64_t positions, const std::atomic<bool>& stop, const std::function<void(SelfPlayGame&&)>& sink);

  // The most leaves one evaluator call carries (the inference server's max_batch): the
  // games are stepped in chunks of about this many, with `stop` checked between chunks.
  // Without a call, every game in one batch.
  void set_max_batch(int positions);

  // Counters other threads may read while the worker plays.
  std::uint64_t searches() const { return searches_.load(std::memory_order_relaxed); }
  std::uint64_t simulations() const { return simulations_.load(std::memory_order_relaxed); }
  const DriverStats& driver_stats() const { return driver_.stats(); }

  // The worker's random stream, for checkpoints.
  Rng& rng() { return rng_; }

 private:
  struct Slot {
    std::unique_ptr<State> state;
    std::unique_ptr<Search> search;
    SelfPlayGame record;
    bool full = true;  // the search under way has the full budget
    bool random_opening = false;  // this game opens with SelfPlayConfig::random_opening_turns random turns
    // With a fixed opponent (SelfPlayConfig::opponent): its player, which `opponent` points to
    // in the games that seat it (SelfPlayConfig::opponent_fraction) and is null in self-play
    // games; the network's seat in this game, and at a simultaneous round the opponent's
    // actions, chosen before the network's search.
    std::unique_ptr<Bot> opponent_bot;
    Bot* opponent = nullptr;
    Player learner = 0;
    std::vector<Action> opponent_joint;
    // Positions of concealed choices (SearchResult::concealed), whose targets wait for the outcome.
    std::vector<std::size_t> concealed;
  };
  void new_game(Slot& slot);
  // Plays forced actions (a single legal one) and a random opening's, and starts the search at
  // the next real decision.
  // Returns false when the game ended on the way.
  bool advance_to_decision(Slot& slot);
  // Starts the slot's search from `view` with a full or a fast budget, drawn.
  void start_search(Slot& slot, const PlayerView& view);
  Action choose(const SearchResult& result, int ply);
  // Records a simultaneous round's targets (one per seat) and plays the joint action.
  void play_round(Slot& slot, const SearchResult& result, int ply);
  // Turns the concealed choices' priors into targets from the finished game's returns.
  void set_concealed_targets(Slot& slot) const;
  // Whether `seat` is the fixed opponent's in this slot's game.
  bool opponent_seat(const Slot& slot, Player seat) const { return slot.opponent && seat != slot.learner; }
  // Whether the network's own searched position trains the policy (else its value alone).
  bool trains_policy(const Slot& slot) const;
  // A fixed opponent's move at `state` as a one-hot target over its legal actions; none where it had no choice.
  std::optional<SelfPlayGame::Target> opponent_target(const State& state, Player actor, Action action);
  // A fixed opponent's move: a position of its own, with the move as its policy target.
  void record_opponent_move(Slot& slot, Player actor, Action action);
  // At a simultaneous round: the opponent's actions into slot.opponent_joint; whether the
  // network's own seat is forced too.
  bool opponent_round(Slot& slot);

  const Game* game_;
  SearchConfig search_config_;
  SelfPlayConfig config_;
  Rng rng_;
  SearchDriver driver_;
  std::vector<Slot> slots_;
  std::vector<Search*> searches_view_;
  int max_batch_ = std::numeric_limits<int>::max();
  std::size_t next_slot_ = 0;  // the first game of the next chunk
  Player next_learner_ = 0;    // the network's seat in the next game against a fixed opponent
  std::vector<Action> legal_;
  std::vector<Action> joint_;
  std::atomic<std::uint64_t> searches_{0};
  std::atomic<std::uint64_t> simulations_{0};
};

}  // namespace boardlab
