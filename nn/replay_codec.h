// The bytes of one stored game, shared by the replay file and the MPI wire, with their checked reader.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "nn/replay_storage.h"

namespace boardlab {

class ByteWriter {
 public:
  template <typename T>
  void put(const T& value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  template <typename T>
  void put_vector(const std::vector<T>& values) {
    out_.append(reinterpret_cast<const char*>(values.data()), sizeof(T) * values.size());
  }
  void put_column(const PackedColumn& column) {
    put_vector(column.low());
    put_vector(column.high());
  }
  void put_bytes(const char* data, std::size_t n) { out_.append(data, n); }
  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what ByteWriter wrote; every shortfall is an InputError naming the source
// (`source`: "replay file 'x'", "a game from actor rank 2") and the byte it stopped at.
class ByteReader {
 public:
  ByteReader(std::string_view bytes, std::string source) : bytes_(bytes), source_(std::move(source)) {}
  template <typename T>
  T get(const std::string& what) {
    T value;
    take(&value, sizeof value, what);
    return value;
  }
  template <typename T>
  void get_vector(std::vector<T>& values, std::size_t n, const std::string& what) {
    if (n > (bytes_.size() - pos_) / sizeof(T)) fail("truncated in " + what);
    values.resize(n);
    take(values.data(), sizeof(T) * n, what);
  }
  void get_column(PackedColumn& column, std::size_t n, const std::string& what) {
    get_vector(column.low(), n, what);
    get_vector(column.high(), column.wide() ? n : 0, what);
  }
  void take(void* out, std::size_t n, const std::string& what) {
    if (bytes_.size() - pos_ < n) fail("truncated in " + what);
    if (n == 0) return;  // an empty vector's data() may be null, which memcpy must never get
    std::memcpy(out, bytes_.data() + pos_, n);
    pos_ += n;
  }
  [[noreturn]] void fail(const std::string& why) const;
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::string source_;
  std::size_t pos_ = 0;
};

// One game's columns: steps, returns, truncation, targets, sparse policies, root values.
void put_stored_game(ByteWriter& w, const StoredGame& g);
// Reads them back for `game` and checks what can be checked without replaying (counts,
// offsets, action ranges, finite returns); `with_root_values` is false for the replay
// format BLRPLAY2, which had none. check_and_snapshot does the rest.
StoredGame get_stored_game(ByteReader& r, const Game& game, bool with_root_values, const std::string& where);

}  // namespace boardlab
