// Writing and reading checkpoint archives.
#include "nn/checkpoint.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "config/config.h"
#include "core/errors.h"
#include "files/atomic_file.h"
#include "files/read_file.h"
#include "games/registry.h"
#include "nn/archive_seal.h"
#include "nn/content_hash.h"
#include "nn/memory_estimate.h"
#include "nn/model_impl.h"
#include "nn/trainer_impl.h"

namespace boardlab {
namespace {

constexpr std::int64_t kFormatVersion = 1;
// The key holding the content hash; every other key is hashed. Checkpoints written before
// it have none and load unchecked.
constexpr char kChecksumKey[] = "checksum";
// The network's keys are written "network_" + its config key.
constexpr char kNetworkPrefix[] = "network_";

// What an archive holds, read once: the hash of every key but the checksum (names, kinds,
// values; tensors by dtype, shape and bytes; sub-archives recursively, in name order) and
// each tensor's shape by dotted path ("model.input_conv.weight").
struct ArchiveContent {
  std::int64_t hash = 0;
  std::map<std::string, std::vector<std::int64_t>> shapes;
};

void hash_value(const c10::IValue& v, const std::string& path, ContentHash& hash, ArchiveContent& content) {
  hash.add(v.tagKind());
  if (v.isTensor()) {
    const torch::Tensor t = v.toTensor().contiguous().cpu();
    hash.add(std::string(t.dtype().name()));
    for (const std::int64_t d : t.sizes()) hash.add_int(d);
    hash.add(t.data_ptr(), t.numel() * t.element_size());
    content.shapes[path] = t.sizes().vec();
  } else if (v.isInt()) {
    hash.add_int(v.toInt());
  } else if (v.isDouble()) {
    const double d = v.toDouble();
    hash.add(&d, sizeof d);
  } else if (v.isBool()) {
    hash.add_int(v.toBool() ? 1 : 0);
  } else if (v.isString()) {
    hash.add(v.toStringRef());
  } else if (v.isTuple()) {
    const auto& elements = v.toTupleRef().elements();
    hash.add_int(static_cast<std::int64_t>(elements.size()));
    for (std::size_t i = 0; i < elements.size(); ++i) hash_value(elements[i], path + "." + std::to_string(i), hash, content);
  } else if (v.isList()) {
    const auto elements = v.toListRef();
    hash.add_int(static_cast<std::int64_t>(elements.size()));
    for (std::size_t i = 0; i < elements.size(); ++i) hash_value(elements[i], path + "." + std::to_string(i), hash, content);
  } else if (v.isObject()) {
    // A sub-archive (a module): its attributes by name.
    const auto object = v.toObject();
    const auto& type = object->type();
    std::vector<std::pair<std::string, std::size_t>> slots;
    for (std::size_t i = 0; i < type->numAttributes(); ++i) slots.emplace_back(type->getAttributeName(i), i);
    std::sort(slots.begin(), slots.end());
    hash.add_int(static_cast<std::int64_t>(slots.size()));
    for (const auto& [name, slot] : slots) {
      hash.add(name);
      hash_value(object->getSlot(slot), path + "." + name, hash, content);
    }
  }
  // None and the rest: their kind alone.
}

ArchiveContent read_content(torch::serialize::InputArchive& archive) {
  std::vector<std::string> keys = archive.keys();
  std::sort(keys.begin(), keys.end());
  ContentHash hash;
  ArchiveContent content;
  for (const std::string& key : keys) {
    if (key == kChecksumKey) continue;
    c10::IValue value;
    if (!archive.try_read(key, value)) continue;
    hash.add(key);
    hash_value(value, key, hash, content);
  }
  content.hash = hash.value();
  return content;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// The first line of a multi-line message (the TorchScript compiler quotes the code after it).
std::string first_line(std::string_view text) {
  while (!text.empty() && (text.front() == '\n' || text.front() == ' ')) text.remove_prefix(1);
  return std::string(text.substr(0, text.find('\n')));
}

torch::serialize::InputArchive open_archive(const std::string& path) {
  if (!std::filesystem::exists(path)) throw InputError("checkpoint '" + path + "' does not exist");
  std::string bytes;
  try {
    bytes = read_file(path, kMaxCheckpointBytes, "checkpoint");
  } catch (const FileError& e) {
    throw InputError(e.what());  // a checkpoint that cannot be read is the input's fault to the caller
  }
  check_seal(bytes, path);  // before LibTorch parses anything: its parser can crash on corrupt code
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(bytes.data(), bytes.size(), torch::Device(torch::kCPU));  // whatever device wrote it
  } catch (const c10::Error& e) {
    throw InputError("checkpoint '" + path + "' cannot be read (corrupt or not a checkpoint): " + e.what_without_backtrace());
  } catch (const std::exception& e) {
    // The archive's TorchScript code is compiled on loading, and a corrupt one throws the
    // compiler's ErrorReport, which is no c10::Error (found by fuzz/checkpoint).
    throw InputError("checkpoint '" + path + "' cannot be read (corrupt or not a checkpoint): " + first_line(e.what()));
  }
  return archive;
}

// The archive's content, its checksum verified where it has one.
ArchiveContent verified_content(torch::serialize::InputArchive& archive, const std::string& path) {
  ArchiveContent content;
  try {
    content = read_content(archive);
  } catch (const c10::Error& e) {
    throw InputError("checkpoint '" + path + "' cannot be read (corrupt or not a checkpoint): " + e.what_without_backtrace());
  }
  c10::IValue saved;
  if (!archive.try_read(kChecksumKey, saved)) return content;
  if (!saved.isInt()) throw InputError("checkpoint '" + path + "': '" + std::string(kChecksumKey) + "' is not an integer");
  if (saved.toInt() != content.hash)
    throw InputError("checkpoint '" + path + "': checksum mismatch: the file is corrupt (its content no longer " +
                     "hashes to the value saved with it)");
  return content;
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

// Checkpoints hold CPU tensors only, whatever device trained them, so that one written on a
// GPU loads on any machine (and a GPU's loads from anywhere: every file is read to the CPU,
// then moved).

// The device of an optimizer's parameters (the model's).
torch::Device optimizer_device(const torch::optim::Optimizer& optimizer) {
  for (const auto& group : optimizer.param_groups())
    if (!group.params().empty()) return group.params().front().device();
  return torch::kCPU;
}

// Moves one parameter's optimizer state (Adam's moments, SGD's momentum) to `device`.
void move_state(torch::optim::OptimizerParamState& state, torch::Device device) {
  auto moved = [&](const torch::Tensor& t) { return t.defined() ? t.to(device) : t; };
  if (auto* adam = dynamic_cast<torch::optim::AdamParamState*>(&state)) {
    adam->exp_avg(moved(adam->exp_avg()));
    adam->exp_avg_sq(moved(adam->exp_avg_sq()));
    adam->max_exp_avg_sq(moved(adam->max_exp_avg_sq()));
  } else if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(&state)) {
    sgd->momentum_buffer(moved(sgd->momentum_buffer()));
  }
}

// While it lives, the optimizer holds CPU copies of its state, the originals put back after:
// a GPU optimizer saves CPU tensors without its state making the round trip. Made on the
// trainer's own thread, between steps (the pipeline checkpoints between them).
class CpuOptimizerState {
 public:
  explicit CpuOptimizerState(torch::optim::Optimizer& optimizer) : optimizer_(optimizer) {
    if (optimizer_device(optimizer).is_cpu()) return;
    for (auto& [key, state] : optimizer.state()) {
      std::unique_ptr<torch::optim::OptimizerParamState> copy = state->clone();
      move_state(*copy, torch::kCPU);
      originals_.emplace_back(key, std::exchange(state, std::move(copy)));
    }
  }
  ~CpuOptimizerState() {
    for (auto& [key, state] : originals_) optimizer_.state()[key] = std::move(state);
  }
  CpuOptimizerState(const CpuOptimizerState&) = delete;
  CpuOptimizerState& operator=(const CpuOptimizerState&) = delete;

