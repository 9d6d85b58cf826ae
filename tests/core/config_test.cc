// Tests for config files: defaults, overrides, lists, every error message with its file and line, and to_yaml.
#include "core/config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
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

const std::vector<ConfigKey> kSchema = {
    {.path = "run.name", .type = ConfigType::kString, .default_value = "baseline", .doc = "name of the run folder"},
    {.path = "run.seed", .type = ConfigType::kInt, .default_value = "0", .doc = "random seed"},
    {.path = "run.deterministic", .type = ConfigType::kBool, .default_value = "false", .doc = "bitwise reproducible"},
    {.path = "training.batch_size",
     .type = ConfigType::kInt,
     .default_value = "128",
     .doc = "positions per step",
     .min = 1,
     .max = 65536},
    {.path = "training.learning_rate",
     .type = ConfigType::kFloat,
     .default_value = "0.001",
     .doc = "step size",
     .min = 1e-6,
     .max = 1},
    {.path = "training.optimizer",
     .type = ConfigType::kString,
     .default_value = "adam",
     .doc = "update rule",
     .choices = {"adam", "sgd"}},
    {.path = "training.opponents",
     .type = ConfigType::kStringList,
     .default_value = "[random, uct:200]",
     .doc = "bots mixed into self-play"},
    {.path = "training.eval.games", .type = ConfigType::kInt, .default_value = "100", .doc = "", .min = 0},
    {.path = "mcts.simulations", .type = ConfigType::kInt, .default_value = "200", .doc = "per move", .min = 1},
    {.path = "mcts.c_puct", .type = ConfigType::kFloat, .default_value = "1.25", .doc = "exploration", .min = 0},
    {.path = "eval.players",
     .type = ConfigType::kStringList,
     .default_value = "[random]",
     .doc = "bots to rate against",
     .choices = {"random", "greedy", "uct"}},
};

Config parse(std::string_view text, const std::vector<std::string>& overrides = {}) {
  return Config::parse(text, "run.yaml", kSchema, overrides);
}

std::string parse_error(std::string_view text) {
  return error_of<ConfigError>([&] { parse(text); });
}

std::string override_error(const std::string& override_text) {
  return error_of<ConfigError>([&] { parse("", {override_text}); });
}

TEST(ConfigParse, EmptyTextMeansAllDefaults) {
  for (const char* text : {"", "\n\n", "# nothing set yet\n", "---\n"}) {
    const Config config = parse(text);
    EXPECT_EQ(config.get_string("run.name"), "baseline");
    EXPECT_EQ(config.get_int("run.seed"), 0);
    EXPECT_FALSE(config.get_bool("run.deterministic"));
    EXPECT_EQ(config.get_int("training.batch_size"), 128);
    EXPECT_DOUBLE_EQ(config.get_float("training.learning_rate"), 0.001);
    EXPECT_EQ(config.get_string("training.optimizer"), "adam");
    EXPECT_EQ(config.get_strings("training.opponents"), (std::vector<std::string>{"random", "uct:200"}));
    EXPECT_EQ(config.get_int("training.eval.games"), 100);
    EXPECT_DOUBLE_EQ(config.get_float("mcts.c_puct"), 1.25);
    for (const auto& key : kSchema) EXPECT_FALSE(config.was_set(key.path)) << key.path;
  }
}

TEST(ConfigParse, FileValuesReplaceDefaultsAndAreMarkedSet) {
  const Config config = parse(
      "run:\n"
      "  name: exp1  # a comment\n"
      "  deterministic: true\n"
      "training:\n"
      "  batch_size: 64\n"
      "  learning_rate: 3e-4\n"
      "  optimizer: sgd\n"
      "  eval:\n"
      "    games: 10\n");
  EXPECT_EQ(config.get_string("run.name"), "exp1");
  EXPECT_TRUE(config.get_bool("run.deterministic"));
  EXPECT_EQ(config.get_int("training.batch_size"), 64);
  EXPECT_DOUBLE_EQ(config.get_float("training.learning_rate"), 3e-4);
  EXPECT_EQ(config.get_string("training.optimizer"), "sgd");
  EXPECT_EQ(config.get_int("training.eval.games"), 10);
  EXPECT_TRUE(config.was_set("training.batch_size"));
  EXPECT_TRUE(config.was_set("training.eval.games"));
  EXPECT_FALSE(config.was_set("run.seed"));
  EXPECT_FALSE(config.was_set("mcts.simulations"));
  EXPECT_EQ(config.get_int("mcts.simulations"), 200);
}

