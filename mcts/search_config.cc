// Search options as text (player specs, command lines) and their checks, through the config keys of SearchConfig.
#include "mcts/search_config.h"

#include "config/config.h"

namespace boardlab {

std::string_view algorithm_name(SearchAlgorithm algorithm) { return enum_name(kSearchAlgorithmNames, algorithm); }

std::string_view simultaneous_selection_name(SimultaneousSelection selection) {
  return enum_name(kSimultaneousSelectionNames, selection);
}

std::string_view hidden_information_name(HiddenInformation hidden) {
  return enum_name(kHiddenInformationNames, hidden);
}

void set_search_options(SearchConfig& config, std::string_view options) {
  Config(config).set_options(options, "search option");
}

void set_search_options(SearchConfig& config, const std::vector<std::pair<std::string, std::string>>& options) {
  Config binder(config);
  for (const auto& [key, value] : options) binder.set_option(key, value, "search option");
}

void validate(const SearchConfig& config) {
  SearchConfig copy = config;  // the keys bind to fields they may write; this only reads
  Config(copy).validate("search option");
  if (config.forced_playouts && config.algorithm != SearchAlgorithm::kPuct)
    throw InputError("search option 'forced_playouts' must be off unless algorithm is puct");
}

}  // namespace boardlab
