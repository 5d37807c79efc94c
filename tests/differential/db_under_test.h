// One DB of the differential harness (harness.h): opened under an option
// set over the harness's base options (small memtables and files, so that
// flushes and multi-level compactions happen within a few thousand ops),
// it applies the op stream's writes and answers its reads in the text form
// the model's answers take. Used by one thread, the harness's, except for
// the option set's concurrent writer, which it runs itself.

#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <shared_mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rocksdb/db.h"
#include "tests/differential/harness.h"
#include "tests/differential/ops.h"

namespace lodestone_test {

class DbUnderTest {
 public:
  // The DB has `num_column_families` column families ("default", "cf1",
  // ...), every one under the set's options; with `secondary_deletes`, each
  // with the delete key extractor of the op stream's secondary deletes.
  DbUnderTest(const OptionSet& set, std::string path,
              int num_column_families = 1, bool secondary_deletes = false);
  // Stops the writer and closes the DB.
  ~DbUnderTest();

  const std::string& name() const { return set_.name; }

  // Opens the DB at its path, destroying what was there first if `destroy`.
  ROCKSDB_NAMESPACE::Status Open(bool destroy);
  // Releases the op stream's snapshots and the column families' handles,
  // and closes the DB.
  void Close();
  // kCrashReopen: reopens from a copy of the files taken while the DB was
  // open (background work paused), as a crash leaves them.
  // REQUIRES: db_mu_ held exclusively.
  ROCKSDB_NAMESPACE::Status CrashReopen();
  void Destroy();

  // The concurrent writer (OptionSet::concurrent_writer): keys between the
  // op stream's ("k000123~w7") until StopWriter, at most one per
  // kOpsPerWriterKey ops the stream has applied (OpApplied), so that a slow
  // build (a sanitizer's) runs the same mix of writer keys and stream keys
  // as a fast one. Does nothing for other option sets.
  void StartWriter(int num_keys, uint64_t seed);
  static constexpr uint64_t kOpsPerWriterKey = 4;
  // The harness calls it once per op of the stream, read or write.
  void OpApplied() { ops_applied_.fetch_add(1, std::memory_order_relaxed); }
  // Stops the writer; returns a description of the first acknowledged write
  // that is gone, or "" if none is.
  std::string StopWriter();

  // Applies a write, snapshot, flush, compaction, ingestion or reopen.
  // Returns a non-OK status only for failures a correct DB must not have.
  ROCKSDB_NAMESPACE::Status Apply(const Op& op);

  // Answers a read (Get, MultiGet, Scan), at the op's snapshot if it names
  // one: "=value" or "<none>" per key, "key=value " per scanned entry,
  // "<error ...>" for a failed read.
  std::string Read(const Op& op);

  // The features' tickers: proof that a feature under test did something.
  uint64_t ChainsPruned() const;
  uint64_t RunsConverted() const;
  uint64_t LocationCacheHits() const;
  uint64_t CraftEmptyAnswers() const;
  uint64_t TombstoneCompactions() const;
  // Straddling next-level files a compaction ranking counted by their keys.
  uint64_t OverlapsCountedByKeys() const;
  // Covered puts reads stepped over and compactions dropped, and covered
  // blocks skipped or dropped whole.
  uint64_t SecondaryDeleteEntriesSkipped() const;

 private:
  // A ticker of the DB's statistics (0 without statistics).
  uint64_t Ticker(uint32_t ticker) const;

  // Writes the op's entries to an SST file with this DB's options and
  // ingests it (a copy; the file is removed afterwards).
  ROCKSDB_NAMESPACE::Status Ingest(const Op& op);
  std::string Scan(ROCKSDB_NAMESPACE::ReadOptions ro, const Op& op);
  ROCKSDB_NAMESPACE::Status CompactOneFile(int cf, uint32_t pick);
  // The handle of column family `cf` (0 = default) while the DB is open.
  ROCKSDB_NAMESPACE::ColumnFamilyHandle* Cf(int cf) const {
    return handles_[cf];
  }

  const OptionSet set_;
  const std::string path_;
  const int num_column_families_;
  ROCKSDB_NAMESPACE::Options options_;
  std::unique_ptr<ROCKSDB_NAMESPACE::DB> db_;
  std::vector<ROCKSDB_NAMESPACE::ColumnFamilyHandle*> handles_;
  std::array<const ROCKSDB_NAMESPACE::Snapshot*, kSnapshotSlots> snapshots_{};
  int deletes_seen_ = 0;
  struct WrittenKey {
    std::string key;
    size_t range_deletes_before;  // DeleteRange ops done when it started
  };
  std::thread writer_;
  std::atomic<bool> stop_writer_{false};
  std::atomic<uint64_t> ops_applied_{0};
  std::shared_mutex db_mu_;          // the writer vs. reopen
  std::vector<WrittenKey> written_;  // the writer thread's only
  std::vector<std::pair<std::string, std::string>> range_deletes_;
  std::atomic<size_t> range_deletes_done_{0};
};

}  // namespace lodestone_test
