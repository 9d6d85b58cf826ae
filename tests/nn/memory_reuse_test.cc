// Tests that a Model keeps the memory freed in its process (nn/memory_reuse.h), where the allocator is glibc's.
#include "nn/memory_reuse.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "nn/model.h"
#include "nn/network_config.h"
#include "nn_test_util.h"

namespace boardlab {
namespace {

#if defined(__GLIBC__)
// Where glibc puts a block of `bytes` and what it keeps once the block is freed: the
// bytes of fresh mappings while the block is held, and the arena's free bytes after.
struct BlockFate {
  std::size_t mapped = 0;
  std::size_t free_after = 0;
};
BlockFate fate_of_block(std::size_t bytes) {
  const std::size_t mapped_before = mallinfo2().hblkhd;
  void* block = std::malloc(bytes);
  EXPECT_NE(block, nullptr);
  std::memset(block, 1, bytes);
  const std::size_t mapped_during = mallinfo2().hblkhd;
  std::free(block);
  return {mapped_during > mapped_before ? mapped_during - mapped_before : 0, mallinfo2().fordblks};
}

TEST(MemoryReuse, AModelKeepsFreedBlocksInTheProcess) {
  // glibc's defaults (128 KiB each) first, whatever ran before in this process: a 16 MiB
  // block is then a mapping of its own, given back to the kernel when freed.
  constexpr std::size_t kBlock = std::size_t{16} << 20;
  ASSERT_EQ(mallopt(M_MMAP_THRESHOLD, 128 * 1024), 1);
  ASSERT_EQ(mallopt(M_TRIM_THRESHOLD, 128 * 1024), 1);
  EXPECT_GE(fate_of_block(kBlock).mapped, kBlock) << "glibc's defaults did not map the block: this test cannot tell";
  const Model model(NetworkConfig{.blocks = 1, .channels = 8}, nn_testing::virus_war(), 1);
  const BlockFate fate = fate_of_block(kBlock);
  EXPECT_EQ(fate.mapped, 0u) << "the block was a mapping of its own, unmapped when freed";
  EXPECT_GE(fate.free_after, kBlock) << "the freed block went back to the kernel";
}

TEST(MemoryReuse, GlibcAcceptsTheThresholds) {
  // mallopt refuses an mmap threshold above 32 MiB on 64-bit glibc, which only its result shows.
  EXPECT_TRUE(keep_freed_memory());
}
#endif

}  // namespace
}  // namespace boardlab
