// Tests for the training config: the shipped configs resolve as before, the dump reads back, and each mistake names its file and line.
#include "nn/train_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/config.h"
#include "nn_test_util.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

using nn_testing::TempDir;

// Writes `text` as a config file and returns the ConfigError its loading raises.
class TrainConfigErrors : public ::testing::Test {
 protected:
  std::string load_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
    nn_testing::write_text(path_, text);
    return error_of<ConfigError>([&] { load_train_config(path_, overrides); });
  }
  TempDir dir_;
  const std::string path_ = dir_ / "run.yaml";
};

// Every key of the default run (the shipped configs once listed them all; max_steps rose
// from 4000 when self-play and training came to run at the same time).
constexpr char kPreviousFullListing[] = R"(seed: 1
network:
  blocks: 2
  channels: 32
  policy_channels: 2
  value_hidden: 64
search:
  algorithm: gumbel
  simulations: 16
  leaves_per_step: 1
  c_puct: 1.25
  fpu_reduction: 0.25
  dirichlet_alpha: 0.3
  dirichlet_epsilon: 0.25
  gumbel_considered: 8
  gumbel_scale: 1
  reuse_tree: false
self_play:
  workers: 2
  concurrent_games: 32
  temperature: 1
  temperature_moves: 30
  lead_positions: 1000
  save_games: true
inference:
  max_batch: 256
  max_wait_us: 100
  threads: 0
replay:
  window: 50000
  min_positions: 1000
training:
  batch_size: 128
  optimizer: adam
  learning_rate: 0.002
  lr_schedule: cosine
  lr_final_fraction: 0.1
  momentum: 0.9
  weight_decay: 0.0001
  value_loss_weight: 1
  samples_per_position: 2
  augment: true
  threads: 1
  publish_every_steps: 20
checkpoint:
  every_steps: 250
  keep: 0
evaluation:
  every_steps: 2500
  games: 20
  opponents: [random, uct:200]
  previous_checkpoint: false
  simulations: 32
run:
  max_steps: 20000
  max_minutes: 15
  log_every_seconds: 10
)";

