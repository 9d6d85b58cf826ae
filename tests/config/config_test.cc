// Tests for config keys bound to a struct: YAML files, --set, options, checks, every error message with its file and line, and to_yaml.
#include "config/config.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/text.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

// Runs `f` and expects a programming error: a std::logic_error that is not bad input
// (InputError is a std::logic_error too, so catching logic_error alone would not tell).
template <class F>
std::string programming_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    ADD_FAILURE() << "expected a programming error, got InputError: " << e.what();
    return {};
  } catch (const std::logic_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::logic_error";
  return {};
}

enum class Rule { kPuct, kGumbel, kUct };
constexpr EnumName<Rule> kRuleNames[] = {{Rule::kPuct, "puct"}, {Rule::kGumbel, "gumbel"}, {Rule::kUct, "uct"}};

struct EvalSettings {
  std::int64_t games = 100;
  template <class V>
  void visit(V& v) {
    v("games", games, "", Range::at_least(0));
  }
  bool operator==(const EvalSettings&) const = default;
};

struct TrainingSettings {
  int batch_size = 128;
  double learning_rate = 0.001;
  std::string optimizer = "adam";
  std::vector<std::string> opponents = {"random", "uct:200"};
  EvalSettings eval;
  template <class V>
  void visit(V& v) {
    v("batch_size", batch_size, "positions per step", Range::between(1, 65536));
    v("learning_rate", learning_rate, "step size", Range::between(1e-6, 1));
    v("optimizer", optimizer, "update rule", Choices{"adam", "sgd"});
    v("opponents", opponents, "bots mixed into self-play");
    v.section("eval", eval);
  }
  bool operator==(const TrainingSettings&) const = default;
};

// The keys of a player spec's options in these tests, and a section of RunSettings.
struct SearchSettings {
  int simulations = 200;
  double c_puct = 1.25;
  float temperature = 0.3f;
  Rule rule = Rule::kPuct;
  bool reuse = false;
  template <class V>
  void visit(V& v) {
    v("simulations", simulations, "per move", Range::at_least(1));
    v("c_puct", c_puct, "exploration", Range::at_least(0));
    v("temperature", temperature, "sampling", Range::above(0, 10));
    v("rule", rule, "selection rule", kRuleNames);
    v("reuse", reuse, "keep the tree");
  }
  bool operator==(const SearchSettings&) const = default;
};

struct RunSettings {
  std::string name = "baseline";
  std::int64_t seed = 0;
  bool deterministic = false;
  TrainingSettings training;
  SearchSettings mcts;
  std::vector<std::string> players = {"random"};
  template <class V>
  void visit(V& v) {
    v.section("run", [&] {
      v("name", name, "name of the run folder");
      v("seed", seed, "random seed");
      v("deterministic", deterministic, "bitwise reproducible");
    });
    v.section("training", training);
    v.section("mcts", mcts);
    v.section("eval", [&] { v("players", players, "bots to rate against", Choices{"random", "greedy", "uct"}); });
  }
  bool operator==(const RunSettings&) const = default;
};

const std::vector<std::string> kPaths = {"run.name",         "run.seed",        "run.deterministic",
                                         "training.batch_size", "training.learning_rate", "training.optimizer",
                                         "training.opponents",  "training.eval.games",    "mcts.simulations",
                                         "mcts.c_puct",         "mcts.temperature",       "mcts.rule",
                                         "mcts.reuse",          "eval.players"};

RunSettings parse(std::string_view text, const std::vector<std::string>& overrides = {}) {
  RunSettings s;
  Config config(s);
  config.read_yaml(text, "run.yaml");
  for (const auto& item : overrides) config.set(item);
  return s;
}

std::string parse_error(std::string_view text) {
  return error_of<ConfigError>([&] { parse(text); });
}

std::string override_error(const std::string& override_text) {
  return error_of<ConfigError>([&] { parse("", {override_text}); });
}

std::string option_error(std::string_view options) {
  SearchSettings s;
  return error_of<ConfigError>([&] { Config(s).set_options(options, "search option"); });
}

TEST(ConfigKeys, VisitListsEveryKeyInOrderWithItsSections) {
  RunSettings s;
  const Config config(s);
  std::vector<std::string> paths;
  for (const auto& key : config.keys()) paths.push_back(key.path);
  EXPECT_EQ(paths, kPaths);
  EXPECT_EQ(config.keys()[2].type, ConfigType::kBool);
  EXPECT_EQ(config.keys()[1].type, ConfigType::kInt);
  EXPECT_EQ(config.keys()[10].type, ConfigType::kFloat);
  EXPECT_EQ(config.keys()[11].choices, (std::vector<std::string>{"puct", "gumbel", "uct"}));
}

