// The MPI plumbing of distributed training: joining the job, byte messages between ranks, and weight broadcasts.
//
// Only one thread of a process calls MPI (the learner's loop, an actor rank's main thread),
// so MPI_THREAD_SERIALIZED suffices. Waits poll with short sleeps instead of MPI's blocking
// calls, which spin a core: on a machine whose cores the actors share, that core is theirs.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace boardlab::mpi {

enum Tag : int {
  kGameTag = 1,     // actor → learner: nn/game_message.h
  kControlTag = 2,  // learner → actor: hold ('H') or play on ('P')
  kLearnerTag = 3,  // rank 0 → the other learner ranks: nn/learner_rank.cc's commands
  kReplyTag = 4,    // the other learner ranks → rank 0: their network's hash when they stop
};

// The job's two groups, split by role once every rank has the run's config (every rank
// calls this together): rank 0 with the actor ranks, who share the weight broadcasts, and
// the learner ranks 0..learners-1, who average their gradients. MPI_COMM_NULL for a group
// this rank is not in; freed by the destructor.
struct Groups {
  MPI_Comm actors = MPI_COMM_NULL;
  MPI_Comm learners = MPI_COMM_NULL;
  Groups(int rank, int learner_ranks);
  ~Groups();
  Groups(const Groups&) = delete;
  Groups& operator=(const Groups&) = delete;
};

// Replaces `values` on every rank of `comm` by their mean over the ranks. Summed at rank 0
// and broadcast from there, so that every rank gets the very same bits (an all-reduce may
// round in another order on each rank, and learners must not drift apart).
void average(MPI_Comm comm, std::vector<float>& values);

// Whether the environment says this process is one rank of an MPI job (mpirun, srun).
bool launched();
// MPI_Init_thread on the first call; the rank and size of MPI_COMM_WORLD.
std::pair<int, int> join();
void finalize();
[[noreturn]] void abort_job(int code);

// Polls `request` until it completes, sleeping between polls.
void wait_gently(MPI_Request& request);

// Sends without blocking the caller; each message's bytes live until MPI is done with them.
class Outbox {
 public:
  void send(std::string bytes, int destination, int tag);
  void progress();  // frees the messages sent
  void flush();     // waits (gently) until every message is sent
  ~Outbox();

 private:
  struct Pending {
    std::string bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  std::list<Pending> pending_;  // a list: MPI holds each message's address until it is sent
};

// A message that has arrived with `tag` (from `source`, or MPI_ANY_SOURCE): its source and bytes.
std::optional<std::pair<int, std::string>> receive(int source, int tag);
// The next such message's bytes, polled for with short sleeps.
std::string wait_for(int source, int tag);

// Rank 0's string, on every rank (its length, then its bytes).
std::string broadcast_string(const std::string& text, int rank);

// The learner's network broadcasts: one buffer of fixed size (the network's weights,
// which its config fixes) with a header, broadcast from rank 0 on a communicator of their
// own, so that the actors can have the next broadcast posted while they play.
class WeightChannel {
 public:
  enum Kind : std::int64_t { kWeights = 1, kStop = 2 };
  struct Message {
    Kind kind = kWeights;
    std::int64_t version = 0;
    std::string weights;  // for kWeights
  };
  // On `comm`, which holds rank 0 and the actor ranks (Groups::actors).
  WeightChannel(std::size_t weight_bytes, MPI_Comm comm);
  ~WeightChannel();
  WeightChannel(const WeightChannel&) = delete;
  WeightChannel& operator=(const WeightChannel&) = delete;

  // Rank 0: broadcasts `weights` (or a stop) after the previous broadcast completed.
  void send(Kind kind, std::int64_t version, const std::string& weights);
  void finish();  // rank 0: waits for the last broadcast
  // The other ranks: the next broadcast once it has arrived (posting the following one);
  // InputError for a header that is not one.
  std::optional<Message> poll();
  std::size_t message_bytes() const { return buffer_.size(); }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::string buffer_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  bool posted_ = false;
};

}  // namespace boardlab::mpi