TEST(TrainConfig, ShippedConfigsResolveToTheirPinnedListing) {
  // Morabaraba runs on the defaults; Virus War changes six keys (issue 10's findings: PUCT's
  // search trained on the improved policy, an ownership head, contempt, tree reuse in
  // self-play, a constant learning rate). Any other change to what they train shows here.
  const std::map<std::string, std::string> differences = {
      {"morabaraba", ""},
      {"virus_war",
       "network:\n  ownership_head: true\nsearch:\n  algorithm: puct\n  policy_target: completed_q\n"
       "  draw_value: -0.25\n  reuse_tree: true\ntraining:\n  lr_schedule: constant\n"}};
  for (const auto& [game, extra] : differences) {
    SCOPED_TRACE(game);
    const TrainConfig shipped = load_train_config(std::string(BOARDLAB_SOURCE_DIR) + "/configs/" + game + ".yaml");
    const TrainConfig pinned =
        parse_train_config("game: " + game + "\n" + kPreviousFullListing, "pinned.yaml", {});
    TrainConfig expected = pinned;
    if (!extra.empty()) {
      nn_testing::TempDir dir;
      nn_testing::write_text(dir / "pinned.yaml", "game: " + game + "\n" + extra);
      const TrainConfig changed = load_train_config(dir / "pinned.yaml");
      EXPECT_NE(changed.yaml, pinned.yaml);
      expected = changed;
    }
    EXPECT_EQ(shipped.yaml, expected.yaml);  // every key, in the config as used
    EXPECT_EQ(shipped.eval_search, expected.eval_search);
    EXPECT_EQ(shipped.training.total_steps, expected.training.total_steps);
    EXPECT_EQ(shipped.game, game);
  }
  // The values the struct's defaults carry, where the old struct disagreed with the schema.
  const TrainConfig t = load_train_config(std::string(BOARDLAB_SOURCE_DIR) + "/configs/morabaraba.yaml");
  EXPECT_EQ(t.training.samples_per_position, 2);
  EXPECT_EQ(t.run.max_steps, 20000);
  EXPECT_EQ(t.training.total_steps, 20000);
  EXPECT_EQ(t.checkpoint.keep, 0);
  EXPECT_EQ(t.checkpoint.every_steps, 250);
  EXPECT_EQ(t.evaluation.every_steps, 2500);
  EXPECT_EQ(t.training.threads, 1);
  EXPECT_EQ(t.inference.max_wait_us, 100);
  EXPECT_EQ(t.inference.threads, 0);
  EXPECT_EQ(t.evaluation.opponents, (std::vector<std::string>{"random", "uct:200"}));
  // Self-play: Gumbel with 16 simulations over 8 considered actions, root noise for PUCT.
  EXPECT_EQ(t.search.algorithm, SearchAlgorithm::kGumbel);
  EXPECT_EQ(t.search.simulations, 16);
  EXPECT_EQ(t.search.gumbel_considered, 8);
  EXPECT_EQ(t.search.dirichlet_epsilon, 0.25f);
  EXPECT_EQ(t.search.gumbel_scale, 1.0f);
  // Evaluation: the self-play search at evaluation.simulations, without noise.
  SearchConfig eval = t.search;
  eval.simulations = 32;
  eval.gumbel_scale = 0;
  eval.matrix_candidate_noise = 0;
  eval.dirichlet_epsilon = 0;
  EXPECT_EQ(t.eval_search, eval);
  // Virus War: PUCT with root noise in self-play, contempt in its search and its evaluation's.
  const TrainConfig v = load_train_config(std::string(BOARDLAB_SOURCE_DIR) + "/configs/virus_war.yaml");
  EXPECT_EQ(v.search.algorithm, SearchAlgorithm::kPuct);
  EXPECT_EQ(v.search.dirichlet_epsilon, 0.25f);
  EXPECT_EQ(v.eval_search.algorithm, SearchAlgorithm::kPuct);
  EXPECT_EQ(v.eval_search.dirichlet_epsilon, 0.0f);
  EXPECT_EQ(v.eval_search.draw_value, -0.25f);
  EXPECT_EQ(v.search.policy_target, PolicyTarget::kCompletedQ);
  EXPECT_TRUE(v.search.reuse_tree);
  EXPECT_TRUE(v.network.ownership_head);
  EXPECT_EQ(v.training.schedule, "constant");
  // Uniform matrix candidates explore in self-play; evaluation considers the prior's alone.
  const TrainConfig q = load_train_config(std::string(BOARDLAB_SOURCE_DIR) + "/configs/squares.yaml",
                                          {"search.matrix_uniform_candidates=2"});
  EXPECT_EQ(q.search.matrix_uniform_candidates, 2);
  EXPECT_EQ(q.eval_search.matrix_uniform_candidates, 0);
  // Self-play draws each seat's candidates from its prior; evaluation takes the likeliest.
  EXPECT_EQ(q.search.matrix_candidate_noise, 1.0f);
  EXPECT_EQ(q.eval_search.matrix_candidate_noise, 0.0f);
}

TEST(TrainConfig, ShippedConfigsListOnlyWhatDiffersFromTheDefaults) {
  int configs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(BOARDLAB_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    ++configs;
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    TrainConfig t;
    Config c(t);
    c.read_file(path);
    TrainConfig defaults;
    const Config d(defaults);
    for (std::size_t i = 0; i < c.keys().size(); ++i) {
      const ConfigKey& key = c.keys()[i];
      // The game is named even where it is the default: a config says what it trains.
      if (key.path == "game") continue;
      if (c.was_set(key.path)) {
        EXPECT_NE(key.get(), d.keys()[i].get()) << key.path << " is listed with its default value";
      }
    }
  }
  EXPECT_GE(configs, 5);  // one per game that trains: Virus War, Morabaraba, Squares, Klopodavka, War
}

