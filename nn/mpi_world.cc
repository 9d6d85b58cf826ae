// Joining the MPI job, polled sends and receives, and the broadcast channel of the weights.
#include "nn/mpi_world.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <thread>

#include "core/errors.h"

namespace boardlab::mpi {
namespace {

constexpr auto kPoll = std::chrono::microseconds(500);

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("MPI: ") + what + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

int count_of(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw InputError("MPI: a message of " + std::to_string(bytes) + " bytes is larger than one send carries (2 GiB)");
  return static_cast<int>(bytes);
}

}  // namespace

bool launched() {
  // Open MPI's mpirun, and SLURM's srun with PMI-2 or PMIx.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

std::pair<int, int> join() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // Python loads this library with RTLD_LOCAL, and Open MPI's plugins then miss the
    // symbols of libmpi they expect to find global (mpi4py opens it RTLD_GLOBAL too).
    for (const char* name : {"libmpi.so.40", "libmpi.so"})
      if (dlopen(name, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)) break;
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
    if (provided < MPI_THREAD_SERIALIZED)
      throw std::runtime_error("MPI: this MPI library does not let a process call it from more than its first thread");
    // Errors come back as codes, which check() turns into exceptions naming the call.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return {rank, size};
}

void finalize() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void abort_job(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; this is for the compiler
}

void wait_gently(MPI_Request& request) {
  while (true) {
    int done = 0;
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    std::this_thread::sleep_for(kPoll);
  }
}

void Outbox::send(std::string bytes, int destination, int tag) {
  pending_.push_back({std::move(bytes), MPI_REQUEST_NULL});
  Pending& p = pending_.back();
  check(MPI_Isend(p.bytes.data(), count_of(p.bytes.size()), MPI_BYTE, destination, tag, MPI_COMM_WORLD, &p.request),
        "MPI_Isend");
}

void Outbox::progress() {
  for (auto it = pending_.begin(); it != pending_.end();) {
    int done = 0;
    check(MPI_Test(&it->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    it = done ? pending_.erase(it) : std::next(it);
  }
}

void Outbox::flush() {
  for (Pending& p : pending_) wait_gently(p.request);
  pending_.clear();
}

Outbox::~Outbox() {
  // A job that ends with messages in flight is being aborted: their buffers must outlive MPI.
  // A list's move keeps its elements where they are.
  if (!pending_.empty()) static_cast<void>(new std::list<Pending>(std::move(pending_)));
}

std::optional<std::pair<int, std::string>> receive(int source, int tag) {
  int arrived = 0;
  MPI_Status status;
  check(MPI_Iprobe(source, tag, MPI_COMM_WORLD, &arrived, &status), "MPI_Iprobe");
  if (!arrived) return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::string bytes(static_cast<std::size_t>(count), '\0');
  check(MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
  return std::pair{status.MPI_SOURCE, std::move(bytes)};
}

std::string wait_for(int source, int tag) {
  while (true) {
    if (auto message = receive(source, tag)) return std::move(message->second);
    std::this_thread::sleep_for(kPoll);
  }
}

std::string broadcast_string(const std::string& text, int rank) {
  std::uint64_t size = rank == 0 ? text.size() : 0;
  MPI_Request request;
  check(MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request), "MPI_Ibcast");
  wait_gently(request);
  std::string out = rank == 0 ? text : std::string(static_cast<std::size_t>(size), '\0');
  check(MPI_Ibcast(out.data(), count_of(out.size()), MPI_BYTE, 0, MPI_COMM_WORLD, &request), "MPI_Ibcast");
  wait_gently(request);
  return out;
}

Groups::Groups(int rank, int learner_ranks) {
  check(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 || rank >= learner_ranks ? 0 : MPI_UNDEFINED, rank, &actors),
        "MPI_Comm_split (actors)");
  check(MPI_Comm_split(MPI_COMM_WORLD, rank < learner_ranks ? 0 : MPI_UNDEFINED, rank, &learners),
        "MPI_Comm_split (learners)");
  for (MPI_Comm c : {actors, learners})
    if (c != MPI_COMM_NULL) MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
}

Groups::~Groups() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (MPI_Comm* c : {&actors, &learners})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

void average(MPI_Comm comm, std::vector<float>& values) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int count = count_of(values.size() * sizeof(float)) / static_cast<int>(sizeof(float));
  MPI_Request request;
  if (rank == 0) check(MPI_Ireduce(MPI_IN_PLACE, values.data(), count, MPI_FLOAT, MPI_SUM, 0, comm, &request), "MPI_Ireduce");
  else check(MPI_Ireduce(values.data(), nullptr, count, MPI_FLOAT, MPI_SUM, 0, comm, &request), "MPI_Ireduce");
  wait_gently(request);
  if (rank == 0)
    for (float& v : values) v /= static_cast<float>(size);
  check(MPI_Ibcast(values.data(), count, MPI_FLOAT, 0, comm, &request), "MPI_Ibcast");
  wait_gently(request);
}

namespace {
struct Header {
  char magic[8] = {'B', 'L', 'W', 'E', 'I', 'G', 'H', 'T'};
  std::int64_t kind = 0;
  std::int64_t version = 0;
};
}  // namespace

WeightChannel::WeightChannel(std::size_t weight_bytes, MPI_Comm comm) : buffer_(sizeof(Header) + weight_bytes, '\0') {
  if (comm == MPI_COMM_NULL) throw std::logic_error("WeightChannel: this rank is not in the actors' group");
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  count_of(buffer_.size());
}

WeightChannel::~WeightChannel() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  // A broadcast still posted means the job is ending badly (an abort follows); MPI owns
  // the buffer then, so it is left to the process's end.
  if (posted_ || finalized) {
    static_cast<void>(new std::string(std::move(buffer_)));
    return;
  }
  MPI_Comm_free(&comm_);
}