TEST(ConfigRead, EmptyTextChangesNothing) {
  for (const char* text : {"", "\n\n", "# nothing set yet\n", "---\n"}) {
    RunSettings s;
    Config config(s);
    config.read_yaml(text, "run.yaml");
    EXPECT_EQ(s, RunSettings{}) << text;
    for (const auto& path : kPaths) EXPECT_FALSE(config.was_set(path)) << path;
  }
}

TEST(ConfigRead, FileValuesReplaceDefaultsAndAreMarkedSet) {
  RunSettings s;
  Config config(s);
  config.read_yaml(
      "run:\n"
      "  name: exp1  # a comment\n"
      "  deterministic: true\n"
      "training:\n"
      "  batch_size: 64\n"
      "  learning_rate: 3e-4\n"
      "  optimizer: sgd\n"
      "  eval:\n"
      "    games: 10\n"
      "mcts:\n"
      "  rule: gumbel\n"
      "  temperature: 0.7\n",
      "run.yaml");
  EXPECT_EQ(s.name, "exp1");
  EXPECT_TRUE(s.deterministic);
  EXPECT_EQ(s.training.batch_size, 64);
  EXPECT_DOUBLE_EQ(s.training.learning_rate, 3e-4);
  EXPECT_EQ(s.training.optimizer, "sgd");
  EXPECT_EQ(s.training.eval.games, 10);
  EXPECT_EQ(s.mcts.rule, Rule::kGumbel);
  EXPECT_EQ(s.mcts.temperature, 0.7f);
  EXPECT_TRUE(config.was_set("training.batch_size"));
  EXPECT_TRUE(config.was_set("training.eval.games"));
  EXPECT_FALSE(config.was_set("run.seed"));
  EXPECT_FALSE(config.was_set("mcts.simulations"));
  EXPECT_EQ(s.mcts.simulations, 200);
  EXPECT_EQ(config.origin("training.batch_size"), "run.yaml:5: training.batch_size: ");
  EXPECT_EQ(config.origin("run.seed"), "defaults: run.seed: ");
  EXPECT_EQ(config.origin_of(s.training.batch_size), "run.yaml:5: training.batch_size: ");
  EXPECT_EQ(config.origin_of(s.mcts.rule), "run.yaml:11: mcts.rule: ");
}

TEST(ConfigRead, DottedKeysAndEmptySectionsAreAccepted) {
  const RunSettings s = parse(
      "training.batch_size: 32\n"
      "training:\n"
      "  eval.games: 7\n"
      "mcts:\n"
      "  # simulations: 50\n");
  EXPECT_EQ(s.training.batch_size, 32);
  EXPECT_EQ(s.training.eval.games, 7);
  EXPECT_EQ(s.mcts.simulations, 200);
}

TEST(ConfigRead, ListsInBlockOrFlowStyleAndEmpty) {
  EXPECT_EQ(parse("training:\n  opponents:\n    - random\n    - \"uct:400\"\n    - greedy\n").training.opponents,
            (std::vector<std::string>{"random", "uct:400", "greedy"}));
  EXPECT_EQ(parse("training: {opponents: [uct:50, random]}").training.opponents,
            (std::vector<std::string>{"uct:50", "random"}));
  EXPECT_TRUE(parse("training:\n  opponents: []\n").training.opponents.empty());
  EXPECT_TRUE(parse("training:\n  opponents:\n").training.opponents.empty());
  EXPECT_EQ(parse("eval:\n  players: [uct, greedy]\n").players, (std::vector<std::string>{"uct", "greedy"}));
}

TEST(ConfigRead, IntegersAcceptOnlyDecimalDigitsThatFitTheField) {
  EXPECT_EQ(parse("run:\n  seed: -3\n").seed, -3);
  EXPECT_EQ(parse("run:\n  seed: +7\n").seed, 7);
  EXPECT_EQ(parse("run:\n  seed: \"42\"\n").seed, 42);
  EXPECT_EQ(parse("run:\n  seed: 9223372036854775807\n").seed, 9223372036854775807);
  EXPECT_EQ(parse_error("run:\n  seed: 1.5\n"), "run.yaml:2: run.seed: expected an integer, got '1.5'");
  EXPECT_EQ(parse_error("run:\n  seed: 1e3\n"), "run.yaml:2: run.seed: expected an integer, got '1e3'");
  EXPECT_EQ(parse_error("run:\n  seed: 0x10\n"), "run.yaml:2: run.seed: expected an integer, got '0x10'");
  EXPECT_EQ(parse_error("run:\n  seed: +-3\n"), "run.yaml:2: run.seed: expected an integer, got '+-3'");
  EXPECT_EQ(parse_error("run:\n  seed: 9223372036854775808\n"),
            "run.yaml:2: run.seed: expected an integer, got '9223372036854775808', beyond the range of a 64-bit "
            "integer");
  // An int field holds 32 bits: a larger value is refused, not wrapped.
  EXPECT_EQ(parse("mcts:\n  simulations: 2147483647\n").mcts.simulations, 2147483647);
  EXPECT_EQ(parse_error("mcts:\n  simulations: 2147483648\n"),
            "run.yaml:2: mcts.simulations: expected an integer, got '2147483648', beyond the range of a 32-bit "
            "integer");
}