TEST(TrainConfig, YamlAsUsedReadsBackTheSameAndOverridesApply) {
  const TrainConfig cfg = load_train_config(std::string(BOARDLAB_SOURCE_DIR) + "/configs/virus_war.yaml");
  const TrainConfig again = parse_train_config(cfg.yaml, "config.yaml");
  EXPECT_EQ(again.yaml, cfg.yaml);
  // Overrides apply on top of the file, the last one winning; search keys of player specs too.
  const TrainConfig tiny = parse_train_config(cfg.yaml, "config.yaml",
                                              {"network.blocks=1", "network.channels=8", "evaluation.opponents=[random]",
                                               "network.blocks=3", "search.simultaneous_selection=puct",
                                               "search.transpositions=true", "training.lr_schedule=step"});
  EXPECT_EQ(tiny.network.blocks, 3);
  EXPECT_EQ(tiny.network.channels, 8);
  EXPECT_EQ(tiny.evaluation.opponents, (std::vector<std::string>{"random"}));
  EXPECT_EQ(tiny.search.simultaneous_selection, SimultaneousSelection::kPuct);
  EXPECT_TRUE(tiny.search.transpositions);
  EXPECT_EQ(tiny.training.schedule, "step");
  EXPECT_NE(tiny.yaml.find("channels: 8"), std::string::npos);
  EXPECT_EQ(parse_train_config(tiny.yaml, "config.yaml").yaml, tiny.yaml);
}

TEST(TrainConfig, EveryKeyRoundTripsThroughTheDump) {
  // Set every key to a value other than its default, dump, read back: the same values.
  TrainConfig t;
  Config c(t);
  const std::vector<std::string> changes = {
      "game=morabaraba", "seed=7", "network.blocks=3", "network.channels=16", "network.policy_channels=4",
      "network.value_hidden=32", "network.device=cpu", "search.algorithm=puct", "search.simulations=33", "search.leaves_per_step=4",
      "search.virtual_loss=0.5", "search.c_puct=2.5", "search.fpu_reduction=0.1", "search.dirichlet_alpha=0.03",
      "search.dirichlet_epsilon=0.3", "search.uct_c=1.1", "search.gumbel_considered=4", "search.gumbel_scale=0.7",
      "search.gumbel_c_visit=40", "search.gumbel_c_scale=0.2", "search.temperature=0.1", "search.reuse_tree=true",
      "search.simultaneous_selection=puct", "search.regret_exploration=0.3", "search.matrix_candidates=5",
      "search.matrix_uniform_candidates=2", "search.matrix_candidate_noise=0.5",
      "search.hidden=single_sample", "network.standings_baseline=false",
      "search.transpositions=true", "search.belief_deals=8", "search.belief_window=3", "search.belief_floor=0.2",
      "search.cache_positions=100", "search.lazy_seats=false", "self_play.workers=3", "self_play.concurrent_games=5", "self_play.temperature=0.9",
      "self_play.temperature_moves=12", "self_play.lead_positions=77", "self_play.save_games=false",
      "inference.max_batch=64", "inference.max_wait_us=7", "inference.threads=1", "replay.window=999",
      "replay.min_positions=11", "training.batch_size=16", "training.optimizer=sgd", "training.learning_rate=0.01",
      "training.lr_schedule=constant", "training.lr_final_fraction=0.2", "training.momentum=0.8",
      "training.weight_decay=0.001", "training.value_loss_weight=2", "training.samples_per_position=3.5",
      "training.augment=false", "training.threads=2", "training.publish_every_steps=3",
      "self_play.full_search_fraction=0.5", "self_play.fast_simulations=3", "training.value_target_mix=0.25",
      "training.ownership_loss_weight=0.5", "training.score_loss_weight=0.5", "search.forced_playouts=true", "search.draw_value=-0.5",
      "search.rollout_weight=0.5", "search.rollouts=8", "search.prior_temperature=1.5",
      "search.policy_target=completed_q", "self_play.random_opening_fraction=0.25",
      "self_play.random_opening_turns=3", "self_play.opponent=uct:9", "search.model_opponents=true",
      "search.concealed_moves=policy", "self_play.concealed_step=0.3", "self_play.concealed_temperature=0.2",
      "search.concealed_temperature=0.5",
      "checkpoint.every_steps=9", "checkpoint.keep=2",
      "evaluation.every_steps=0", "evaluation.games=4", "evaluation.opponents=[uct:7, random]",
      "evaluation.previous_checkpoint=true", "evaluation.ladder_rungs=3", "evaluation.simulations=5",
      "evaluation.concealed_moves=search_mixed",
      "distributed.learners=3", "run.max_steps=8",
      "run.max_minutes=0.5",
      "run.log_every_seconds=2"};
  // The auxiliary heads, the spatial policy and the score utility stay at their defaults:
  // the changed game (morabaraba) declares no ownership, score or action layout
  // (AuxiliaryHeadsNeedAGameThatDeclaresTheirTargets reads their keys). The opponent's share
  // of games stays 1 too, and imitation off: the modelled opponent above must sit in every
  // game, and its policy is learnt already (AnOpponentFractionNeedsAnOpponentWhosePolicyIsNotModelled).
  const std::vector<std::string> unchanged = {"network.ownership_head", "network.score_head",
                                              "network.spatial_policy", "search.score_utility",
                                              "self_play.opponent_fraction", "self_play.imitate_opponent"};
  ASSERT_EQ(changes.size() + unchanged.size(), c.keys().size()) << "a key without a change here";
  const TrainConfig defaults;
  const TrainConfig changed = parse_train_config("", "x.yaml", changes);
  TrainConfig copy = changed;
  const Config bound(copy);
  TrainConfig default_copy = defaults;
  const Config bound_defaults(default_copy);
  for (std::size_t i = 0; i < bound.keys().size(); ++i) {
    if (std::find(unchanged.begin(), unchanged.end(), bound.keys()[i].path) != unchanged.end()) continue;
    EXPECT_NE(bound.keys()[i].get(), bound_defaults.keys()[i].get()) << bound.keys()[i].path;
  }
  const TrainConfig again = parse_train_config(changed.yaml, "config.yaml");
  EXPECT_EQ(again.yaml, changed.yaml);
  TrainConfig again_copy = again;
  const Config bound_again(again_copy);
  for (std::size_t i = 0; i < bound.keys().size(); ++i)
    EXPECT_EQ(bound_again.keys()[i].get(), bound.keys()[i].get()) << bound.keys()[i].path;
  EXPECT_EQ(again.search, changed.search);
  EXPECT_EQ(again.eval_search, changed.eval_search);
  EXPECT_EQ(again.eval_search.simulations, 5);
  EXPECT_EQ(again.eval_search.algorithm, SearchAlgorithm::kPuct);
  EXPECT_EQ(again.training.total_steps, 8);
}

