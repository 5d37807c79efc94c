// InitialChains on its own (initial_chains.h): what PruneChain, SettleFlag
// and FinalizeOutputType decide for a given input, without a DB. The same
// rules run end to end in initial_put_test.cc and the differential harness.

#include "db/initial_put/initial_chains.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "db/compaction/compaction_iteration_stats.h"
#include "db/initial_put/initial_puts.h"
#include "db/pinned_iterators_manager.h"
#include "rocksdb/comparator.h"
#include "test_util/testharness.h"
#include "util/vector_iterator.h"

namespace ROCKSDB_NAMESPACE {

namespace {

struct Version {
  std::string user_key;
  SequenceNumber seq;
  ValueType type;
};

}  // namespace

class InitialChainsTest : public testing::Test {
 protected:
  // `versions` in the order a flush reads them: by key, newest first.
  void Read(const std::vector<Version>& versions, bool enabled = true) {
    std::vector<std::string> keys;
    std::vector<std::string> values;
    for (const Version& v : versions) {
      keys.push_back(
          InternalKey(v.user_key, v.seq, v.type).Encode().ToString());
      values.push_back("v" + std::to_string(v.seq));
    }
    input_.reset(new VectorIterator(keys, values));
    input_->SeekToFirst();
    chains_ = InitialChains();
    chains_.Attach({input_.get(), BytewiseComparator(), &pinned_,
                    /*shutting_down=*/nullptr, &canceled_,
                    /*allow_data_in_errors=*/false},
                   /*visibility_is_sequence_order=*/true);
    if (enabled) {
      NoteInitialPutWritten();
      chains_.EnableForFlush(/*allow_ingest_behind=*/false);
    }
    stats_ = CompactionIterationStats();
  }

  // The version the input is at.
  ParsedInternalKey Current() {
    ParsedInternalKey parsed;
    EXPECT_OK(ParseInternalKey(input_->key(), &parsed, false));
    return parsed;
  }