TEST(ConfigRead, FloatsAcceptIntegersAndDecimalForms) {
  EXPECT_DOUBLE_EQ(parse("training:\n  learning_rate: 1\n").training.learning_rate, 1.0);
  EXPECT_DOUBLE_EQ(parse("training:\n  learning_rate: .5\n").training.learning_rate, 0.5);
  EXPECT_DOUBLE_EQ(parse("training:\n  learning_rate: 5E-4\n").training.learning_rate, 5e-4);
  EXPECT_DOUBLE_EQ(parse("mcts:\n  c_puct: +2.\n").mcts.c_puct, 2.0);
  EXPECT_EQ(parse_error("mcts:\n  c_puct: .inf\n"), "run.yaml:2: mcts.c_puct: expected a number, got '.inf'");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: nan\n"), "run.yaml:2: mcts.c_puct: expected a number, got 'nan'");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: 1e\n"), "run.yaml:2: mcts.c_puct: expected a number, got '1e'");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: +-2\n"), "run.yaml:2: mcts.c_puct: expected a number, got '+-2'");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: 1e999\n"),
            "run.yaml:2: mcts.c_puct: expected a number, got '1e999', beyond the range of a double");
}

TEST(ConfigRead, EnumsReadTheirNames) {
  EXPECT_EQ(parse("mcts:\n  rule: uct\n").mcts.rule, Rule::kUct);
  EXPECT_EQ(parse_error("mcts:\n  rule: alphabeta\n"),
            "run.yaml:2: mcts.rule: expected one of puct, gumbel, uct, got 'alphabeta'");
  EXPECT_EQ(parse_error("mcts:\n  rule: [uct]\n"), "run.yaml:2: mcts.rule: expected a string, got a list");
}

TEST(ConfigRead, FileThenOverrides) {
  const std::string path = ::testing::TempDir() + "config_test_load.yaml";
  {
    std::ofstream out(path);
    out << "training:\n  batch_size: 256\n\nmcts:\n  simulations: zero\n";
  }
  RunSettings s;
  Config config(s);
  EXPECT_EQ(error_of<ConfigError>([&] { config.read_file(path); }),
            path + ":5: mcts.simulations: expected an integer, got 'zero'");
  {
    std::ofstream out(path);
    out << "training:\n  batch_size: 256\n\nmcts:\n  simulations: 20\n";
  }
  RunSettings t;
  Config again(t);
  again.read_file(path);
  again.set("mcts.simulations=50");
  EXPECT_EQ(t.training.batch_size, 256);
  EXPECT_EQ(t.mcts.simulations, 50);
  EXPECT_EQ(again.origin("mcts.simulations"), "--set mcts.simulations=50: ");
  std::remove(path.c_str());
}

TEST(ConfigRead, UnreadableFileNamesThePathAndTheReason) {
  RunSettings s;
  Config config(s);
  EXPECT_EQ(error_of<ConfigError>([&] { config.read_file("/nonexistent/run.yaml"); }),
            "cannot read config file '/nonexistent/run.yaml': No such file or directory");
  const std::string directory = ::testing::TempDir();
  EXPECT_EQ(error_of<ConfigError>([&] { config.read_file(directory); }),
            "cannot read config file '" + directory + "': it is a folder");
}

TEST(ConfigRead, OnlyRegularFilesUpToTheLimitAreRead) {
  // /dev/zero grew without bound (1.2 GB in 20 s), and a FIFO would wait for a writer.
  RunSettings s;
  Config config(s);
  EXPECT_EQ(error_of<ConfigError>([&] { config.read_file("/dev/zero"); }),
            "cannot read config file '/dev/zero': it is not a regular file (a device, FIFO or socket)");
  const std::string path = ::testing::TempDir() + "config_test_large.yaml";
  {
    std::ofstream out(path);
    out << "training:\n  batch_size: 256\n";
    out << std::string(kMaxConfigFileBytes, '#');  // a comment past the limit
  }
  EXPECT_EQ(error_of<ConfigError>([&] { config.read_file(path); }),
            "config file '" + path + "' is larger than 1 MiB: not a config file");
  {
    std::ofstream out(path);
    out << "training:\n  batch_size: 256\n";
    out << "#" << std::string(kMaxConfigFileBytes - 30, '#') << "\n";  // just under it
  }
  config.read_file(path);
  EXPECT_EQ(s.training.batch_size, 256);
  std::remove(path.c_str());
}