TEST(TrainConfig, DefaultDumpHasEveryKeyWithItsCommentAndReadsBackToTheDefaults) {
  const std::string yaml = default_train_config_yaml();
  EXPECT_EQ(yaml.rfind("game: virus_war  # game and its parameters", 0), 0u) << yaml;
  EXPECT_NE(yaml.find("\nsearch:\n  algorithm: gumbel  # "), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("\n  samples_per_position: 2  # training samples per new self-play position"),
            std::string::npos);
  TrainConfig t;
  Config c(t);
  c.read_yaml(yaml, "defaults.yaml");
  for (const auto& key : c.keys()) EXPECT_TRUE(c.was_set(key.path)) << key.path << " is missing from the dump";
  EXPECT_EQ(parse_train_config(yaml, "defaults.yaml").yaml, yaml);
}

TEST(TrainConfig, LearningAcceleratorsHaveTheirMeasuredDefaultsAndReadTheirKeys) {
  // Value targets half from the search are on (they won in both games); playout cap
  // randomization is off (it lost in Virus War).
  const std::string text = "game: virus_war\n";
  const TrainConfig plain = parse_train_config(text, "config.yaml");
  EXPECT_EQ(plain.self_play.full_search_fraction, 1.0);
  EXPECT_EQ(plain.training.value_target_mix, 0.5);
  const TrainConfig on = parse_train_config(
      text, "config.yaml",
      {"self_play.full_search_fraction=0.25", "self_play.fast_simulations=4", "training.value_target_mix=0"});
  EXPECT_EQ(on.self_play.full_search_fraction, 0.25);
  EXPECT_EQ(on.self_play.fast_simulations, 4);
  EXPECT_EQ(on.training.value_target_mix, 0.0);
}

