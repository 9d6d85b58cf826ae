// Tests for the training config: the shipped config loads, and each kind of mistake gives a message with its file and line.
#include "nn/train_config.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

TEST(TrainConfig, ShippedConfigLoadsAndItsYamlReadsBackTheSame) {
  const TrainConfig cfg = load_train_config(std::string(BOARDLAB_SOURCE_DIR) + "/configs/virus_war.yaml");
  EXPECT_EQ(cfg.game, "virus_war");
  EXPECT_EQ(cfg.network.blocks, 2);
  EXPECT_EQ(cfg.search.algorithm, SearchAlgorithm::kGumbel);
  EXPECT_EQ(cfg.eval_opponents, (std::vector<std::string>{"random", "uct:200"}));
  EXPECT_EQ(cfg.optimizer.total_steps, cfg.max_steps);
  const TrainConfig again = parse_train_config(cfg.yaml, "config.yaml");
  EXPECT_EQ(again.yaml, cfg.yaml);
  // Overrides apply on top of the file, the last one winning.
  const TrainConfig tiny = parse_train_config(
      cfg.yaml, "config.yaml", {"network.blocks=1", "network.channels=8", "evaluation.opponents=[random]", "network.blocks=3"});
  EXPECT_EQ(tiny.network.blocks, 3);
  EXPECT_EQ(tiny.network.channels, 8);
  EXPECT_EQ(tiny.eval_opponents, (std::vector<std::string>{"random"}));
  EXPECT_NE(tiny.yaml.find("channels: 8"), std::string::npos);
}

TEST(TrainConfig, LearningAcceleratorsAreOffByDefaultAndReadTheirKeys) {
  const std::string text = "game: virus_war\n";
  const TrainConfig plain = parse_train_config(text, "config.yaml");
  EXPECT_EQ(plain.self_play.full_search_fraction, 1.0);
  EXPECT_EQ(plain.optimizer.value_target_mix, 0.0);
  const TrainConfig on = parse_train_config(
      text, "config.yaml",
      {"self_play.full_search_fraction=0.25", "self_play.fast_simulations=4", "training.value_target_mix=0.5"});
  EXPECT_EQ(on.self_play.full_search_fraction, 0.25);
  EXPECT_EQ(on.self_play.fast_simulations, 4);
  EXPECT_EQ(on.optimizer.value_target_mix, 0.5);
}

TEST_F(TrainConfigErrors, AuxiliaryHeadsNeedAGameThatDeclaresTheirTargets) {
  EXPECT_EQ(load_error("game: morabaraba\nnetwork:\n  ownership_head: true\n"),
            path_ + ":3: network.ownership_head: morabaraba declares no ownership of cells to train on");
  EXPECT_EQ(load_error("game: virus_war\nnetwork:\n  score_head: true\n"),
            path_ + ":3: network.score_head: virus_war declares no final score to train on");
  nn_testing::write_text(path_, "game: virus_war\nnetwork:\n  ownership_head: true\ntraining:\n  ownership_loss_weight: 0.5\n");
  const TrainConfig cfg = load_train_config(path_);
  EXPECT_TRUE(cfg.network.ownership_head);
  EXPECT_EQ(cfg.optimizer.ownership_loss_weight, 0.5);
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
            path_ + ":2: search.algorithm: expected one of gumbel, puct, got 'alphabeta'");
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
  // A value the schema accepts but the game registry does not: the override, not the file, is at fault.
  const std::string game = load_error("seed: 1\n", {"game=chess"});
  EXPECT_EQ(game.rfind("--set game=chess: ", 0), 0u) << game;
  const std::string opponent = load_error("seed: 1\n", {"evaluation.opponents=[uct:x]"});
  EXPECT_EQ(opponent.rfind("--set evaluation.opponents=[uct:x]: ", 0), 0u) << opponent;
}

}  // namespace
}  // namespace boardlab