TEST(ConfigParse, DottedKeysAndEmptySectionsAreAccepted) {
  const Config config = parse(
      "training.batch_size: 32\n"
      "training:\n"
      "  eval.games: 7\n"
      "mcts:\n"
      "  # simulations: 50\n");
  EXPECT_EQ(config.get_int("training.batch_size"), 32);
  EXPECT_EQ(config.get_int("training.eval.games"), 7);
  EXPECT_EQ(config.get_int("mcts.simulations"), 200);
}

TEST(ConfigParse, ListsInBlockOrFlowStyleAndEmpty) {
  EXPECT_EQ(parse("training:\n  opponents:\n    - random\n    - \"uct:400\"\n    - greedy\n")
                .get_strings("training.opponents"),
            (std::vector<std::string>{"random", "uct:400", "greedy"}));
  EXPECT_EQ(parse("training: {opponents: [uct:50, random]}").get_strings("training.opponents"),
            (std::vector<std::string>{"uct:50", "random"}));
  EXPECT_TRUE(parse("training:\n  opponents: []\n").get_strings("training.opponents").empty());
  EXPECT_TRUE(parse("training:\n  opponents:\n").get_strings("training.opponents").empty());
  EXPECT_EQ(parse("eval:\n  players: [uct, greedy]\n").get_strings("eval.players"),
            (std::vector<std::string>{"uct", "greedy"}));
}

TEST(ConfigParse, IntegersAcceptOnlyDecimalDigits) {
  EXPECT_EQ(parse("run:\n  seed: -3\n").get_int("run.seed"), -3);
  EXPECT_EQ(parse("run:\n  seed: +7\n").get_int("run.seed"), 7);
  EXPECT_EQ(parse("run:\n  seed: \"42\"\n").get_int("run.seed"), 42);
  EXPECT_EQ(parse("run:\n  seed: 9223372036854775807\n").get_int("run.seed"), 9223372036854775807);
  EXPECT_EQ(parse_error("run:\n  seed: 1.5\n"), "run.yaml:2: run.seed: expected an integer, got '1.5'");
  EXPECT_EQ(parse_error("run:\n  seed: 1e3\n"), "run.yaml:2: run.seed: expected an integer, got '1e3'");
  EXPECT_EQ(parse_error("run:\n  seed: 0x10\n"), "run.yaml:2: run.seed: expected an integer, got '0x10'");
  EXPECT_EQ(parse_error("run:\n  seed: +-3\n"), "run.yaml:2: run.seed: expected an integer, got '+-3'");
  EXPECT_EQ(parse_error("run:\n  seed: 9223372036854775808\n"),
            "run.yaml:2: run.seed: expected an integer, got '9223372036854775808', beyond the range of a 64-bit "
            "integer");
}

TEST(ConfigParse, FloatsAcceptIntegersAndDecimalForms) {
  EXPECT_DOUBLE_EQ(parse("training:\n  learning_rate: 1\n").get_float("training.learning_rate"), 1.0);
  EXPECT_DOUBLE_EQ(parse("training:\n  learning_rate: .5\n").get_float("training.learning_rate"), 0.5);
  EXPECT_DOUBLE_EQ(parse("training:\n  learning_rate: 5E-4\n").get_float("training.learning_rate"), 5e-4);
  EXPECT_DOUBLE_EQ(parse("mcts:\n  c_puct: +2.\n").get_float("mcts.c_puct"), 2.0);
  EXPECT_EQ(parse_error("mcts:\n  c_puct: .inf\n"), "run.yaml:2: mcts.c_puct: expected a number, got '.inf'");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: nan\n"), "run.yaml:2: mcts.c_puct: expected a number, got 'nan'");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: 1e\n"), "run.yaml:2: mcts.c_puct: expected a number, got '1e'");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: +-2\n"), "run.yaml:2: mcts.c_puct: expected a number, got '+-2'");
  EXPECT_EQ(parse_error("mcts:\n  c_puct: 1e999\n"),
            "run.yaml:2: mcts.c_puct: expected a number, got '1e999', beyond the range of a double");
}

