// Early tombstone pruning: initial puts end to end.

#include "db/db_test_util.h"
#include "db/initial_put/initial_puts.h"
#include "rocksdb/utilities/debug.h"
#include "rocksdb/utilities/optimistic_transaction_db.h"
#include "rocksdb/utilities/transaction_db.h"
#include "rocksdb/utilities/write_batch_with_index.h"
#include "utilities/merge_operators.h"

namespace ROCKSDB_NAMESPACE {

class InitialPutTest : public DBTestBase {
 public:
  InitialPutTest() : DBTestBase("initial_put_test", /*env_do_fsync=*/false) {}

 protected:
  Options InitialOptions() {
    Options options = CurrentOptions();
    options.create_if_missing = true;
    options.disable_auto_compactions = true;
    options.statistics = CreateDBStatistics();
    options.merge_operator = MergeOperators::CreateStringAppendOperator(',');
    options.num_levels = 4;
    return options;
  }

  uint64_t Ticker(Tickers t) { return options_.statistics->getTickerCount(t); }

  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "key%05d", i);
    return buf;
  }

  // Internal entries (all versions) of `key` across memtables and files.
  std::vector<KeyVersion> Versions(const std::string& key) {
    std::vector<KeyVersion> versions;
    EXPECT_OK(GetAllKeyVersions(db_, key, key + "\xff", 1000, &versions));
    return versions;
  }

  int CountType(const std::string& key, ValueType type) {
    int n = 0;
    for (const KeyVersion& v : Versions(key)) {
      n += v.type == static_cast<int>(type) ? 1 : 0;
    }
    return n;
  }

  void Open() {
    options_ = InitialOptions();
    DestroyAndReopen(options_);
  }

  void CompactL0ToL1() {
    ASSERT_OK(dbfull()->TEST_CompactRange(0, nullptr, nullptr, nullptr,
                                          /*disallow_trivial_move=*/true));
  }

  // A file in the last level whose range covers every test key, so that
  // compactions above it are not bottommost.
  void PutBelow() {
    ASSERT_OK(db_->Put(WriteOptions(), "a", "below"));
    ASSERT_OK(db_->Put(WriteOptions(), "zzz", "below"));
    ASSERT_OK(Flush());
    MoveFilesToLevel(3);
  }

  Options options_;
};

TEST_F(InitialPutTest, ReadsLikeAPut) {
  Open();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v1"));
  ASSERT_EQ(Get("k"), "v1");
  ASSERT_OK(db_->Merge(WriteOptions(), "k", "m"));
  ASSERT_EQ(Get("k"), "v1,m");
  ASSERT_OK(Flush());
  ASSERT_EQ(Get("k"), "v1,m");
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->value().ToString(), "v1,m");
  it->SeekToLast();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->value().ToString(), "v1,m");
  // A range delete covers an initial put like any put.
  ASSERT_OK(
      db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "a", "z"));
  ASSERT_EQ(Get("k"), "NOT_FOUND");
}

TEST_F(InitialPutTest, ChainPrunedInFlush) {
  Open();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  ASSERT_OK(db_->Put(WriteOptions(), "k", "v2"));
  ASSERT_OK(Delete("k"));
  ASSERT_OK(db_->Put(WriteOptions(), "other", "x"));
  ASSERT_OK(Flush());
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 1u);
  EXPECT_EQ(Ticker(TOMBSTONES_PRUNED_EARLY), 1u);
  EXPECT_TRUE(Versions("k").empty());  // Nothing of the chain reached L0.
  EXPECT_EQ(Get("k"), "NOT_FOUND");
}

TEST_F(InitialPutTest, ChainPrunedAtL0ToL1) {
  Open();
  PutBelow();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  ASSERT_OK(Flush());
  ASSERT_OK(Delete("k"));
  ASSERT_OK(Flush());
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 0u);
  ASSERT_EQ(CountType("k", kTypeDeletion), 1);
  CompactL0ToL1();
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 1u);
  EXPECT_EQ(Ticker(TOMBSTONES_PRUNED_EARLY), 1u);
  EXPECT_TRUE(Versions("k").empty());
  EXPECT_EQ(Get("k"), "NOT_FOUND");
  EXPECT_EQ(Get("a"), "below");
}

