// Writing and reading checkpoint archives.
#include "nn/checkpoint.h"

#include <filesystem>

#include "core/atomic_file.h"
#include "core/errors.h"
#include "games/registry.h"
#include "nn/model_impl.h"
#include "nn/trainer_impl.h"

namespace boardlab {
namespace {

constexpr std::int64_t kFormatVersion = 1;

torch::serialize::InputArchive open_archive(const std::string& path) {
  if (!std::filesystem::exists(path)) throw InputError("checkpoint '" + path + "' does not exist");
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path);
  } catch (const c10::Error& e) {
    throw InputError("checkpoint '" + path + "' cannot be read (corrupt or not a checkpoint): " + e.what_without_backtrace());
  }
  return archive;
}

c10::IValue read_value(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path) {
  c10::IValue value;
  if (!archive.try_read(key, value)) throw InputError("checkpoint '" + path + "' lacks '" + key + "': not a boardlab checkpoint");
  return value;
}

std::int64_t read_int(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path) {
  const c10::IValue v = read_value(archive, key, path);
  if (!v.isInt()) throw InputError("checkpoint '" + path + "': '" + key + "' is not an integer");
  return v.toInt();
}

std::string read_string(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path) {
  const c10::IValue v = read_value(archive, key, path);
  if (!v.isString()) throw InputError("checkpoint '" + path + "': '" + key + "' is not a string");
  return v.toStringRef();
}

bool read_flag(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path) {
  c10::IValue value;
  if (!archive.try_read(key, value)) return false;
  if (!value.isInt() || (value.toInt() != 0 && value.toInt() != 1))
    throw InputError("checkpoint '" + path + "': '" + key + "' is not 0 or 1");
  return value.toInt() == 1;
}

// A count written only by newer versions: -1 when the checkpoint lacks it.
std::int64_t read_optional_count(torch::serialize::InputArchive& archive, const std::string& key, const std::string& path) {
  c10::IValue value;
  if (!archive.try_read(key, value)) return -1;
  if (!value.isInt() || value.toInt() < 0) throw InputError("checkpoint '" + path + "': '" + key + "' is not a count");
  return value.toInt();
}

}  // namespace

void save_checkpoint(const std::string& path, const Model& model, const Trainer* trainer, const CheckpointInfo& info) {
  torch::serialize::OutputArchive archive;
  torch::serialize::OutputArchive model_archive;
  model.impl().net->save(model_archive);
  archive.write("model", model_archive);
  if (trainer) {
    torch::serialize::OutputArchive optimizer_archive;
    trainer->impl().optimizer->save(optimizer_archive);
    archive.write("optimizer", optimizer_archive);
    archive.write("trainer_steps", c10::IValue(trainer->steps()));
  }
  archive.write("format_version", c10::IValue(kFormatVersion));
  archive.write("game", c10::IValue(info.game));
  archive.write("network_blocks", c10::IValue(static_cast<std::int64_t>(info.network.blocks)));
  archive.write("network_channels", c10::IValue(static_cast<std::int64_t>(info.network.channels)));
  archive.write("network_policy_channels", c10::IValue(static_cast<std::int64_t>(info.network.policy_channels)));
  archive.write("network_value_hidden", c10::IValue(static_cast<std::int64_t>(info.network.value_hidden)));
  // Only a network with auxiliary heads says so: one without is written as before them.
  if (info.network.ownership_head) archive.write("network_ownership_head", c10::IValue(std::int64_t{1}));
  if (info.network.score_head) archive.write("network_score_head", c10::IValue(std::int64_t{1}));
  archive.write("step", c10::IValue(info.step));
  archive.write("games", c10::IValue(info.games));
  archive.write("positions", c10::IValue(info.positions));
  archive.write("seconds", c10::IValue(info.seconds));
  archive.write("config_yaml", c10::IValue(info.config_yaml));
  // Where the run folder's growing files stood at this checkpoint (none for a lone one).
  if (info.games_file_bytes >= 0) archive.write("games_file_bytes", c10::IValue(info.games_file_bytes));
  if (info.metrics_rows >= 0) archive.write("metrics_rows", c10::IValue(info.metrics_rows));
  auto rng = torch::empty({static_cast<std::int64_t>(info.rng_states.size()), 4}, torch::kInt64);
  for (std::size_t i = 0; i < info.rng_states.size(); ++i)
    for (int k = 0; k < 4; ++k) rng[static_cast<std::int64_t>(i)][k] = static_cast<std::int64_t>(info.rng_states[i][k]);
  archive.write("rng_states", rng);

  // Serialized in memory, then written by write_file_atomically: LibTorch's own file writer
  // throws again from its destructor when a write fails (a full disk), which aborts the
  // process; memory cannot fail that way, and the file write reports and cleans up.
  std::string bytes;
  archive.save_to([&](const void* data, std::size_t size) {
    bytes.append(static_cast<const char*>(data), size);
    return size;
  });
  try {
    write_file_atomically(path, bytes);
  } catch (const FileError& e) {
    throw FileError(std::string("checkpoint not saved: ") + e.what());
  }
}