// A share of games against a fixed opponent needs one, and cannot mix into the policy head a
// search that models it (that head then learns the opponent alone).
TEST_F(TrainConfigErrors, AnOpponentFractionNeedsAnOpponentWhosePolicyIsNotModelled) {
  EXPECT_EQ(load_error("game: virus_war\nself_play:\n  opponent_fraction: 0.5\n"),
            path_ + ":3: self_play.opponent_fraction: a share of games with the fixed opponent, and "
                    "self_play.opponent names none");
  EXPECT_EQ(load_error("game: virus_war\nself_play:\n  opponent: random\n  opponent_fraction: 0.5\n"
                       "search:\n  model_opponents: true\n"),
            path_ + ":4: self_play.opponent_fraction: search.model_opponents trains the policy head on the fixed "
                    "opponent's moves, so every game must seat it (1)");
  EXPECT_EQ(load_error("game: virus_war\nself_play:\n  opponent: random\n  opponent_fraction: 0\n"),
            path_ + ":4: self_play.opponent_fraction: expected a number in [0.01, 1], got 0");
  EXPECT_EQ(load_error("game: virus_war\nself_play:\n  imitate_opponent: true\n"),
            path_ + ":3: self_play.imitate_opponent: imitates the fixed opponent, and self_play.opponent names none");
  EXPECT_EQ(load_error("game: virus_war\nself_play:\n  opponent: random\n  imitate_opponent: true\n"
                       "search:\n  model_opponents: true\n"),
            path_ + ":4: self_play.imitate_opponent: search.model_opponents trains the policy head on the fixed "
                    "opponent's moves already");
  nn_testing::write_text(path_, "game: virus_war\nself_play:\n  opponent: random\n  opponent_fraction: 0.25\n"
                                "  imitate_opponent: true\n");
  const TrainConfig cfg = load_train_config(path_);
  EXPECT_EQ(cfg.self_play.opponent_fraction, 0.25);
  EXPECT_TRUE(cfg.self_play.imitate_opponent);
}

TEST_F(TrainConfigErrors, AuxiliaryHeadsNeedAGameThatDeclaresTheirTargets) {
  EXPECT_EQ(load_error("game: morabaraba\nnetwork:\n  ownership_head: true\n"),
            path_ + ":3: network.ownership_head: morabaraba declares no ownership of cells to train on");
  EXPECT_EQ(load_error("game: virus_war\nnetwork:\n  score_head: true\n"),
            path_ + ":3: network.score_head: virus_war declares no final score to train on");
  EXPECT_EQ(load_error("game: morabaraba\nnetwork:\n  spatial_policy: true\n"),
            path_ + ":3: network.spatial_policy: morabaraba declares no layout of its actions on the board (use the "
                    "linear policy head)");
  nn_testing::write_text(path_, "game: virus_war\nnetwork:\n  ownership_head: true\ntraining:\n  ownership_loss_weight: 0.5\n");
  const TrainConfig cfg = load_train_config(path_);
  EXPECT_TRUE(cfg.network.ownership_head);
  EXPECT_EQ(cfg.training.ownership_loss_weight, 0.5);
}

TEST_F(TrainConfigErrors, TheScoreUtilityNeedsTheScoreHead) {
  EXPECT_EQ(load_error("game: squares\nsearch:\n  score_utility: 0.5\n"),
            path_ + ":3: search.score_utility: the score utility weighs the score margin the network predicts, and it "
                    "predicts none: set network.score_head: true");
  nn_testing::write_text(path_, "game: squares\nnetwork:\n  score_head: true\nsearch:\n  score_utility: 0.5\n");
  EXPECT_EQ(load_train_config(path_).eval_search.score_utility, 0.5f);
}

TEST_F(TrainConfigErrors, AFastBudgetAboveTheFullOneNamesBothKeys) {
  EXPECT_EQ(load_error("game: virus_war\nsearch:\n  simulations: 8\nself_play:\n  full_search_fraction: 0.5\n"
                       "  fast_simulations: 9\n"),
            path_ + ":6: self_play.fast_simulations: 9 must not exceed search.simulations (8), the full budget");
}

TEST_F(TrainConfigErrors, UnknownKeyNamesLineAndSuggestsTheKey) {
  EXPECT_EQ(load_error("game: virus_war\ntraining:\n  batch_sise: 64\n"),
            path_ + ":3: unknown key 'training.batch_sise'; did you mean 'training.batch_size'?");
  EXPECT_EQ(load_error("netwrok:\n  blocks: 1\n"), path_ + ":1: unknown section 'netwrok'; did you mean 'network'?");
}