TEST_F(InitialPutTest, NotPrunedAcrossSnapshot) {
  Open();
  PutBelow();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(Delete("k"));
  ASSERT_OK(Flush());
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 0u);
  ReadOptions ro;
  ro.snapshot = snap;
  std::string value;
  ASSERT_OK(db_->Get(ro, "k", &value));
  EXPECT_EQ(value, "v");
  EXPECT_EQ(Get("k"), "NOT_FOUND");
  CompactL0ToL1();
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 0u);
  ASSERT_OK(db_->Get(ro, "k", &value));
  EXPECT_EQ(value, "v");
  db_->ReleaseSnapshot(snap);
  // Once the snapshot is gone, the next compaction prunes the chain.
  ASSERT_OK(dbfull()->TEST_CompactRange(1, nullptr, nullptr, nullptr,
                                        /*disallow_trivial_move=*/true));
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 1u);
  EXPECT_TRUE(Versions("k").empty());
  EXPECT_EQ(Get("k"), "NOT_FOUND");
}

TEST_F(InitialPutTest, OlderVersionsBelowTheChainSurvive) {
  Open();
  // An old value, deleted under a snapshot, then a new chain.
  ASSERT_OK(db_->Put(WriteOptions(), "k", "old"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(Delete("k"));
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "new"));
  ASSERT_OK(Delete("k"));
  ASSERT_OK(Flush());
  // The chain (Delete, initial put) is pruned; the older Delete stays and
  // still hides "old", which the snapshot still sees.
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 1u);
  EXPECT_EQ(Get("k"), "NOT_FOUND");
  ReadOptions ro;
  ro.snapshot = snap;
  std::string value;
  ASSERT_OK(db_->Get(ro, "k", &value));
  EXPECT_EQ(value, "old");
  db_->ReleaseSnapshot(snap);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Get("k"), "NOT_FOUND");
}

TEST_F(InitialPutTest, InheritanceAfterOverwrite) {
  Open();
  PutBelow();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v1"));
  ASSERT_OK(db_->Put(WriteOptions(), "k", "v2"));
  ASSERT_OK(Flush());
  // The overwrite replaced the initial put and inherited its flag.
  EXPECT_EQ(CountType("k", kTypeValueInitial), 1);
  EXPECT_EQ(CountType("k", kTypeValue), 0);
  EXPECT_EQ(Get("k"), "v2");
  ASSERT_OK(Delete("k"));
  ASSERT_OK(Flush());
  CompactL0ToL1();
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 1u);
  EXPECT_TRUE(Versions("k").empty());
}

TEST_F(InitialPutTest, FlagClearedWhenHiddenTombstoneIsDropped) {
  Open();
  // "old" sits in a lower level; a Delete hides it; an initial put follows.
  ASSERT_OK(db_->Put(WriteOptions(), "k", "old"));
  ASSERT_OK(Flush());
  MoveFilesToLevel(3);
  ASSERT_OK(Delete("k"));
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "new"));
  ASSERT_OK(db_->Put(WriteOptions(), "k", "newer"));
  ASSERT_OK(Flush());
  // The flush drops the Delete (hidden by "newer"): "newer" must not claim
  // to be initial, or a later Delete would be pruned and resurrect "old".
  EXPECT_EQ(CountType("k", kTypeValueInitial), 0);
  ASSERT_OK(Delete("k"));
  ASSERT_OK(Flush());
  CompactL0ToL1();
  EXPECT_EQ(Get("k"), "NOT_FOUND");
}

