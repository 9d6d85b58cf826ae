// read_file: a FIFO never blocks, devices and folders are refused, nothing past the bound is read.
#include "files/read_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <string>

#include "core/errors.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

std::string temp_path(const std::string& name) { return ::testing::TempDir() + "read_file_test_" + name; }

void write(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

TEST(ReadFile, ARegularFileIsReadWhole) {
  const std::string path = temp_path("small");
  write(path, std::string("a\0b\n", 4));
  EXPECT_EQ(read_file(path, 4, "file"), std::string("a\0b\n", 4));
  write(path, "");
  EXPECT_EQ(read_file(path, 0, "file"), "");
  std::remove(path.c_str());
}

TEST(ReadFile, AFifoIsRefusedWithoutWaitingForAWriter) {
  const std::string path = temp_path("fifo");
  std::remove(path.c_str());
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  // On another thread: a reader that blocks would hang this test instead of failing it.
  auto message = std::async(std::launch::async, [&] { return error_of([&] { read_file(path, 1 << 20, "checkpoint"); }); });
  if (message.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    ::close(::open(path.c_str(), O_WRONLY | O_NONBLOCK));  // a writer comes and goes: the reader ends
    FAIL() << "read_file blocked on a FIFO";
  }
  EXPECT_EQ(message.get(), "cannot read checkpoint '" + path + "': it is not a regular file (a device, FIFO or socket)");
  std::remove(path.c_str());
}

TEST(ReadFile, DevicesAndFoldersAreRefused) {
  // /dev/zero has no end: read, it grew until the machine ran out of memory.
  EXPECT_EQ(error_of([] { read_file("/dev/zero", std::size_t{4} << 30, "checkpoint"); }),
            "cannot read checkpoint '/dev/zero': it is not a regular file (a device, FIFO or socket)");
  const std::string folder = ::testing::TempDir();
  EXPECT_EQ(error_of([&] { read_file(folder, 100, "config file"); }),
            "cannot read config file '" + folder + "': it is a folder");
  EXPECT_EQ(error_of([] { read_file("/nonexistent/x.pt", 100, "checkpoint"); }),
            "cannot read checkpoint '/nonexistent/x.pt': No such file or directory");
}

TEST(ReadFile, AFileOverTheBoundIsRefusedBeforeItIsRead) {
  const std::string path = temp_path("large");
  write(path, std::string(101, 'x'));
  EXPECT_EQ(error_of([&] { read_file(path, 100, "checkpoint"); }),
            "checkpoint '" + path + "' is larger than 100 bytes: not a checkpoint");
  EXPECT_EQ(read_file(path, 101, "checkpoint").size(), 101u);
  write(path, std::string((1 << 20) + 1, 'x'));
  EXPECT_EQ(error_of([&] { read_file(path, 1 << 20, "config file"); }),
            "config file '" + path + "' is larger than 1 MiB: not a config file");
  std::remove(path.c_str());
}

TEST(ReadFile, AFileSeenSmallButLongerWhenReadIsCutAtTheBound) {
  // /proc files report size 0 to fstat and hold more: what a file growing while read looks like.
  EXPECT_EQ(error_of([] { read_file("/proc/self/status", 8, "file"); }),
            "file '/proc/self/status' is larger than 8 bytes: not a file");
  EXPECT_GT(read_file("/proc/self/status", 1 << 20, "file").size(), 8u);
}

TEST(ReadFile, SizesAreShownInTheirLargestWholeUnit) {
  EXPECT_EQ(size_text(1), "1 byte");
  EXPECT_EQ(size_text(100), "100 bytes");
  EXPECT_EQ(size_text(1 << 20), "1 MiB");
  EXPECT_EQ(size_text(std::size_t{4} << 30), "4 GiB");
  EXPECT_EQ(size_text((1 << 20) + 1), "1048577 bytes");
}

}  // namespace
}  // namespace boardlab