TEST(ConfigErrors, YamlSyntaxError) {
  EXPECT_EQ(parse_error("training:\n  batch_size: 64\n   optimizer: sgd\n"),
            "run.yaml:3: YAML syntax error: illegal map value");
  EXPECT_EQ(parse_error("training:\n  opponents: [random, uct\n"),
            "run.yaml:3: YAML syntax error: end of sequence flow not found");
}

TEST(ConfigErrors, UnknownKeySuggestsTheClosestKey) {
  EXPECT_EQ(parse_error("training:\n  batchsize: 64\n"),
            "run.yaml:2: unknown key 'training.batchsize'; did you mean 'training.batch_size'?");
  EXPECT_EQ(parse_error("training:\n  optimzier: sgd\n"),
            "run.yaml:2: unknown key 'training.optimzier'; did you mean 'training.optimizer'?");
  // Far from every path, but the same last part as a key in another section.
  EXPECT_EQ(parse_error("run:\n  seed: 1\nbatch_size: 64\n"),
            "run.yaml:3: unknown key 'batch_size'; did you mean 'training.batch_size'?");
  EXPECT_EQ(parse_error("eval:\n  games: 5\n"),
            "run.yaml:2: unknown key 'eval.games'; did you mean 'training.eval.games'?");
  EXPECT_EQ(parse_error("training:\n  momentum: 0.9\n"), "run.yaml:2: unknown key 'training.momentum'");
}

// A token that starts no node (',' after a flow collection or alone) made yaml-cpp's
// LoadAll read empty documents forever, growing past 23 GB (found by fuzz/config).
TEST(ConfigErrors, AStrayTokenAfterTheDocumentIsASyntaxError) {
  EXPECT_EQ(parse_error("[a],"), "run.yaml:1: YAML syntax error: unexpected ','");
  EXPECT_EQ(parse_error(","), "run.yaml:1: YAML syntax error: unexpected ','");
  EXPECT_EQ(parse_error("{training: {batch_size: 64}}, x\n"), "run.yaml:1: YAML syntax error: unexpected ','");
  // Load stopped before it and kept the list: "[random], uct:100" was read as [random].
  EXPECT_EQ(override_error("training.opponents=[random], uct:100"),
            "--set training.opponents=[random], uct:100: YAML syntax error: unexpected ','");
  EXPECT_EQ(override_error("training.batch_size=1\n---\n2"),
            "--set training.batch_size=1\\x0a---\\x0a2: expected one YAML value, found a second document after a '---' "
            "line");
}

TEST(ConfigErrors, UnknownSectionSuggestsTheClosestSection) {
  EXPECT_EQ(parse_error("trainig:\n  batch_size: 64\n"),
            "run.yaml:1: unknown section 'trainig'; did you mean 'training'?");
  EXPECT_EQ(parse_error("training:\n  evals:\n    games: 3\n"),
            "run.yaml:2: unknown section 'training.evals'; did you mean 'training.eval'?");
  EXPECT_EQ(parse_error("network:\n  blocks: 10\n"), "run.yaml:1: unknown section 'network'");
}

TEST(ConfigErrors, WrongTypeNamesTheKeyTheExpectationAndTheValue) {
  EXPECT_EQ(parse_error("training:\n  batch_size: abc\n"),
            "run.yaml:2: training.batch_size: expected an integer, got 'abc'");
  EXPECT_EQ(parse_error("run:\n  deterministic: yes\n"),
            "run.yaml:2: run.deterministic: expected true or false, got 'yes'");
  EXPECT_EQ(parse_error("training:\n  learning_rate: fast\n"),
            "run.yaml:2: training.learning_rate: expected a number, got 'fast'");
  EXPECT_EQ(parse_error("run:\n  name: [a, b]\n"), "run.yaml:2: run.name: expected a string, got a list");
  EXPECT_EQ(parse_error("training:\n  opponents: random\n"),
            "run.yaml:2: training.opponents: expected a list of strings, got 'random'");
  EXPECT_EQ(parse_error("training:\n  opponents:\n    - random\n    - {uct: 200}\n"),
            "run.yaml:4: training.opponents[1]: expected a string, got a mapping");
  EXPECT_EQ(parse_error("training:\n  batch_size:\n"),
            "run.yaml:2: training.batch_size: expected an integer, got no value");
  // A mapping where a value belongs, and a value where a section belongs.
  EXPECT_EQ(parse_error("training:\n  batch_size:\n    value: 64\n"),
            "run.yaml:2: training.batch_size: expected an integer, got a mapping");
  EXPECT_EQ(parse_error("run:\n  seed: 1\ntraining: 64\n"),
            "run.yaml:3: training: expected a section of keys, got '64'");
  EXPECT_EQ(parse_error("training:\n  - batch_size: 64\n"),
            "run.yaml:1: training: expected a section of keys, got a list");
}