// Found by the differential harness: a look-ahead below an output put must
// not swallow a SingleDelete that stock compaction keeps for its Put.
TEST_F(InitialPutTest, HiddenSingleDeleteIsKeptForItsPut) {
  Open();
  NoteInitialPutWritten();  // Chains are tracked in every flush.
  ASSERT_OK(db_->Put(WriteOptions(), "s", "v1"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(db_->SingleDelete(WriteOptions(), "s"));
  ASSERT_OK(db_->Put(WriteOptions(), "s", "v2"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->SingleDelete(WriteOptions(), "s"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Get("s"), "NOT_FOUND");
  db_->ReleaseSnapshot(snap);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Get("s"), "NOT_FOUND");
}

TEST_F(InitialPutTest, MergeOperandsInsideAChain) {
  Open();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  ASSERT_OK(db_->Merge(WriteOptions(), "k", "a"));
  ASSERT_OK(db_->Merge(WriteOptions(), "k", "b"));
  ASSERT_EQ(Get("k"), "v,a,b");
  ASSERT_OK(Delete("k"));
  ASSERT_OK(Flush());
  EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 1u);
  EXPECT_TRUE(Versions("k").empty());
  ASSERT_OK(db_->Merge(WriteOptions(), "k", "c"));
  EXPECT_EQ(Get("k"), "c");
}

TEST_F(InitialPutTest, VerificationRejectsABadInitialPut) {
  options_ = InitialOptions();
  options_.verify_initial_puts = true;
  DestroyAndReopen(options_);
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  Status s = db_->PutInitial(WriteOptions(), "k", "again");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(Get("k"), "v");  // The failed write changed nothing.
  EXPECT_EQ(Ticker(INITIAL_PUT_CONTRACT_VIOLATIONS), 1u);
  // Within one batch: a put then an initial put of the same key.
  WriteBatch batch;
  ASSERT_OK(batch.Put("b", "1"));
  ASSERT_OK(batch.PutInitial("b", "2"));
  EXPECT_TRUE(db_->Write(WriteOptions(), &batch).IsInvalidArgument());
  EXPECT_EQ(Get("b"), "NOT_FOUND");
  // Legal: after a delete, and after a delete earlier in the same batch.
  ASSERT_OK(Delete("k"));
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v2"));
  WriteBatch ok_batch;
  ASSERT_OK(ok_batch.Delete("k"));
  ASSERT_OK(ok_batch.PutInitial("k", "v3"));
  ASSERT_OK(db_->Write(WriteOptions(), &ok_batch));
  EXPECT_EQ(Get("k"), "v3");
}

// Regression (crash test, seed 49003): with pipelined writes, a writer whose
// check refused it still leads its group, whose WAL record (empty: nothing
// in the group writes) is written; when that write failed, its error landed
// on the refused writer, and upstream asserts that a writer with a failed
// callback never carries another error (WriteThread::Writer::FinalStatus).
// The write must fail and leave nothing behind, as without the fault.
TEST_F(InitialPutTest, VerificationRefusalMeetsAFailedWalWrite) {
  options_ = InitialOptions();
  options_.verify_initial_puts = true;
  options_.enable_pipelined_write = true;
  options_.env = env_;
  DestroyAndReopen(options_);
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  env_->log_write_error_.store(true, std::memory_order_release);
  Status s = db_->PutInitial(WriteOptions(), "k", "again");
  env_->log_write_error_.store(false, std::memory_order_release);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(Ticker(INITIAL_PUT_CONTRACT_VIOLATIONS), 1u);
  EXPECT_EQ(Get("k"), "v");
}

// Regression (issue 18, defect 3): the check was a lookup before the write
// joined its write group, so two writers could both find a key absent and
// both write it; after a delete, compaction then pruned the newer chain and
// the older initial put came back.
TEST_F(InitialPutTest, VerificationIsAtomicWithTheWrite) {
  options_ = InitialOptions();
  options_.verify_initial_puts = true;
  DestroyAndReopen(options_);
  PutBelow();
  constexpr int kThreads = 4;
  constexpr int kKeys = 2000;
  std::vector<std::atomic<int>> accepted(kKeys);
  std::vector<port::Thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kKeys; i++) {
        Status s =
            db_->PutInitial(WriteOptions(), Key(i), "t" + std::to_string(t));
        if (s.ok()) {
          accepted[i]++;
        } else {
          EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
        }
      }
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  for (int i = 0; i < kKeys; i++) {
    ASSERT_EQ(accepted[i].load(), 1) << Key(i);
  }
  EXPECT_EQ(Ticker(INITIAL_PUT_CONTRACT_VIOLATIONS),
            uint64_t{kKeys} * (kThreads - 1));
  ASSERT_OK(Flush());
  for (int i = 0; i < kKeys; i++) {
    ASSERT_OK(Delete(Key(i)));
  }
  ASSERT_OK(Flush());
  CompactL0ToL1();
  for (int i = 0; i < kKeys; i++) {
    ASSERT_EQ(Get(Key(i)), "NOT_FOUND") << Key(i);
  }
}

// Regression (issue 18, defect 4): a range deletion earlier in the same
// batch hides the key the initial put then writes.
TEST_F(InitialPutTest, VerificationCountsTheBatchsRangeDeletions) {
  options_ = InitialOptions();
  options_.verify_initial_puts = true;
  DestroyAndReopen(options_);
  ASSERT_OK(Put("c", "old"));
  WriteBatch batch;
  ASSERT_OK(batch.DeleteRange("c", "c\xff"));
  ASSERT_OK(batch.PutInitial("c", "new"));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  EXPECT_EQ(Get("c"), "new");
  // A put after the range deletion makes the key visible again.
  WriteBatch bad;
  ASSERT_OK(bad.DeleteRange("c", "c\xff"));
  ASSERT_OK(bad.Put("c", "1"));
  ASSERT_OK(bad.PutInitial("c", "2"));
  EXPECT_TRUE(db_->Write(WriteOptions(), &bad).IsInvalidArgument());
  EXPECT_EQ(Get("c"), "new");
  // A range deletion that does not cover the key changes nothing.
  WriteBatch other;
  ASSERT_OK(other.DeleteRange("a", "b"));
  ASSERT_OK(other.PutInitial("c", "3"));
  EXPECT_TRUE(db_->Write(WriteOptions(), &other).IsInvalidArgument());
  EXPECT_EQ(Ticker(INITIAL_PUT_CONTRACT_VIOLATIONS), 2u);
}

// Regression (issue 18, defect 5): a write to a dropped column family with
// ignore_missing_column_families is skipped, as stock skips a Put there; it
// is no contract violation.
TEST_F(InitialPutTest, VerificationSkipsDroppedColumnFamilies) {
  options_ = InitialOptions();
  options_.verify_initial_puts = true;
  DestroyAndReopen(options_);
  CreateColumnFamilies({"gone"}, options_);
  ColumnFamilyHandle* gone = handles_[0];
  ASSERT_OK(db_->DropColumnFamily(gone));
  WriteOptions ignore;
  ignore.ignore_missing_column_families = true;
  WriteBatch batch;
  ASSERT_OK(batch.PutInitial(gone, "k", "v"));
  ASSERT_OK(batch.PutInitial("d", "v"));
  ASSERT_OK(db_->Write(ignore, &batch));
  EXPECT_EQ(Get("d"), "v");
  // Without the option the write fails as a Put there fails, and is still
  // no violation.
  WriteBatch strict;
  ASSERT_OK(strict.PutInitial(gone, "k", "v"));
  Status put_status;
  {
    WriteBatch put_batch;
    ASSERT_OK(put_batch.Put(gone, "k", "v"));
    put_status = db_->Write(WriteOptions(), &put_batch);
  }
  Status s = db_->Write(WriteOptions(), &strict);
  EXPECT_EQ(s.code(), put_status.code()) << s.ToString();
  EXPECT_EQ(Ticker(INITIAL_PUT_CONTRACT_VIOLATIONS), 0u);
  ASSERT_OK(db_->DestroyColumnFamilyHandle(gone));
  handles_.clear();
}

// Where writes reach the memtable out of order, the check cannot be atomic:
// the option is refused at open.
TEST_F(InitialPutTest, VerificationRefusedWhereItCannotBeAtomic) {
  options_ = InitialOptions();
  options_.verify_initial_puts = true;
  Options unordered = options_;
  unordered.unordered_write = true;
  EXPECT_TRUE(TryReopen(unordered).IsInvalidArgument());
  Options two_queues = options_;
  two_queues.two_write_queues = true;
  EXPECT_TRUE(TryReopen(two_queues).IsInvalidArgument());
  Close();
  TransactionDBOptions txn_db_options;
  txn_db_options.write_policy = TxnDBWritePolicy::WRITE_PREPARED;
  TransactionDB* txn_db = nullptr;
  EXPECT_TRUE(TransactionDB::Open(options_, txn_db_options, dbname_, &txn_db)
                  .IsInvalidArgument());
  delete txn_db;
}

// An optimistic transaction's own validation still runs with the check.
TEST_F(InitialPutTest, VerificationWithOptimisticTransactions) {
  options_ = InitialOptions();
  options_.verify_initial_puts = true;
  DestroyAndReopen(options_);
  Close();
  OptimisticTransactionDB* otxn_db = nullptr;
  ASSERT_OK(OptimisticTransactionDB::Open(options_, dbname_, &otxn_db));
  std::unique_ptr<OptimisticTransactionDB> guard(otxn_db);
  std::unique_ptr<Transaction> a(otxn_db->BeginTransaction(WriteOptions()));
  std::unique_ptr<Transaction> b(otxn_db->BeginTransaction(WriteOptions()));
  std::string value;
  ASSERT_TRUE(a->GetForUpdate(ReadOptions(), "o", &value).IsNotFound());
  ASSERT_TRUE(b->GetForUpdate(ReadOptions(), "o", &value).IsNotFound());
  ASSERT_OK(a->PutInitial(otxn_db->DefaultColumnFamily(), "o", "a"));
  ASSERT_OK(b->PutInitial(otxn_db->DefaultColumnFamily(), "o", "b"));
  ASSERT_OK(a->Commit());
  EXPECT_TRUE(b->Commit().IsBusy());  // The transaction's own conflict.
  ASSERT_OK(otxn_db->Get(ReadOptions(), "o", &value));
  EXPECT_EQ(value, "a");
  std::unique_ptr<Transaction> c(otxn_db->BeginTransaction(WriteOptions()));
  ASSERT_OK(c->PutInitial(otxn_db->DefaultColumnFamily(), "o", "c"));
  EXPECT_TRUE(c->Commit().IsInvalidArgument());  // The contract.
  EXPECT_EQ(
      options_.statistics->getTickerCount(INITIAL_PUT_CONTRACT_VIOLATIONS), 1u);
}

// A flush that prunes the memtable's newest writes still records them in the
// MANIFEST's last sequence number: after a reopen (the WAL is obsolete) or a
// crash that loses the WAL's unsynced tail, the DB's last sequence number
// covers every write whose effect it holds, as stock's flush does when it
// keeps the newest version. Found by the crash test: a restored expected
// state one write short of the DB.
TEST_F(InitialPutTest, LastSequenceCoversAFlushsPrunedWrites) {
  for (const bool other_key : {true, false}) {
    Open();
    if (other_key) {
      ASSERT_OK(db_->Put(WriteOptions(), "a", "x"));  // Output: only "a".
    }
    ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
    ASSERT_OK(Delete("k"));  // The newest write, pruned with its chain.
    const SequenceNumber written = db_->GetLatestSequenceNumber();
    ASSERT_OK(Flush());
    EXPECT_EQ(Ticker(INITIAL_CHAINS_PRUNED), 1u);
    EXPECT_EQ(NumTableFilesAtLevel(0), other_key ? 1 : 0);
    Reopen(options_);
    EXPECT_EQ(db_->GetLatestSequenceNumber(), written) << other_key;
    EXPECT_EQ(Get("k"), "NOT_FOUND");
    // The recovery flush of a replayed WAL records them too.
    ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
    ASSERT_OK(Delete("k"));
    const SequenceNumber rewritten = db_->GetLatestSequenceNumber();
    Reopen(options_);  // Replays the WAL and flushes it to L0.
    Reopen(options_);  // Nothing left to replay.
    EXPECT_EQ(db_->GetLatestSequenceNumber(), rewritten) << other_key;
  }
}

TEST_F(InitialPutTest, WalRecoveryKeepsTheFlag) {
  Open();
  PutBelow();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  Reopen(options_);  // Replays the WAL; recovery flushes it to L0.
  ASSERT_EQ(Get("k"), "v");
  ASSERT_EQ(CountType("k", kTypeValueInitial), 1);
  ASSERT_OK(Delete("k"));
  ASSERT_OK(Flush());
  CompactL0ToL1();
  EXPECT_EQ(options_.statistics->getTickerCount(INITIAL_CHAINS_PRUNED), 1u);
  EXPECT_TRUE(Versions("k").empty());
}

TEST_F(InitialPutTest, BottommostRewritesAsPlainPut) {
  Open();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  ASSERT_OK(Flush());
  ASSERT_EQ(CountType("k", kTypeValueInitial), 1);
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(InitialPutsInTable(*props.begin()->second), 1u);
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(CountType("k", kTypeValueInitial), 0);
  EXPECT_EQ(CountType("k", kTypeValue), 1);
  props.clear();
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  for (const auto& [name, p] : props) {
    EXPECT_EQ(InitialPutsInTable(*p), 0u) << name;
  }
  EXPECT_EQ(Get("k"), "v");
}

TEST_F(InitialPutTest, LdbCompactIsTheWayBack) {
  Open();
  ASSERT_OK(db_->PutInitial(WriteOptions(), "k", "v"));
  ASSERT_OK(Flush());
  // A trivial move carries the initial put into the last level unchanged.
  ASSERT_OK(dbfull()->TEST_CompactRange(0, nullptr, nullptr));
  MoveFilesToLevel(3);
  ASSERT_EQ(CountType("k", kTypeValueInitial), 1);
  // What `ldb compact` runs: the last level is rewritten, as plain puts.
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForceOptimized;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(CountType("k", kTypeValueInitial), 0);
  EXPECT_EQ(Get("k"), "v");
}

TEST_F(InitialPutTest, TombstonesPerLevelProperty) {
  Open();
  PutBelow();
  ASSERT_OK(Delete("b"));
  ASSERT_OK(Delete("c"));
  ASSERT_OK(db_->Put(WriteOptions(), "d", "x"));
  ASSERT_OK(Flush());
  std::string value;
  ASSERT_TRUE(
      db_->GetProperty("rocksdb.lodestone.tombstones-per-level", &value));
  EXPECT_NE(value.find("L0 1 3 2 0 66.67 0"), std::string::npos) << value;
  EXPECT_NE(value.find("L3 1 2 0 0 0.00 0"), std::string::npos) << value;
  EXPECT_NE(value.find("total 2 5 2 0 40.00 0"), std::string::npos) << value;
  EXPECT_FALSE(db_->GetProperty("rocksdb.lodestone.no-such-thing", &value));
}

TEST_F(InitialPutTest, FilesWithoutInitialPutsCarryNoProperty) {
  Open();
  ASSERT_OK(db_->Put(WriteOptions(), "k", "v"));
  ASSERT_OK(Delete("j"));
  ASSERT_OK(Flush());
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props.begin()->second->user_collected_properties.count(
                kInitialPutsProperty),
            0u);
  EXPECT_EQ(props.begin()->second->property_collectors_names, "[]");
}