void WeightChannel::send(Kind kind, std::int64_t version, const std::string& weights) {
  if (posted_) wait_gently(request_);
  posted_ = false;
  if (kind == kWeights && weights.size() + sizeof(Header) != buffer_.size())
    throw std::logic_error("WeightChannel: weights of " + std::to_string(weights.size()) + " bytes, not " +
                           std::to_string(buffer_.size() - sizeof(Header)));
  Header header;
  header.kind = kind;
  header.version = version;
  std::memcpy(buffer_.data(), &header, sizeof header);
  if (kind == kWeights) std::memcpy(buffer_.data() + sizeof header, weights.data(), weights.size());
  check(MPI_Ibcast(buffer_.data(), count_of(buffer_.size()), MPI_BYTE, 0, comm_, &request_), "MPI_Ibcast");
  posted_ = true;
}

void WeightChannel::finish() {
  if (posted_) wait_gently(request_);
  posted_ = false;
}

std::optional<WeightChannel::Message> WeightChannel::poll() {
  if (!posted_) {
    check(MPI_Ibcast(buffer_.data(), count_of(buffer_.size()), MPI_BYTE, 0, comm_, &request_), "MPI_Ibcast");
    posted_ = true;
  }
  int done = 0;
  check(MPI_Test(&request_, &done, MPI_STATUS_IGNORE), "MPI_Test");
  if (!done) return std::nullopt;
  posted_ = false;
  Header header, expected;
  std::memcpy(&header, buffer_.data(), sizeof header);
  if (std::memcmp(header.magic, expected.magic, sizeof header.magic) != 0 ||
      (header.kind != kWeights && header.kind != kStop) || header.version < 0)
    throw InputError("the learner's broadcast is not a boardlab weights message (kind " + std::to_string(header.kind) +
                     ", version " + std::to_string(header.version) + ")");
  Message out{static_cast<Kind>(header.kind), header.version, {}};
  if (out.kind == kWeights) out.weights.assign(buffer_.data() + sizeof header, buffer_.size() - sizeof header);
  return out;
}

}  // namespace boardlab::mpi