TEST(ConfigErrors, OutOfRangeNamesTheRange) {
  EXPECT_EQ(parse_error("training:\n  learning_rate: 5\n"),
            "run.yaml:2: training.learning_rate: expected a number in [1e-06, 1], got 5");
  EXPECT_EQ(parse_error("training:\n  batch_size: 0\n"),
            "run.yaml:2: training.batch_size: expected an integer in [1, 65536], got 0");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: -0.5\n"), "run.yaml:2: mcts.c_puct: expected a number >= 0, got -0.5");
  EXPECT_EQ(parse_error("\n\nmcts:\n  temperature: 0\n"),
            "run.yaml:4: mcts.temperature: expected a number in (0, 10], got 0");
  EXPECT_EQ(parse("mcts:\n  temperature: 10\n").mcts.temperature, 10.0f);
}

TEST(ConfigErrors, NotOneOfTheChoices) {
  EXPECT_EQ(parse_error("training:\n  batch_size: 64\n  optimizer: adamw\n"),
            "run.yaml:3: training.optimizer: expected one of adam, sgd, got 'adamw'");
  EXPECT_EQ(parse_error("eval:\n  players:\n    - random\n    - alphazero\n"),
            "run.yaml:4: eval.players[1]: expected one of random, greedy, uct, got 'alphazero'");
}

TEST(ConfigErrors, DuplicateKeysAreRejected) {
  EXPECT_EQ(parse_error("training:\n  batch_size: 64\n  batch_size: 32\n"),
            "run.yaml:3: duplicate key 'training.batch_size' (first given on line 2)");
  EXPECT_EQ(parse_error("training:\n  batch_size: 64\nmcts:\n  simulations: 8\ntraining:\n  optimizer: sgd\n"),
            "run.yaml:5: duplicate key 'training' (first given on line 1)");
  EXPECT_EQ(parse_error("training:\n  batch_size: 64\ntraining.batch_size: 32\n"),
            "run.yaml:3: duplicate key 'training.batch_size' (first given on line 2)");
}

TEST(ConfigErrors, TopLevelMustBeOneMappingOfKeys) {
  EXPECT_EQ(parse_error("batch size 64\n"),
            "run.yaml:1: expected a mapping of keys at the top level, got 'batch size 64'");
  EXPECT_EQ(parse_error("- training\n- mcts\n"), "run.yaml:1: expected a mapping of keys at the top level, got a list");
  EXPECT_EQ(parse_error("training:\n  batch_size: 1\n---\nmcts:\n  simulations: 2\n"),
            "run.yaml:4: expected one YAML document, found another after a '---' line");
  EXPECT_EQ(parse_error("[a, b]: 1\n"), "run.yaml:1: expected a key name, got a list");
}

TEST(ConfigOverrides, OverridesBeatTheFileAndLaterOverridesWin) {
  RunSettings s;
  Config config(s);
  config.read_yaml("training:\n  batch_size: 64\n  optimizer: sgd\n", "run.yaml");
  for (const char* item : {"training.batch_size=32", "training.opponents=[random, uct:100]", "run.deterministic=true",
                           " training.batch_size = 16", "run.name=uct:5", "mcts.rule=gumbel"})
    config.set(item);
  EXPECT_EQ(s.training.batch_size, 16);
  EXPECT_EQ(s.training.optimizer, "sgd");
  EXPECT_EQ(s.training.opponents, (std::vector<std::string>{"random", "uct:100"}));
  EXPECT_TRUE(s.deterministic);
  EXPECT_EQ(s.name, "uct:5");
  EXPECT_EQ(s.mcts.rule, Rule::kGumbel);
  EXPECT_TRUE(config.was_set("training.opponents"));
  EXPECT_TRUE(config.was_set("run.name"));
  EXPECT_FALSE(config.was_set("mcts.simulations"));
}