TEST_F(TrainConfigErrors, WrongType) {
  EXPECT_EQ(load_error("seed: 1\ntraining:\n  batch_size: lots\n"),
            path_ + ":3: training.batch_size: expected an integer, got 'lots'");
  EXPECT_EQ(load_error("training:\n  augment: maybe\n"), path_ + ":2: training.augment: expected true or false, got 'maybe'");
}

TEST_F(TrainConfigErrors, OutOfRange) {
  EXPECT_EQ(load_error("network:\n  channels: 0\n"), path_ + ":2: network.channels: expected an integer in [1, 512], got 0");
  EXPECT_EQ(load_error("\n\ntraining:\n  learning_rate: -0.5\n"),
            path_ + ":4: training.learning_rate: expected a number in [1e-07, 10], got -0.5");
}

TEST_F(TrainConfigErrors, NotOneOfTheChoices) {
  EXPECT_EQ(load_error("search:\n  algorithm: alphabeta\n"),
            path_ + ":2: search.algorithm: expected one of puct, gumbel, uct, got 'alphabeta'");
}

TEST_F(TrainConfigErrors, YamlSyntaxError) {
  const std::string message = load_error("game: virus_war\nnetwork:\n  blocks: [1, 2\n  channels: 8\n");
  EXPECT_EQ(message.rfind(path_ + ":", 0), 0u) << message;
  EXPECT_NE(message.find("YAML syntax error"), std::string::npos) << message;
  const std::string line = message.substr(path_.size() + 1, message.find(':', path_.size() + 1) - path_.size() - 1);
  EXPECT_GE(std::stoi(line), 3) << message;
}

TEST_F(TrainConfigErrors, UnknownGameNamesItsLine) {
  const std::string message = load_error("seed: 2\ngame: chess\n");
  EXPECT_EQ(message.rfind(path_ + ":2: game: ", 0), 0u) << message;
  EXPECT_NE(message.find("chess"), std::string::npos) << message;
  const std::string parameter = load_error("game: virus_war(colour=red)\n");
  EXPECT_EQ(parameter.rfind(path_ + ":1: game: ", 0), 0u) << parameter;
  EXPECT_NE(parameter.find("colour"), std::string::npos) << parameter;
}

TEST_F(TrainConfigErrors, BadOpponentSpecNamesItsLine) {
  const std::string message = load_error("evaluation:\n  games: 4\n  opponents: [random, minimax:3]\n");
  EXPECT_EQ(message.rfind(path_ + ":3: evaluation.opponents: ", 0), 0u) << message;
  EXPECT_NE(message.find("player 'minimax:3'"), std::string::npos) << message;
  const std::string uct = load_error("evaluation:\n  opponents:\n    - random\n    - uct:lots\n");
  EXPECT_EQ(uct.rfind(path_ + ":", 0), 0u) << uct;
  EXPECT_NE(uct.find("uct needs a number of simulations"), std::string::npos) << uct;
}

// An empty config (or one of comments) started a full default run of a game nobody chose.
TEST_F(TrainConfigErrors, AConfigThatNamesNoGameIsRefused) {
  const std::string expected = "config file '" + path_ +
                               "' names no game: a config says at least which game to train, e.g. 'game: virus_war' "
                               "(`boardlab train --print-config` lists every key)";
  EXPECT_EQ(load_error(""), expected);
  EXPECT_EQ(load_error("# a config to fill in\n\n# network:\n#   channels: 64\n"), expected);
  EXPECT_EQ(load_error("seed: 3\n"), expected);
  // Named by the file or by an override, it loads.
  nn_testing::write_text(path_, "# comments only\n");
  EXPECT_EQ(load_train_config(path_, {"game=morabaraba"}).game, "morabaraba");
  nn_testing::write_text(path_, "game: virus_war\n");
  EXPECT_EQ(load_train_config(path_).game, "virus_war");
}

