// The fault-injection file system db_stress runs on (upstream's
// utilities/fault_injection_fs.cc, patch 0043): dropping a random part of a
// file's unsynced data when none of it is buffered.

#include "rocksdb/env.h"
#include "test_util/testharness.h"
#include "util/random.h"
#include "utilities/fault_injection_fs.h"

namespace ROCKSDB_NAMESPACE {

// A file whose appends were not synced but whose bytes are not buffered
// (written before the file system started tracking them): upstream 9.10.0
// divided by the empty buffer's size (SIGFPE) when a failed open under
// injected faults chose to drop random unsynced data, which the crash test
// wrapper once dodged by replaying db_stress's RNG to pick seeds.
TEST(FaultInjectionDropTest, RandomDropOfAnEmptyBufferKeepsNothing) {
  FSFileState state("000012.log");
  state.pos_at_last_append_ = 4096;
  state.pos_at_last_sync_ = 0;
  ASSERT_FALSE(state.IsFullySynced());
  Random rnd(301);
  ASSERT_OK(state.DropRandomUnsyncedData(&rnd));
  EXPECT_TRUE(state.buffer_.empty());
}

TEST(FaultInjectionDropTest, RandomDropKeepsAPrefixOfTheBuffer) {
  FSFileState state("000012.log");
  state.pos_at_last_append_ = 100;
  state.buffer_.assign(100, 'x');
  Random rnd(301);
  ASSERT_OK(state.DropRandomUnsyncedData(&rnd));
  EXPECT_LT(state.buffer_.size(), 100u);
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