 private:
  torch::optim::Optimizer& optimizer_;
  std::vector<std::pair<std::string, std::unique_ptr<torch::optim::OptimizerParamState>>> originals_;
};

// Saves the optimizer's state, as CPU tensors whatever its device.
void save_optimizer_archive(torch::optim::Optimizer& optimizer, torch::serialize::OutputArchive& archive) {
  const CpuOptimizerState cpu_state(optimizer);
  optimizer.save(archive);
}

// Loads a saved state (read to the CPU); a GPU model's optimizer steps with its state
// beside the parameters.
void load_optimizer_archive(torch::optim::Optimizer& optimizer, torch::serialize::InputArchive& archive) {
  optimizer.load(archive);
  const torch::Device device = optimizer_device(optimizer);
  if (!device.is_cpu())
    for (auto& entry : optimizer.state()) move_state(*entry.second, device);
}

// The network's keys from its schema, each in its range before anything is sized by it
// (network_channels=100000 would allocate 360 GB). Flags came later: a checkpoint without
// them has no auxiliary heads.
void read_network_keys(torch::serialize::InputArchive& archive, const std::string& path, NetworkConfig& network) {
  const Config network_keys(network);
  for (const ConfigKey& key : network_keys.keys()) {
    const std::string name = kNetworkPrefix + key.path;
    if (key.type == ConfigType::kBool) {
      key.set(ConfigValue(read_flag(archive, name, path)));
      continue;
    }
    const std::int64_t v = read_int(archive, name, path);
    if (!key.range.contains(static_cast<double>(v)))
      throw InputError("checkpoint '" + path + "': '" + name + "' is " + std::to_string(v) + ", outside network." +
                       key.path + "'s range " + std::to_string(static_cast<std::int64_t>(key.range.min)) + ".." +
                       std::to_string(static_cast<std::int64_t>(key.range.max)) + ": not a network this build makes");
    key.set(ConfigValue(v));
  }
}

// The run's random streams: one row of four 64-bit words each.
std::vector<std::array<std::uint64_t, 4>> read_rng_states(torch::serialize::InputArchive& archive,
                                                          const std::string& path) {
  const c10::IValue value = read_value(archive, "rng_states", path);
  if (!value.isTensor()) throw InputError("checkpoint '" + path + "': 'rng_states' is not a tensor");
  if (value.toTensor().scalar_type() != torch::kInt64 || value.toTensor().dim() != 2 || value.toTensor().size(1) != 4)
    throw InputError("checkpoint '" + path + "': 'rng_states' is a " +
                     std::string(c10::toString(value.toTensor().scalar_type())) + " tensor of shape " +
                     shape_text(value.toTensor().sizes().vec()) +
                     ", expected a Long (int64) tensor of shape [streams, 4]");
  const torch::Tensor rng = value.toTensor().contiguous();
  const auto* words = rng.data_ptr<std::int64_t>();
  std::vector<std::array<std::uint64_t, 4>> states;
  for (std::int64_t i = 0; i < rng.size(0); ++i) {
    std::array<std::uint64_t, 4> state{};
    for (int k = 0; k < 4; ++k) state[k] = static_cast<std::uint64_t>(words[i * 4 + k]);
    states.push_back(state);
  }
  return states;
}

// Every tensor the network has, by name and shape, against the archive's: LibTorch's load
// takes a tensor of another shape as it is, and a network described as one game's or size
// but holding another's would load and then compute garbage.
void check_tensor_shapes(Model& model, const ArchiveContent& content, const CheckpointInfo& info, const Game& game,
                         const std::string& path) {
  const std::string prefix = "model.";
  std::map<std::string, std::vector<std::int64_t>> expected;
  for (const auto& p : model.impl().net->named_parameters()) expected[prefix + p.key()] = p.value().sizes().vec();
  for (const auto& b : model.impl().net->named_buffers()) expected[prefix + b.key()] = b.value().sizes().vec();
  // The game's observation and actions size the input and head tensors: a checkpoint written by a
  // boardlab whose game observed the board otherwise fails here, and the message says what it sees now.
  const ObservationShape observed = game.observation_shape();
  const std::string described = "the network its metadata describes (" + info.game + ", " +
                                std::to_string(info.network.blocks) + " blocks of " +
                                std::to_string(info.network.channels) + " channels, on this version's " +
                                std::to_string(observed.channels) + "x" + std::to_string(observed.height) + "x" +
                                std::to_string(observed.width) + " observation and " +
                                std::to_string(game.num_distinct_actions()) + " actions)";
  for (const auto& [name, shape] : expected) {
    const auto found = content.shapes.find(name);
    if (found == content.shapes.end())
      throw InputError("checkpoint '" + path + "': tensor '" + name + "' is missing; " + described + " has one of shape " +
                       shape_text(shape));
    if (found->second != shape)
      throw InputError("checkpoint '" + path + "': tensor '" + name + "' has shape " + shape_text(found->second) + ", " +
                       described + " has " + shape_text(shape));
  }
  for (const auto& [name, shape] : content.shapes)
    if (name.starts_with(prefix) && !expected.contains(name))
      throw InputError("checkpoint '" + path + "': tensor '" + name + "' of shape " + shape_text(shape) +
                       " is not part of " + described);
}

}  // namespace

void save_checkpoint(const std::string& path, const Model& model, const Trainer* trainer, const CheckpointInfo& info) {
  torch::serialize::OutputArchive archive;
  torch::serialize::OutputArchive model_archive;
  std::optional<Model> on_cpu;  // a copy of a GPU's model, as every checkpoint holds CPU tensors
  if (model.device() != ComputeDevice::kCpu) {
    on_cpu.emplace(model.clone());
    on_cpu->to_device(ComputeDevice::kCpu);
  }
  (on_cpu ? *on_cpu : model).impl().net->save(model_archive);
  archive.write("model", model_archive);
  if (trainer) {
    torch::serialize::OutputArchive optimizer_archive;
    save_optimizer_archive(*trainer->impl().optimizer, optimizer_archive);
    archive.write("optimizer", optimizer_archive);
    archive.write("trainer_steps", c10::IValue(trainer->steps()));
  }
  archive.write("format_version", c10::IValue(kFormatVersion));
  archive.write("game", c10::IValue(info.game));
  // The network's keys from its schema. A flag is written only when set: a network without
  // auxiliary heads is written as before them.
  NetworkConfig network = info.network;
  const Config network_keys(network);
  for (const ConfigKey& key : network_keys.keys()) {
    const std::string name = kNetworkPrefix + key.path;
    const ConfigValue value = key.get();
    if (key.type == ConfigType::kInt) archive.write(name, c10::IValue(std::get<std::int64_t>(value)));
    else if (key.type == ConfigType::kBool && std::get<bool>(value)) archive.write(name, c10::IValue(std::int64_t{1}));
  }
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
  auto serialized = [&] {
    std::string bytes;
    archive.save_to([&](const void* data, std::size_t size) {
      bytes.append(static_cast<const char*>(data), size);
      return size;
    });
    return bytes;
  };
  // The checksum is of the content as it reads back (what load_checkpoint will hash): the
  // archive is serialized, read, hashed, and written again with the hash.
  std::string bytes = serialized();
  {
    torch::serialize::InputArchive written;
    written.load_from(bytes.data(), bytes.size());
    archive.write(kChecksumKey, c10::IValue(read_content(written).hash));
  }
  bytes = seal_archive(serialized());
  // Refused here rather than on loading: a run learns at its first checkpoint, not at its resume.
  if (bytes.size() > kMaxCheckpointBytes)
    throw InputError("checkpoint '" + path + "' not saved: its " + std::to_string(bytes.size() >> 20) +
                     " MiB are more than the " + size_text(kMaxCheckpointBytes) +
                     " load_checkpoint reads; make the network smaller (network.blocks, network.channels)");
  try {
    write_file_atomically(path, bytes);
  } catch (const FileError& e) {
    throw FileError(std::string("checkpoint not saved: ") + e.what());
  }
}

Checkpoint load_checkpoint(const std::string& path) {
  auto archive = open_archive(path);
  const ArchiveContent content = verified_content(archive, path);
  const std::int64_t version = read_int(archive, "format_version", path);
  if (version != kFormatVersion)
    throw InputError("checkpoint '" + path + "' has format version " + std::to_string(version) + ", this build reads " +
                     std::to_string(kFormatVersion));
  CheckpointInfo info;
  info.game = read_string(archive, "game", path);
  read_network_keys(archive, path, info.network);
  info.step = read_int(archive, "step", path);
  info.games = read_int(archive, "games", path);
  info.positions = read_int(archive, "positions", path);
  const c10::IValue seconds = read_value(archive, "seconds", path);
  if (!seconds.isDouble()) throw InputError("checkpoint '" + path + "': 'seconds' is not a number");
  info.seconds = seconds.toDouble();
  info.config_yaml = read_string(archive, "config_yaml", path);
  info.games_file_bytes = read_optional_count(archive, "games_file_bytes", path);
  info.metrics_rows = read_optional_count(archive, "metrics_rows", path);
  info.rng_states = read_rng_states(archive, path);
  std::shared_ptr<const Game> game;
  try {
    game = load_game(info.game);
  } catch (const InputError& e) {
    throw InputError("checkpoint '" + path + "': its game: " + e.what());
  }
  check_memory(estimate_network_memory(info.network, *game), "checkpoint '" + path + "'", available_memory());
  std::optional<Model> built;
  try {
    built.emplace(info.network, *game, 0);
  } catch (const InputError& e) {
    throw InputError("checkpoint '" + path + "': " + e.what());
  }
  Model& model = *built;
  check_tensor_shapes(model, content, info, *game, path);
  try {
    torch::serialize::InputArchive model_archive;
    archive.read("model", model_archive);
    model.impl().net->load(model_archive);
  } catch (const c10::Error& e) {
    throw InputError("checkpoint '" + path + "': the network does not match its description: " + e.what_without_backtrace());
  }
  model.impl().net->eval();
  model.set_label("checkpoint '" + path + "'");
  return {std::move(game), std::move(*built), std::move(info)};
}

void load_optimizer(const std::string& path, Trainer& trainer) {
  auto archive = open_archive(path);
  verified_content(archive, path);
  try {
    torch::serialize::InputArchive optimizer_archive;
    archive.read("optimizer", optimizer_archive);
    load_optimizer_archive(*trainer.impl().optimizer, optimizer_archive);
  } catch (const c10::Error& e) {
    throw InputError("checkpoint '" + path + "' has no usable optimizer state: " + e.what_without_backtrace());
  }
  trainer.set_steps(read_int(archive, "trainer_steps", path));
}

std::string optimizer_state(const Trainer& trainer) {
  torch::serialize::OutputArchive archive;
  save_optimizer_archive(*trainer.impl().optimizer, archive);
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

void set_optimizer_state(Trainer& trainer, const std::string& bytes, const std::string& from) {
  try {
    std::istringstream in(bytes);
    torch::serialize::InputArchive archive;
    archive.load_from(in);
    load_optimizer_archive(*trainer.impl().optimizer, archive);
  } catch (const c10::Error& e) {
    throw InputError(from + " is no usable optimizer state: " + e.what_without_backtrace());
  }
}

}  // namespace boardlab