Checkpoint load_checkpoint(const std::string& path) {
  auto archive = open_archive(path);
  const std::int64_t version = read_int(archive, "format_version", path);
  if (version != kFormatVersion)
    throw InputError("checkpoint '" + path + "' has format version " + std::to_string(version) + ", this build reads " +
                     std::to_string(kFormatVersion));
  CheckpointInfo info;
  info.game = read_string(archive, "game", path);
  info.network.blocks = static_cast<int>(read_int(archive, "network_blocks", path));
  info.network.channels = static_cast<int>(read_int(archive, "network_channels", path));
  info.network.policy_channels = static_cast<int>(read_int(archive, "network_policy_channels", path));
  info.network.value_hidden = static_cast<int>(read_int(archive, "network_value_hidden", path));
  // Auxiliary heads came later: a checkpoint without the keys has none.
  info.network.ownership_head = read_flag(archive, "network_ownership_head", path);
  info.network.score_head = read_flag(archive, "network_score_head", path);
  info.step = read_int(archive, "step", path);
  info.games = read_int(archive, "games", path);
  info.positions = read_int(archive, "positions", path);
  info.seconds = read_value(archive, "seconds", path).toDouble();
  info.config_yaml = read_string(archive, "config_yaml", path);
  info.games_file_bytes = read_optional_count(archive, "games_file_bytes", path);
  info.metrics_rows = read_optional_count(archive, "metrics_rows", path);
  torch::Tensor rng;
  archive.read("rng_states", rng);
  for (std::int64_t i = 0; i < rng.size(0); ++i) {
    std::array<std::uint64_t, 4> state{};
    for (int k = 0; k < 4; ++k) state[k] = static_cast<std::uint64_t>(rng[i][k].item<std::int64_t>());
    info.rng_states.push_back(state);
  }
  std::shared_ptr<const Game> game = load_game(info.game);
  Model model(info.network, *game, 0);
  try {
    torch::serialize::InputArchive model_archive;
    archive.read("model", model_archive);
    model.impl().net->load(model_archive);
  } catch (const c10::Error& e) {
    throw InputError("checkpoint '" + path + "': the network does not match its description: " + e.what_without_backtrace());
  }
  model.impl().net->eval();
  return {std::move(game), std::move(model), std::move(info)};
}

void load_optimizer(const std::string& path, Trainer& trainer) {
  auto archive = open_archive(path);
  try {
    torch::serialize::InputArchive optimizer_archive;
    archive.read("optimizer", optimizer_archive);
    trainer.impl().optimizer->load(optimizer_archive);
  } catch (const c10::Error& e) {
    throw InputError("checkpoint '" + path + "' has no usable optimizer state: " + e.what_without_backtrace());
  }
  trainer.set_steps(read_int(archive, "trainer_steps", path));
}

}  // namespace boardlab