// An evaluation with no opponent has nothing to play: refused where the list was written,
// before a run starts, not at the run's first evaluation.
TEST_F(TrainConfigErrors, AnEmptyOpponentListNamesItsKey) {
  EXPECT_EQ(load_error("evaluation:\n  games: 4\n  opponents: []\n"),
            path_ + ":3: evaluation.opponents: expected a list of at least 1 item, got an empty list");
  EXPECT_EQ(load_error("evaluation:\n  opponents:\n"),
            path_ + ":2: evaluation.opponents: expected a list of at least 1 item, got an empty list");
  EXPECT_EQ(load_error("", {"evaluation.opponents=[]"}),
            "--set evaluation.opponents=[]: expected a list of at least 1 item, got an empty list");
  // A struct filled in code is checked the same way.
  TrainConfig t;
  t.evaluation.opponents.clear();
  EXPECT_EQ(error_of<ConfigError>([&] { Config(t).validate("train"); }),
            "train 'evaluation.opponents': expected a list of at least 1 item, got an empty list");
}

TEST_F(TrainConfigErrors, MissingFile) {
  const std::string missing = dir_ / "nowhere.yaml";
  EXPECT_EQ(error_of<ConfigError>([&] { load_train_config(missing); }),
            "cannot read config file '" + missing + "': No such file or directory");
}

TEST_F(TrainConfigErrors, BadOverridesNameTheOverride) {
  EXPECT_EQ(load_error("", {"training.batch_size=abc"}), "--set training.batch_size=abc: expected an integer, got 'abc'");
  EXPECT_EQ(load_error("", {"training.bach_size=3"}),
            "--set training.bach_size=3: unknown key 'training.bach_size'; did you mean 'training.batch_size'?");
  EXPECT_EQ(load_error("", {"training.batch_size"}), "--set training.batch_size: expected key.path=value");
  EXPECT_EQ(load_error("", {"training=3"}), "--set training=3: 'training' is a section, not a key");
  EXPECT_EQ(load_error("", {"self_play.workers=0"}), "--set self_play.workers=0: expected an integer in [1, 256], got 0");
  EXPECT_EQ(load_error("", {"search.simulatons=3"}),
            "--set search.simulatons=3: unknown key 'search.simulatons'; did you mean 'search.simulations'?");
  EXPECT_EQ(load_error("", {"search.hidden=peek"}),
            "--set search.hidden=peek: expected one of information_set, single_sample, got 'peek'");
  // A value the schema accepts but the game registry does not: the override, not the file, is at fault.
  const std::string game = load_error("seed: 1\n", {"game=chess"});
  EXPECT_EQ(game.rfind("--set game=chess: ", 0), 0u) << game;
  const std::string opponent = load_error("seed: 1\n", {"evaluation.opponents=[uct:x]"});
  EXPECT_EQ(opponent.rfind("--set evaluation.opponents=[uct:x]: ", 0), 0u) << opponent;
}

TEST(TrainConfig, EvaluationConcealedMovesFollowTheSearchUnlessSet) {
  const auto game = std::string("game: stratego(variant=barrage)\n");
  const TrainConfig inherited = parse_train_config(game, "x.yaml", {"search.concealed_moves=policy"});
  EXPECT_EQ(inherited.evaluation.concealed_moves, ConcealedMoves::kPolicy);
  EXPECT_EQ(inherited.eval_search.concealed_moves, ConcealedMoves::kPolicy);
  // The dump shows the evaluation key resolved, not only search's.
  const std::size_t evaluation = inherited.yaml.find("\nevaluation:");
  ASSERT_NE(evaluation, std::string::npos);
  EXPECT_NE(inherited.yaml.find("concealed_moves: policy", evaluation), std::string::npos);
  const TrainConfig set =
      parse_train_config(game, "x.yaml", {"search.concealed_moves=policy", "evaluation.concealed_moves=search_mixed"});
  EXPECT_EQ(set.search.concealed_moves, ConcealedMoves::kPolicy);  // self-play is unchanged
  EXPECT_EQ(set.eval_search.concealed_moves, ConcealedMoves::kSearchMixed);
  // The run folder's config says what evaluation played, and reads back to the same.
  EXPECT_EQ(parse_train_config(set.yaml, "config.yaml").eval_search.concealed_moves, ConcealedMoves::kSearchMixed);
}

}  // namespace
}  // namespace boardlab