TEST_F(InitialPutTest, WriteBatchWithIndexAndTransactions) {
  Open();
  Close();
  TransactionDBOptions txn_db_options;
  TransactionDB* txn_db = nullptr;
  ASSERT_OK(TransactionDB::Open(options_, txn_db_options, dbname_, &txn_db));
  std::unique_ptr<TransactionDB> guard(txn_db);
  std::unique_ptr<Transaction> txn(txn_db->BeginTransaction(WriteOptions()));
  ASSERT_OK(txn->PutInitial(txn_db->DefaultColumnFamily(), "t", "1"));
  std::string value;
  ASSERT_OK(txn->Get(ReadOptions(), "t", &value));
  EXPECT_EQ(value, "1");
  ASSERT_OK(txn->Commit());
  ASSERT_OK(txn_db->Get(ReadOptions(), "t", &value));
  EXPECT_EQ(value, "1");
  txn.reset();

  WriteBatchWithIndex wbwi;
  ASSERT_OK(wbwi.PutInitial("w", "2"));
  ASSERT_OK(wbwi.GetFromBatch(options_, "w", &value));
  EXPECT_EQ(value, "2");
  ASSERT_OK(txn_db->Write(WriteOptions(), wbwi.GetWriteBatch()));
  ASSERT_OK(txn_db->Delete(WriteOptions(), "w"));
  ASSERT_OK(txn_db->Delete(WriteOptions(), "t"));
  ASSERT_OK(txn_db->Flush(FlushOptions()));
  EXPECT_EQ(options_.statistics->getTickerCount(INITIAL_CHAINS_PRUNED), 2u);
}

TEST_F(InitialPutTest, WriteBatchRoundTripsThroughHandlers) {
  WriteBatch batch;
  ASSERT_OK(batch.PutInitial("a", "1"));
  ASSERT_OK(batch.Put("b", "2"));
  // A handler that knows nothing of initial puts sees a plain put.
  struct Counter : public WriteBatch::Handler {
    int puts = 0;
    Status PutCF(uint32_t, const Slice&, const Slice&) override {
      ++puts;
      return Status::OK();
    }
  } counter;
  ASSERT_OK(batch.Iterate(&counter));
  EXPECT_EQ(counter.puts, 2);
  // The encoding survives a copy through its raw bytes.
  WriteBatch copy(batch.Data());
  struct InitialCounter : public WriteBatch::Handler {
    int initial = 0;
    Status PutCF(uint32_t, const Slice&, const Slice&) override {
      return Status::OK();
    }
    Status PutInitialCF(uint32_t, const Slice& key, const Slice&) override {
      initial += key == "a" ? 1 : 100;
      return Status::OK();
    }
  } initial_counter;
  ASSERT_OK(copy.Iterate(&initial_counter));
  EXPECT_EQ(initial_counter.initial, 1);
  EXPECT_TRUE(batch.HasPut());
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