TEST(ConfigOverrides, ErrorsNameTheOverride) {
  EXPECT_EQ(override_error("training.batch_size=abc"), "--set training.batch_size=abc: expected an integer, got 'abc'");
  EXPECT_EQ(override_error("foo.bar=1"), "--set foo.bar=1: unknown key 'foo.bar'");
  EXPECT_EQ(override_error("training.batchsize=1"),
            "--set training.batchsize=1: unknown key 'training.batchsize'; did you mean 'training.batch_size'?");
  EXPECT_EQ(override_error("x"), "--set x: expected key.path=value");
  EXPECT_EQ(override_error("=3"), "--set =3: expected key.path=value");
  EXPECT_EQ(override_error("training=3"), "--set training=3: 'training' is a section, not a key");
  EXPECT_EQ(override_error("training.learning_rate=2"),
            "--set training.learning_rate=2: expected a number in [1e-06, 1], got 2");
  EXPECT_EQ(override_error("training.optimizer=adamw"),
            "--set training.optimizer=adamw: expected one of adam, sgd, got 'adamw'");
  EXPECT_EQ(override_error("mcts.rule=minimax"),
            "--set mcts.rule=minimax: expected one of puct, gumbel, uct, got 'minimax'");
  EXPECT_EQ(override_error("eval.players=[random, alphazero]"),
            "--set eval.players=[random, alphazero]: eval.players[1]: expected one of random, greedy, uct, got "
            "'alphazero'");
  EXPECT_EQ(override_error("training.opponents=[random, uct"),
            "--set training.opponents=[random, uct: YAML syntax error: end of sequence flow not found");
}

TEST(ConfigOptions, PlayerSpecOptionsSetTheirKeys) {
  SearchSettings s;
  Config config(s);
  config.set_options("simulations=64,rule=gumbel,temperature=0.5,reuse=true,c_puct=2", "search option");
  EXPECT_EQ(s.simulations, 64);
  EXPECT_EQ(s.rule, Rule::kGumbel);
  EXPECT_EQ(s.temperature, 0.5f);
  EXPECT_TRUE(s.reuse);
  EXPECT_EQ(s.c_puct, 2.0);
  EXPECT_TRUE(config.was_set("rule"));
  config.set_options("", "search option");  // no options: nothing changes
  EXPECT_EQ(s.simulations, 64);
}

TEST(ConfigOptions, ErrorsNameTheOptionAndSuggestCloseNames) {
  EXPECT_EQ(option_error("simulatons=5"), "unknown search option 'simulatons'; did you mean 'simulations'?");
  EXPECT_EQ(option_error("budget=5"),
            "unknown search option 'budget' (known: simulations, c_puct, temperature, rule, reuse)");
  EXPECT_EQ(option_error("simulations=abc"), "search option 'simulations': expected an integer, got 'abc'");
  EXPECT_EQ(option_error("simulations=8x"), "search option 'simulations': expected an integer, got '8x'");
  EXPECT_EQ(option_error("simulations="), "search option 'simulations': expected an integer, got ''");
  EXPECT_EQ(option_error("simulations=0"), "search option 'simulations': expected an integer >= 1, got 0");
  EXPECT_EQ(option_error("c_puct=1.5x"), "search option 'c_puct': expected a number, got '1.5x'");
  EXPECT_EQ(option_error("rule=alphabeta"), "search option 'rule': expected one of puct, gumbel, uct, got 'alphabeta'");
  EXPECT_EQ(option_error("simulations=8,c_puct"), "search option 'c_puct' is not of the form key=value");
}

TEST(ConfigBooleans, OneSpellingSetInFilesOverridesAndOptions) {
  for (const char* yes : {"true", "True", "TRUE", "1"}) {
    EXPECT_EQ(parse_bool(yes), true) << yes;
    EXPECT_TRUE(parse(std::string("run:\n  deterministic: ") + yes + "\n").deterministic) << yes;
    EXPECT_TRUE(parse("", {std::string("run.deterministic=") + yes}).deterministic) << yes;
    SearchSettings s;
    Config(s).set_options(std::string("reuse=") + yes, "search option");
    EXPECT_TRUE(s.reuse) << yes;
  }
  for (const char* no : {"false", "False", "FALSE", "0"}) {
    EXPECT_EQ(parse_bool(no), false) << no;
    EXPECT_FALSE(parse("run:\n  deterministic: true\n", {std::string("run.deterministic=") + no}).deterministic)
        << no;
    EXPECT_FALSE(parse(std::string("run:\n  deterministic: ") + no + "\n").deterministic) << no;
    SearchSettings s;
    s.reuse = true;
    Config(s).set_options(std::string("reuse=") + no, "search option");
    EXPECT_FALSE(s.reuse) << no;
  }
  for (const char* other : {"yes", "no", "on", "off", "y", "tRUE", "2", ""}) {
    EXPECT_EQ(parse_bool(other), std::nullopt) << other;
    EXPECT_EQ(option_error(std::string("reuse=") + other),
              std::string("search option 'reuse': expected true or false, got '") + other + "'");
  }
  EXPECT_EQ(override_error("run.deterministic=off"), "--set run.deterministic=off: expected true or false, got 'off'");
}