TEST(ConfigLoad, ReadsTheFileAndNamesItInMessages) {
  const std::string path = ::testing::TempDir() + "config_test_load.yaml";
  {
    std::ofstream out(path);
    out << "training:\n  batch_size: 256\n\nmcts:\n  simulations: zero\n";
  }
  // The file is checked before overrides apply: an override does not excuse a bad value.
  EXPECT_EQ(error_of<ConfigError>([&] { Config::load(path, kSchema, {"mcts.simulations=50"}); }),
            path + ":5: mcts.simulations: expected an integer, got 'zero'");
  {
    std::ofstream out(path);
    out << "training:\n  batch_size: 256\n\nmcts:\n  simulations: 20\n";
  }
  const Config config = Config::load(path, kSchema, {"mcts.simulations=50"});
  EXPECT_EQ(config.get_int("training.batch_size"), 256);
  EXPECT_EQ(config.get_int("mcts.simulations"), 50);
  std::remove(path.c_str());
}

TEST(ConfigLoad, UnreadableFileNamesThePathAndTheReason) {
  EXPECT_EQ(error_of<ConfigError>([] { Config::load("/nonexistent/run.yaml", kSchema); }),
            "cannot read config file '/nonexistent/run.yaml': No such file or directory");
  const std::string directory = ::testing::TempDir();
  EXPECT_EQ(error_of<ConfigError>([&] { Config::load(directory, kSchema); }),
            "cannot read config file '" + directory + "': Is a directory");
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
  const Config config = parse("training:\n  batch_size: 64\n  optimizer: sgd\n",
                              {"training.batch_size=32", "training.opponents=[random, uct:100]",
                               "run.deterministic=true", " training.batch_size = 16", "run.name=uct:5"});
  EXPECT_EQ(config.get_int("training.batch_size"), 16);
  EXPECT_EQ(config.get_string("training.optimizer"), "sgd");
  EXPECT_EQ(config.get_strings("training.opponents"), (std::vector<std::string>{"random", "uct:100"}));
  EXPECT_TRUE(config.get_bool("run.deterministic"));
  EXPECT_EQ(config.get_string("run.name"), "uct:5");
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
  EXPECT_EQ(override_error("eval.players=[random, alphazero]"),
            "--set eval.players=[random, alphazero]: eval.players[1]: expected one of random, greedy, uct, got "
            "'alphazero'");
  EXPECT_EQ(override_error("training.opponents=[random, uct"),
            "--set training.opponents=[random, uct: YAML syntax error: end of sequence flow not found");
}

TEST(ConfigToYaml, WritesSectionsInSchemaOrderWithDocsAsComments) {
  const Config config = parse("training:\n  batch_size: 64\n", {"run.name=my run", "training.learning_rate=3e-4"});
  EXPECT_EQ(config.to_yaml(),
            "run:\n"
            "  name: \"my run\"  # name of the run folder\n"
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
            "\n"
            "eval:\n"
            "  players: [random]  # bots to rate against\n");
}

TEST(ConfigToYaml, RoundTripsThroughParseToEqualValues) {
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
  };
  std::vector<std::string> overrides = {"run.seed=-9007199254740993", "training.learning_rate=1e-6",
                                        "mcts.c_puct=0.1", "run.deterministic=true", "training.eval.games=0"};
  std::string list = "[";
  std::vector<std::string> expected_list;
  for (const auto& [text, meaning] : strings) {
    list += (list.size() > 1 ? ", " : "") + text;
    expected_list.push_back(meaning);
  }
  overrides.push_back("training.opponents=" + list + "]");

  for (const auto& [text, meaning] : strings) {
    overrides.push_back("run.name=" + text);
    const Config config = parse("", overrides);
    overrides.pop_back();
    ASSERT_EQ(config.get_string("run.name"), meaning) << text;
    ASSERT_EQ(config.get_strings("training.opponents"), expected_list);
    const std::string yaml = config.to_yaml();
    const Config again = Config::parse(yaml, "saved.yaml", kSchema);
    for (const auto& key : kSchema)
      EXPECT_EQ(again.value(key.path), config.value(key.path)) << key.path << "\n" << yaml;
    EXPECT_EQ(again.to_yaml(), yaml);
  }
}