  std::unique_ptr<VectorIterator> input_;
  PinnedIteratorsManager pinned_;
  std::atomic<bool> canceled_{false};
  InitialChains chains_;
  CompactionIterationStats stats_;
};

// Tables with initial puts carry their count under this property name
// (a varint64): pinned, as every table written so far holds it.
TEST(InitialPutsFormatTest, TablePropertyName) {
  EXPECT_STREQ(kInitialPutsProperty, "rocksdb.lodestone.num.initial.puts");
}

TEST_F(InitialChainsTest, DeleteDropsItsChainDownToTheInitialPut) {
  Read({{"k", 10, kTypeDeletion},
        {"k", 9, kTypeValue},
        {"k", 8, kTypeValueInitial},
        {"k", 5, kTypeValue},
        {"m", 4, kTypeValue}});
  ASSERT_TRUE(chains_.PruneChain(Current(), /*prev_snapshot=*/0, &stats_));
  // The next version of k is its newest one left.
  EXPECT_EQ(Current().sequence, 5u);
  EXPECT_EQ(chains_.chains_pruned(), 1u);
  EXPECT_EQ(chains_.chain_records_pruned(), 3u);
  EXPECT_EQ(stats_.num_record_drop_hidden, 3u);
  EXPECT_EQ(stats_.num_input_records, 2u);
}

TEST_F(InitialChainsTest, DeleteWithoutInitialPutStaysAndHidesItsStripe) {
  Read({{"k", 10, kTypeDeletion},
        {"k", 9, kTypeValue},
        {"k", 8, kTypeValue},
        {"m", 4, kTypeValue}});
  ASSERT_FALSE(chains_.PruneChain(Current(), 0, &stats_));
  EXPECT_EQ(Current().user_key.ToString(), "m");
  EXPECT_EQ(chains_.chains_pruned(), 0u);
  EXPECT_EQ(stats_.num_record_drop_hidden, 2u);
}

TEST_F(InitialChainsTest, ChainNeverCrossesASnapshot) {
  Read({{"k", 10, kTypeDeletion},
        {"k", 9, kTypeValue},
        {"k", 7, kTypeValueInitial}});
  // A snapshot at 8 sees the initial put: the Delete must stay.
  ASSERT_FALSE(chains_.PruneChain(Current(), /*prev_snapshot=*/8, &stats_));
  EXPECT_EQ(Current().sequence, 7u);
  EXPECT_EQ(chains_.chains_pruned(), 0u);
}

TEST_F(InitialChainsTest, SingleDeleteEndsTheWalk) {
  Read({{"k", 10, kTypeDeletion},
        {"k", 9, kTypeSingleDeletion},
        {"k", 8, kTypeValueInitial}});
  ASSERT_FALSE(chains_.PruneChain(Current(), 0, &stats_));
  EXPECT_EQ(Current().type, kTypeSingleDeletion);
}

TEST_F(InitialChainsTest, OverwriteInheritsTheInitialFlag) {
  Read({{"k", 10, kTypeValue},
        {"k", 9, kTypeValueInitial},
        {"m", 1, kTypeValue}});
  ParsedInternalKey put = Current();
  Slice value = input_->value();
  ASSERT_TRUE(chains_.SettleFlag(0, &put, &value, &stats_));
  EXPECT_EQ(put.type, kTypeValueInitial);
  EXPECT_EQ(Current().user_key.ToString(), "m");
  // The output's value outlives the walk past it.
  EXPECT_EQ(value.ToString(), "v10");
  EXPECT_EQ(stats_.num_record_drop_hidden, 1u);
  chains_.ReleaseSettledValue();
}

TEST_F(InitialChainsTest, DroppingAPlainPutClearsTheFlag) {
  // Rule (A) drops k@9, which may have hidden an older value elsewhere.
  Read({{"k", 10, kTypeValueInitial}, {"k", 9, kTypeValue}});
  ParsedInternalKey put = Current();
  Slice value = input_->value();
  ASSERT_TRUE(chains_.SettleFlag(0, &put, &value, &stats_));
  EXPECT_EQ(put.type, kTypeValue);
  EXPECT_FALSE(input_->Valid());
  chains_.ReleaseSettledValue();
}

TEST_F(InitialChainsTest, LoneInitialPutKeepsItsFlag) {
  Read({{"k", 10, kTypeValueInitial}, {"m", 9, kTypeValue}});
  ParsedInternalKey put = Current();
  Slice value = input_->value();
  EXPECT_FALSE(chains_.SettleFlag(0, &put, &value, &stats_));
  EXPECT_EQ(put.type, kTypeValueInitial);
  chains_.ReleaseSettledValue();
}

TEST_F(InitialChainsTest, AWalkCutShortVouchesForNothing) {
  // The SingleDelete is left to the main loop: nothing below is known.
  Read({{"k", 10, kTypeValueInitial},
        {"k", 9, kTypeSingleDeletion},
        {"k", 8, kTypeValueInitial}});
  ParsedInternalKey put = Current();
  Slice value = input_->value();
  ASSERT_TRUE(chains_.SettleFlag(0, &put, &value, &stats_));
  EXPECT_EQ(put.type, kTypeValue);
  EXPECT_EQ(Current().sequence, 9u);
  chains_.ReleaseSettledValue();
}

TEST_F(InitialChainsTest, OutputTypeAtTheLastLevel) {
  Read({{"k", 10, kTypeValueInitial}});
  ValueType type = kTypeValueInitial;
  EXPECT_FALSE(chains_.FinalizeOutputType(&type, /*bottommost_level=*/false));
  EXPECT_EQ(type, kTypeValueInitial);
  // Nothing is older than the last level: a plain put, which stock reads.
  EXPECT_TRUE(chains_.FinalizeOutputType(&type, /*bottommost_level=*/true));
  EXPECT_EQ(type, kTypeValue);
  type = kTypeDeletion;
  EXPECT_FALSE(chains_.FinalizeOutputType(&type, true));
  EXPECT_EQ(chains_.tombstones_to_bottommost(), 1u);
}

TEST_F(InitialChainsTest, UntrackedOutputLosesTheFlag) {
  Read({{"k", 10, kTypeValueInitial}}, /*enabled=*/false);
  ASSERT_FALSE(chains_.enabled());
  ValueType type = kTypeValueInitial;
  EXPECT_TRUE(chains_.FinalizeOutputType(&type, /*bottommost_level=*/false));
  EXPECT_EQ(type, kTypeValue);
}

TEST_F(InitialChainsTest, NotTrackedWithIngestBehindOrOtherVisibility) {
  NoteInitialPutWritten();
  PinnedIteratorsManager pinned;
  std::atomic<bool> canceled{false};
  const InitialChains::Input input{
      nullptr, BytewiseComparator(), &pinned, nullptr, &canceled, false};
  InitialChains chains;
  chains.Attach(input, /*visibility_is_sequence_order=*/true);
  chains.EnableForFlush(/*allow_ingest_behind=*/true);
  EXPECT_FALSE(chains.enabled());
  chains.EnableForFlush(/*allow_ingest_behind=*/false);
  EXPECT_TRUE(chains.enabled());
  // A snapshot checker or user-defined timestamps.
  chains.Attach(input, /*visibility_is_sequence_order=*/false);
  chains.EnableForFlush(/*allow_ingest_behind=*/false);
  EXPECT_FALSE(chains.enabled());
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
