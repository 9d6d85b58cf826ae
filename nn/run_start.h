// Where a training session starts: the run folder and its config (a new run or a resumed one), and the checkpoint it continues from.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/rng.h"
#include "nn/model.h"
#include "nn/pipeline.h"
#include "nn/replay_buffer.h"
#include "nn/run_folder.h"
#include "nn/train_config.h"

namespace boardlab {

// The run's counters, saved with each checkpoint.
struct Progress {
  std::int64_t games = 0, positions = 0;
  double seconds_before = 0;  // training time of earlier sessions
};

// The run folder and its config: a new run from the config file, or a resume from the
// run's own config.yaml; overrides apply to both.
struct OpenedRun {
  TrainConfig cfg;
  std::string dir;
  std::unique_ptr<RunFolder> folder;
};

// Opens (or, for a new run, creates) the folder, once the config is known to fit the
// device and the machine's memory: a config the schema allows may still need more memory
// than the machine has, which would fail minutes in.
OpenedRun open_run(const TrainOptions& options, const std::function<void(const std::string&)>& log);

// Where a session starts: a fresh network and streams, or the latest checkpoint's.
struct RunState {
  std::string checkpoint_path{};  // the checkpoint resumed from, if any
  std::int64_t games_file_bytes = -1, metrics_rows = -1;  // its marks of the folder's moment
  std::int64_t step = 0;
  Progress progress{};
  Rng master{}, sampler{};
  std::vector<std::array<std::uint64_t, 4>> actor_streams{};  // one per self-play worker, or none
  std::optional<Model> model{};                                // the checkpoint's network
  std::optional<std::int64_t> resume_step{};
};

// The state a session of `opened` starts from; a resume of a run whose checkpoint plays
// another game or has another network is refused (InputError), changing nothing.
RunState restore(const OpenedRun& opened, const Game& game, bool resume);

// The replay saved with the resumed checkpoint; an older version's replay.bin for an older
// version's checkpoint (one that did not mark the folder's moment).
void restore_replay(RunFolder& run, const RunState& state, ReplayBuffer& replay);

}  // namespace boardlab
