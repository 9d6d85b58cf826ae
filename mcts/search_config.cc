// Reading and checking search options given as text (player specs, command lines).
#include "mcts/search_config.h"

#include <charconv>
#include <string>

#include "core/errors.h"

namespace boardlab {
namespace {

template <typename T>
T parse_number(std::string_view key, std::string_view text) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw InputError("search option '" + std::string(key) + "' expects " +
                     (std::is_integral_v<T> ? "an integer" : "a number") + ", got '" + std::string(text) + "'");
  return value;
}

bool parse_bool(std::string_view key, std::string_view text) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw InputError("search option '" + std::string(key) + "' expects true or false, got '" + std::string(text) + "'");
}

}  // namespace

std::string_view algorithm_name(SearchAlgorithm algorithm) {
  switch (algorithm) {
    case SearchAlgorithm::kPuct: return "puct";
    case SearchAlgorithm::kGumbel: return "gumbel";
    default: return "uct";
  }
}

std::string_view simultaneous_selection_name(SimultaneousSelection selection) {
  return selection == SimultaneousSelection::kRegretMatching ? "regret_matching" : "puct";
}

std::string_view hidden_information_name(HiddenInformation hidden) {
  return hidden == HiddenInformation::kInformationSet ? "information_set" : "single_sample";
}

void set_search_option(SearchConfig& c, std::string_view key, std::string_view value) {
  if (key == "algorithm") {
    if (value == "puct") c.algorithm = SearchAlgorithm::kPuct;
    else if (value == "gumbel") c.algorithm = SearchAlgorithm::kGumbel;
    else if (value == "uct") c.algorithm = SearchAlgorithm::kUct;
    else throw InputError("search option 'algorithm' expects puct, gumbel or uct, got '" + std::string(value) + "'");
  } else if (key == "simulations") c.simulations = parse_number<int>(key, value);
  else if (key == "leaves_per_step") c.leaves_per_step = parse_number<int>(key, value);
  else if (key == "virtual_loss") c.virtual_loss = parse_number<float>(key, value);
  else if (key == "c_puct") c.c_puct = parse_number<float>(key, value);
  else if (key == "fpu_reduction") c.fpu_reduction = parse_number<float>(key, value);
  else if (key == "dirichlet_alpha") c.dirichlet_alpha = parse_number<float>(key, value);
  else if (key == "dirichlet_epsilon") c.dirichlet_epsilon = parse_number<float>(key, value);
  else if (key == "uct_c") c.uct_c = parse_number<float>(key, value);
  else if (key == "gumbel_considered") c.gumbel_considered = parse_number<int>(key, value);
  else if (key == "gumbel_scale") c.gumbel_scale = parse_number<float>(key, value);
  else if (key == "gumbel_c_visit") c.gumbel_c_visit = parse_number<float>(key, value);
  else if (key == "gumbel_c_scale") c.gumbel_c_scale = parse_number<float>(key, value);
  else if (key == "temperature") c.temperature = parse_number<float>(key, value);
  else if (key == "reuse_tree") c.reuse_tree = parse_bool(key, value);
  else if (key == "simultaneous_selection") {
    if (value == "regret_matching") c.simultaneous_selection = SimultaneousSelection::kRegretMatching;
    else if (value == "puct") c.simultaneous_selection = SimultaneousSelection::kPuct;
    else
      throw InputError("search option 'simultaneous_selection' expects regret_matching or puct, got '" +
                       std::string(value) + "'");
  } else if (key == "regret_exploration") c.regret_exploration = parse_number<float>(key, value);
  else if (key == "hidden") {
    if (value == "information_set") c.hidden = HiddenInformation::kInformationSet;
    else if (value == "single_sample") c.hidden = HiddenInformation::kSingleSample;
    else
      throw InputError("search option 'hidden' expects information_set or single_sample, got '" +
                       std::string(value) + "'");
  } else if (key == "transpositions") c.transpositions = parse_bool(key, value);
  else if (key == "forced_playouts") c.forced_playouts = parse_bool(key, value);
  else
    throw InputError("unknown search option '" + std::string(key) +
                     "' (known: algorithm, simulations, leaves_per_step, virtual_loss, c_puct, fpu_reduction, "
                     "dirichlet_alpha, dirichlet_epsilon, uct_c, gumbel_considered, gumbel_scale, gumbel_c_visit, "
                     "gumbel_c_scale, temperature, reuse_tree, simultaneous_selection, regret_exploration, hidden, "
                     "transpositions, forced_playouts)");
}

void set_search_options(SearchConfig& config, std::string_view options) {
  while (!options.empty()) {
    const auto comma = options.find(',');
    const std::string_view item = options.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos)
      throw InputError("search option '" + std::string(item) + "' is not of the form key=value");
    set_search_option(config, item.substr(0, eq), item.substr(eq + 1));
    if (comma == std::string_view::npos) break;
    options.remove_prefix(comma + 1);
  }
}

void validate(const SearchConfig& c) {
  auto require = [](bool ok, const char* key, const char* expected) {
    if (!ok) throw InputError(std::string("search option '") + key + "' must be " + expected);
  };
  require(c.simulations >= 1, "simulations", "at least 1");
  require(c.leaves_per_step >= 1, "leaves_per_step", "at least 1");
  // A node's in_flight counts pending leaves in 16 bits.
  require(c.leaves_per_step <= 4096, "leaves_per_step", "at most 4096");
  require(c.virtual_loss >= 0, "virtual_loss", "0 or more");
  require(c.c_puct > 0, "c_puct", "positive");
  require(c.fpu_reduction >= 0, "fpu_reduction", "0 or more");
  require(c.dirichlet_alpha > 0, "dirichlet_alpha", "positive");
  require(c.dirichlet_epsilon >= 0 && c.dirichlet_epsilon <= 1, "dirichlet_epsilon", "in [0, 1]");
  require(c.uct_c >= 0, "uct_c", "0 or more");
  require(c.gumbel_considered >= 1, "gumbel_considered", "at least 1");
  require(c.gumbel_scale >= 0, "gumbel_scale", "0 or more");
  require(c.gumbel_c_visit >= 0, "gumbel_c_visit", "0 or more");
  require(c.gumbel_c_scale >= 0, "gumbel_c_scale", "0 or more");
  require(c.temperature >= 0, "temperature", "0 or more");
  // Regret matching divides by the sampling probability, which exploration keeps positive.
  require(c.regret_exploration > 0 && c.regret_exploration <= 1, "regret_exploration", "in (0, 1]");
  require(!c.forced_playouts || c.algorithm == SearchAlgorithm::kPuct, "forced_playouts", "off unless algorithm is puct");
}

}  // namespace boardlab