TEST(ConfigValidate, ValuesSetInCodeAreCheckedAgainstTheirRanges) {
  SearchSettings s;
  Config config(s);
  config.validate("search option");  // the defaults pass
  s.temperature = 0;
  EXPECT_EQ(error_of<ConfigError>([&] { config.validate("search option"); }),
            "search option 'temperature': expected a number in (0, 10], got 0");
  s = SearchSettings{};
  s.simulations = -4;
  EXPECT_EQ(error_of<ConfigError>([&] { config.validate("search option"); }),
            "search option 'simulations': expected an integer >= 1, got -4");
  s = SearchSettings{};
  s.c_puct = std::nan("");
  EXPECT_EQ(error_of<ConfigError>([&] { config.validate("search option"); }),
            "search option 'c_puct': expected a number, got nan");
  RunSettings r;
  Config run(r);
  run.validate("setting");
  r.players = {"random", "minimax"};
  EXPECT_EQ(error_of<ConfigError>([&] { run.validate("setting"); }),
            "setting 'eval.players': eval.players[1]: expected one of random, greedy, uct, got 'minimax'");
}

TEST(ConfigToYaml, WritesSectionsInVisitOrderWithDocsAsComments) {
  const RunSettings s = parse("training:\n  batch_size: 64\n", {"run.name=my run", "training.learning_rate=3e-4"});
  RunSettings copy = s;
  EXPECT_EQ(Config(copy).to_yaml(),
            "run:\n"
            "  name: my run  # name of the run folder\n"
            "  seed: 0  # random seed\n"
            "  deterministic: false  # bitwise reproducible\n"
            "\n"
            "training:\n"
            "  batch_size: 64  # positions per step\n"
            "  learning_rate: 0.0003  # step size\n"
            "  optimizer: adam  # update rule\n"
            "  opponents: [random, uct:200]  # bots mixed into self-play\n"
            "  eval:\n"
            "    games: 100\n"
            "\n"
            "mcts:\n"
            "  simulations: 200  # per move\n"
            "  c_puct: 1.25  # exploration\n"
            "  temperature: 0.3  # sampling\n"
            "  rule: puct  # selection rule\n"
            "  reuse: false  # keep the tree\n"
            "\n"
            "eval:\n"
            "  players: [random]  # bots to rate against\n");
}

TEST(ConfigToYaml, RoundTripsThroughReadToEqualValues) {
  // Each pair: a string as YAML text in an override, and the string it means.
  const std::vector<std::pair<std::string, std::string>> strings = {
      {"plain", "plain"},
      {"\"\"", ""},
      {"\"null\"", "null"},
      {"\"~\"", "~"},
      {"\"true\"", "true"},
      {"\"-5\"", "-5"},
      {"\"a: b # c\"", "a: b # c"},
      {"\"it's \\\"quoted\\\"\"", "it's \"quoted\""},
      {"\"two\\nlines\\tand tab\"", "two\nlines\tand tab"},
      {"\" padded \"", " padded "},
      {"\"back\\\\slash\"", "back\\slash"},
      {"\"bell\\x07\"", "bell\x07"},
      {"\"[x], {y}, z&*!|>%@`\"", "[x], {y}, z&*!|>%@`"},
      {"ünïcødé", "ünïcødé"},
      {"uct:200", "uct:200"},
      {"\"ends:\"", "ends:"},
      {"\"#x\"", "#x"},
      {"\"x #y\"", "x #y"},
      {"\"- item\"", "- item"},
      {"\"? q\"", "? q"},
      {"\"'single'\"", "'single'"},
      {"\"!tag\"", "!tag"},
      {"\"*alias\"", "*alias"},
      {"\"&anchor\"", "&anchor"},
      {"\"%pct\"", "%pct"},
      {"\"@at\"", "@at"},
      {"\"yes\"", "yes"},
      {"\".inf\"", ".inf"},
      {"\"|\"", "|"},
      {"\"a, b\"", "a, b"},
      {"\"---\"", "---"},
  };
  std::vector<std::string> overrides = {"run.seed=-9007199254740993", "training.learning_rate=1e-6",
                                        "mcts.c_puct=0.1",           "run.deterministic=true",
                                        "training.eval.games=0",     "mcts.temperature=0.1",
                                        "mcts.rule=uct",             "mcts.reuse=true"};
  std::string list = "[";
  std::vector<std::string> expected_list;
  for (const auto& [text, meaning] : strings) {
    list += (list.size() > 1 ? ", " : "") + text;
    expected_list.push_back(meaning);
  }
  overrides.push_back("training.opponents=" + list + "]");

  for (const auto& [text, meaning] : strings) {
    overrides.push_back("run.name=" + text);
    RunSettings s = parse("", overrides);
    overrides.pop_back();
    ASSERT_EQ(s.name, meaning) << text;
    ASSERT_EQ(s.training.opponents, expected_list);
    const std::string yaml = Config(s).to_yaml();
    RunSettings again;
    Config reader(again);
    reader.read_yaml(yaml, "saved.yaml");
    EXPECT_EQ(again, s) << yaml;
    for (const auto& path : kPaths) EXPECT_TRUE(reader.was_set(path)) << path;  // every key is written
    EXPECT_EQ(Config(again).to_yaml(), yaml);
  }
}