TEST(ConfigToYaml, FloatsRoundTripExactly) {
  for (const char* text : {"0.1", "1e-9", "1e300", "123456789.125", "2.5e-308", "0", "1.7976931348623157e308"}) {
    const Config config = parse("", {std::string("mcts.c_puct=") + text});
    const Config again = Config::parse(config.to_yaml(), "saved.yaml", kSchema);
    EXPECT_EQ(again.get_float("mcts.c_puct"), config.get_float("mcts.c_puct")) << text;
  }
}

TEST(ConfigSchema, BadSchemasAreProgrammingErrors) {
  auto with = [](ConfigKey key) { return [key] { Config::parse("", "run.yaml", {key}); }; };
  EXPECT_EQ(programming_error(with({.path = "a.b", .type = ConfigType::kInt, .default_value = "abc"})),
            "config schema: default of 'a.b': expected an integer, got 'abc'");
  EXPECT_EQ(programming_error(with({.path = "a.b", .type = ConfigType::kInt, .default_value = "0", .min = 1})),
            "config schema: default of 'a.b': expected an integer >= 1, got 0");
  EXPECT_EQ(programming_error(
                with({.path = "a", .type = ConfigType::kString, .default_value = "c", .choices = {"a", "b"}})),
            "config schema: default of 'a': expected one of a, b, got 'c'");
  EXPECT_EQ(programming_error(with({.path = "a", .type = ConfigType::kStringList, .default_value = "[a, b"})),
            "config schema: default of 'a': YAML syntax error: end of sequence flow not found");
  EXPECT_EQ(programming_error(with({.path = "a..b", .type = ConfigType::kInt, .default_value = "1"})),
            "config schema: key 'a..b': each dotted part must be letters, digits, '_' or '-'");
  EXPECT_EQ(programming_error(with({.path = "a.null", .type = ConfigType::kInt, .default_value = "1"})),
            "config schema: key 'a.null': each dotted part must be letters, digits, '_' or '-'");
  EXPECT_EQ(programming_error(with({.path = "a", .type = ConfigType::kInt, .default_value = "1", .doc = "x\ny"})),
            "config schema: key 'a': doc must be one line");
  EXPECT_EQ(programming_error(with({.path = "a", .type = ConfigType::kInt, .default_value = "1", .min = 2, .max = 1})),
            "config schema: key 'a': min must not exceed max");
  EXPECT_EQ(programming_error(with({.path = "a", .type = ConfigType::kString, .default_value = "x", .min = 0})),
            "config schema: key 'a': a range is for numbers, not for type string");
  EXPECT_EQ(programming_error(
                with({.path = "a", .type = ConfigType::kInt, .default_value = "1", .choices = {"1", "2"}})),
            "config schema: key 'a': choices are for strings, not for type int");
  EXPECT_EQ(programming_error([] {
              Config::parse("", "run.yaml",
                            {{.path = "a", .type = ConfigType::kInt, .default_value = "1"},
                             {.path = "a", .type = ConfigType::kInt, .default_value = "2"}});
            }),
            "config schema: key 'a': given twice");
  EXPECT_EQ(programming_error([] {
              Config::parse("", "run.yaml",
                            {{.path = "a", .type = ConfigType::kInt, .default_value = "1"},
                             {.path = "a.b", .type = ConfigType::kInt, .default_value = "2"}});
            }),
            "config schema: 'a' is both a key and a section");
}

TEST(ConfigGetters, UnknownPathOrWrongTypeIsAProgrammingError) {
  const Config config = parse("");
  EXPECT_EQ(programming_error([&] { config.get_int("training.batchsize"); }),
            "config has no key 'training.batchsize'");
  EXPECT_EQ(programming_error([&] { config.get_float("training.batch_size"); }),
            "config key 'training.batch_size' is of type int, not float");
  EXPECT_EQ(programming_error([&] { config.was_set("training"); }), "config has no key 'training'");
  EXPECT_EQ(std::get<std::int64_t>(config.value("training.batch_size")), 128);
  EXPECT_EQ(config.schema().size(), kSchema.size());
}

}  // namespace
}  // namespace boardlab