TEST(ConfigToYaml, FloatsRoundTripExactly) {
  for (const char* text : {"0.1", "1e-9", "1e300", "123456789.125", "2.5e-308", "0", "1.7976931348623157e308"}) {
    RunSettings s = parse("", {std::string("mcts.c_puct=") + text});
    const RunSettings again = parse(Config(s).to_yaml());
    EXPECT_EQ(again.mcts.c_puct, s.mcts.c_puct) << text;
  }
  // A float field is written as its shortest decimal, which reads back as the same float.
  for (const float v : {0.3f, 0.1f, 1e-7f, 3.4028235e38f, 1.17549435e-38f, 7.0f, 0.999f}) {
    RunSettings s;
    s.mcts.temperature = v;
    if (!Range::above(0, 10).contains(v)) {
      s.mcts.temperature = 0.5f;
      s.mcts.c_puct = v;  // out of the temperature's range: round trip through a double field
    }
    const std::string yaml = Config(s).to_yaml();
    EXPECT_EQ(parse(yaml), s) << yaml;
  }
  RunSettings s;
  EXPECT_NE(Config(s).to_yaml().find("temperature: 0.3  #"), std::string::npos);
}

struct FloatOnly {
  float x = 1;
  template <class V>
  void visit(V& v) {
    v("x", x, "no declared range");
  }
};

TEST(ConfigRead, FloatFieldsRefuseWhatAFloatCannotHold) {
  FloatOnly s;
  Config config(s);
  EXPECT_EQ(error_of<ConfigError>([&] { config.set("x=1e39"); }),
            "--set x=1e39: expected a number, got '1e39', beyond the range of a float");
  EXPECT_EQ(error_of<ConfigError>([&] { config.read_yaml("x: -4e38\n", "f.yaml"); }),
            "f.yaml:1: x: expected a number, got '-4e38', beyond the range of a float");
  config.set("x=1e-50");  // rounds to 0, which a float holds
  EXPECT_EQ(s.x, 0.0f);
  config.set("x=3e38");
  EXPECT_EQ(s.x, 3e38f);
}

// Key lists are the program's own; a wrong one is found the first time it is bound.
struct TwicePath {
  int a = 1, b = 2;
  template <class V>
  void visit(V& v) {
    v("a", a, "first");
    v("a", b, "second");
  }
};
struct KeyAndSection {
  int a = 1, b = 2;
  template <class V>
  void visit(V& v) {
    v("a", a, "a key");
    v.section("a", [&] { v("b", b, "in a section of the same name"); });
  }
};
struct BadPart {
  int a = 1;
  template <class V>
  void visit(V& v) {
    v.section("null", [&] { v("a", a, ""); });
  }
};
struct TwoLineDoc {
  int a = 1;
  template <class V>
  void visit(V& v) {
    v("a", a, "x\ny");
  }
};
struct InvertedRange {
  int a = 1;
  template <class V>
  void visit(V& v) {
    v("a", a, "", Range::between(2, 1));
  }
};

TEST(ConfigKeys, BadKeyListsAreProgrammingErrors) {
  EXPECT_EQ(programming_error([] {
              TwicePath s;
              Config c(s);
            }),
            "config keys: 'a': given twice");
  EXPECT_EQ(programming_error([] {
              KeyAndSection s;
              Config c(s);
            }),
            "config keys: 'a' is both a key and a section");
  EXPECT_EQ(programming_error([] {
              BadPart s;
              Config c(s);
            }),
            "config keys: 'null.a': each dotted part must be letters, digits, '_' or '-'");
  EXPECT_EQ(programming_error([] {
              TwoLineDoc s;
              Config c(s);
            }),
            "config keys: 'a': doc must be one line");
  EXPECT_EQ(programming_error([] {
              InvertedRange s;
              Config c(s);
            }),
            "config keys: 'a': min must not exceed max");
  RunSettings s;
  const Config config(s);
  EXPECT_EQ(programming_error([&] { config.was_set("training"); }), "config has no key 'training'");
  EXPECT_EQ(programming_error([&] { config.origin("training.batchsize"); }),
            "config has no key 'training.batchsize'");
  const int unbound = 0;
  EXPECT_EQ(programming_error([&] { config.origin_of(unbound); }), "config has no key bound to that field");
}

}  // namespace
}  // namespace boardlab
