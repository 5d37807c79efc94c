// db_bench --benchmarks=kiwi: Lethe's secondary range delete experiment
// (SIGMOD 2020, section 5; docs/kiwi.md). Loads --kiwi_keys keys in random
// order, each value starting with an 8-byte big-endian delete key drawn
// uniformly and independently of the key (a timestamp uncorrelated with the
// sort key), lets compactions settle, then:
//
//   1. times point lookups and short scans (seek + 10 nexts);
//   2. deletes the --kiwi_delete_fraction of the entries whose delete key is
//      smallest, by --kiwi_method:
//        secondary_delete   Lodestone's DeleteByDeleteKeyRange (needs the
//                           delete_key_extractor {id=value_prefix;length=8});
//        compaction_filter  what stock RocksDB can do: a full CompactRange
//                           (bottommost forced) with a compaction filter
//                           dropping the entries below the threshold;
//      timing it and counting the bytes flushes and compactions read and
//      wrote meanwhile;
//   3. checks a sample of keys (deleted iff below the threshold) and times
//      lookups and scans again;
//   4. with --kiwi_reclaim, gets the space back and times lookups once
//      more; --kiwi_reclaim_by says how:
//        compaction  a full compaction (for secondary_delete: where covered
//                    blocks are dropped unread), timed and counted as the
//                    delete is;
//        deadline    secondary_delete under FADE (--delete_persistence_
//                    threshold): waits for the deadline's compactions to
//                    retire the tombstone, timed from the delete's return
//                    (the deadline's clock) and counted from then on; fails
//                    if it takes twice the threshold.
//
// One row of --kiwi_report_file holds every measure. Single-threaded
// (thread 0); other threads return at once.

#ifdef GFLAGS
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rocksdb/compaction_filter.h"
#include "rocksdb/statistics.h"
#include "rocksdb/write_batch.h"
#ifndef LODESTONE_STOCK_BASELINE
#include "rocksdb/secondary_delete.h"
#endif
#include "tools/workloads/workload.h"
#include "util/gflags_compat.h"

DEFINE_uint64(kiwi_keys, 1000000, "kiwi: keys loaded");
DEFINE_uint64(kiwi_value_size, 256, "kiwi: value size (at least 8)");
DEFINE_double(kiwi_delete_fraction, 0.1,
              "kiwi: share of the entries the secondary range delete covers");
DEFINE_string(kiwi_method, "secondary_delete",
              "kiwi: secondary_delete, compaction_filter or none");
DEFINE_uint64(kiwi_read_seconds, 10,
              "kiwi: seconds of point lookups and of scans per measure");
DEFINE_bool(kiwi_reclaim, false,
            "kiwi: after the delete, a full compaction that reclaims space");
DEFINE_string(kiwi_reclaim_by, "compaction",
              "kiwi: how --kiwi_reclaim gets the space back: compaction (a "
              "full CompactRange) or deadline (FADE's deadline compactions "
              "retire the secondary range tombstone)");
DEFINE_string(kiwi_report_file, "", "kiwi: CSV of the measures");
DECLARE_uint64(delete_persistence_threshold);

namespace ROCKSDB_NAMESPACE {
namespace {

constexpr uint64_t kDeleteKeySpace = 1000000000;

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string KiwiKey(uint64_t id) {
  std::string key;
  AppendBigEndian64(&key, 0x4b495749ULL);  // "KIWI"
  AppendBigEndian64(&key, id);
  return key;
}

// The entry's delete key, a function of its key alone, so that the check
// knows which keys the delete covered.
uint64_t DeleteKeyOf(uint64_t id) { return Mix(id) % kDeleteKeySpace; }

uint64_t Threshold() {
  return static_cast<uint64_t>(FLAGS_kiwi_delete_fraction *
                               static_cast<double>(kDeleteKeySpace));
}

// Drops the entries whose value's delete key is below the threshold while
// `armed` (stock's way of a secondary range delete).
class BelowThresholdFilter : public CompactionFilter {
 public:
  bool Filter(int /*level*/, const Slice& /*key*/, const Slice& value,
              std::string* /*new_value*/, bool* /*changed*/) const override {
    return armed.load(std::memory_order_relaxed) && value.size() >= 8 &&
           DecodeBigEndian64(value, 0) < Threshold();
  }
  const char* Name() const override { return "KiwiBelowThresholdFilter"; }

  std::atomic<bool> armed{false};
};

BelowThresholdFilter* Filter() {
  static BelowThresholdFilter filter;
  return &filter;
}

struct Bytes {
  uint64_t read = 0;
  uint64_t written = 0;
};

Bytes IoBytes(Statistics* stats) {
  Bytes b;
  if (stats != nullptr) {
    b.read = stats->getTickerCount(COMPACT_READ_BYTES);
    b.written = stats->getTickerCount(COMPACT_WRITE_BYTES) +
                stats->getTickerCount(FLUSH_WRITE_BYTES);
  }
  return b;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

double SstMiB(DB* db) {
  uint64_t bytes = 0;
  db->GetIntProperty(DB::Properties::kTotalSstFilesSize, &bytes);
  return static_cast<double>(bytes) / (1 << 20);
}

class Kiwi {
 public:
  explicit Kiwi(WorkloadThread* t)
      : t_(t),
        db_(t->db),
        rng_(t->seed),
        stats_(db_->GetOptions().statistics) {}

  void Run() {
    Load();
    const double gets_before = Gets();
    const double scans_before = Scans();
    const double space_before = SstMiB(db_);
    const Bytes io0 = IoBytes(stats_.get());
    auto start = std::chrono::steady_clock::now();
    Status s = Delete();
    const double delete_seconds = Seconds(start);
    const auto deleted = std::chrono::steady_clock::now();
    const Bytes io1 = IoBytes(stats_.get());
    if (!s.ok()) {
      fprintf(stderr, "kiwi: delete failed: %s\n", s.ToString().c_str());
      exit(1);
    }
    const uint64_t errors = Check();
    const double gets_after = Gets();
    const double scans_after = Scans();
    const double space_after = SstMiB(db_);
    double reclaim_seconds = 0, gets_reclaimed = 0, space_reclaimed = 0;
    Bytes io2 = io1;
    if (FLAGS_kiwi_reclaim) {
      if (FLAGS_kiwi_reclaim_by == "deadline") {
        // Bytes are counted from the delete's return, as in either mode: the
        // deadline's compactions may begin while the lookups after it run.
        s = WaitForDeadline(deleted, &reclaim_seconds);
        io2 = IoBytes(stats_.get());
      } else if (FLAGS_kiwi_reclaim_by == "compaction") {
        start = std::chrono::steady_clock::now();
        CompactRangeOptions cro;
        cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
        s = db_->CompactRange(cro, nullptr, nullptr);
        reclaim_seconds = Seconds(start);
        io2 = IoBytes(stats_.get());
      } else {
        s = Status::InvalidArgument("--kiwi_reclaim_by: " +
                                    FLAGS_kiwi_reclaim_by);
      }
      if (!s.ok()) {
        fprintf(stderr, "kiwi: reclaim failed: %s\n", s.ToString().c_str());
        exit(1);
      }
      gets_reclaimed = Gets();
      space_reclaimed = SstMiB(db_);
    }
    const double mib = 1 << 20;
    char msg[512];
    snprintf(msg, sizeof(msg),
             "delete %.3f s (%.1f MiB read, %.1f MiB written), gets %.0f -> "
             "%.0f /s, scans %.0f -> %.0f /s, errors %" PRIu64,
             delete_seconds, (io1.read - io0.read) / mib,
             (io1.written - io0.written) / mib, gets_before, gets_after,
             scans_before, scans_after, errors);
    t_->add_message(msg);
    if (!FLAGS_kiwi_report_file.empty()) {
      FILE* f = fopen(FLAGS_kiwi_report_file.c_str(), "w");
      if (f != nullptr) {
        fprintf(f,
                "delete_seconds,delete_read_mib,delete_write_mib,"
                "reclaim_seconds,reclaim_read_mib,reclaim_write_mib,"
                "gets_before,gets_after,gets_reclaimed,scans_before,"
                "scans_after,space_mib_before,space_mib_after,"
                "space_mib_reclaimed,errors\n");
        fprintf(f,
                "%.4f,%.2f,%.2f,%.3f,%.2f,%.2f,%.0f,%.0f,%.0f,%.0f,%.0f,%.2f,"
                "%.2f,%.2f,%" PRIu64 "\n",
                delete_seconds, (io1.read - io0.read) / mib,
                (io1.written - io0.written) / mib, reclaim_seconds,
                (io2.read - io1.read) / mib, (io2.written - io1.written) / mib,
                gets_before, gets_after, gets_reclaimed, scans_before,
                scans_after, space_before, space_after, space_reclaimed,
                errors);
        fclose(f);
      }
    }
    if (errors > 0) {
      fprintf(stderr, "kiwi: %" PRIu64 " keys read wrong after the delete\n",
              errors);
      exit(1);
    }
  }

 private:
  std::string ValueOf(uint64_t id) {
    std::string value;
    AppendBigEndian64(&value, DeleteKeyOf(id));
    value.resize(std::max<uint64_t>(FLAGS_kiwi_value_size, 8),
                 static_cast<char>('a' + id % 26));
    return value;
  }

  void Load() {
    const uint64_t n = FLAGS_kiwi_keys;
    std::vector<uint64_t> ids(n);
    for (uint64_t i = 0; i < n; ++i) {
      ids[i] = i;
    }
    std::shuffle(ids.begin(), ids.end(), rng_);
    WriteBatch batch;
    for (uint64_t i = 0; i < n; ++i) {
      batch.Put(KiwiKey(ids[i]), ValueOf(ids[i]));
      if (batch.Count() == 100 || i + 1 == n) {
        Status s = db_->Write(WriteOptions(), &batch);
        if (!s.ok()) {
          fprintf(stderr, "kiwi: load: %s\n", s.ToString().c_str());
          exit(1);
        }
        t_->finished_ops(batch.Count(), WorkloadOp::kWrite);
        batch.Clear();
      }
    }
    db_->Flush(FlushOptions()).PermitUncheckedError();
    db_->WaitForCompact(WaitForCompactOptions()).PermitUncheckedError();
  }

  double Gets() {
    const auto start = std::chrono::steady_clock::now();
    uint64_t n = 0;
    std::string value;
    while (Seconds(start) < static_cast<double>(FLAGS_kiwi_read_seconds)) {
      for (int i = 0; i < 100; ++i, ++n) {
        const uint64_t id = rng_() % FLAGS_kiwi_keys;
        db_->Get(ReadOptions(), KiwiKey(id), &value).PermitUncheckedError();
      }
      t_->finished_ops(100, WorkloadOp::kRead);
    }
    return n / Seconds(start);
  }

  double Scans() {
    const auto start = std::chrono::steady_clock::now();
    uint64_t n = 0;
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    while (Seconds(start) < static_cast<double>(FLAGS_kiwi_read_seconds)) {
      for (int i = 0; i < 20; ++i, ++n) {
        it->Seek(KiwiKey(rng_() % FLAGS_kiwi_keys));
        for (int j = 0; j < 10 && it->Valid(); ++j) {
          it->Next();
        }
      }
      t_->finished_ops(20, WorkloadOp::kSeek);
    }
    return n / Seconds(start);
  }

  Status Delete() {
    std::string threshold;
    AppendBigEndian64(&threshold, Threshold());
    if (FLAGS_kiwi_method == "none") {
      return Status::OK();
    }
    if (FLAGS_kiwi_method == "compaction_filter") {
      Filter()->armed.store(true);
      CompactRangeOptions cro;
      cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
      Status s = db_->CompactRange(cro, nullptr, nullptr);
      Filter()->armed.store(false);
      return s;
    }
    if (FLAGS_kiwi_method == "secondary_delete") {
#ifdef LODESTONE_STOCK_BASELINE
      return Status::NotSupported("secondary_delete needs Lodestone");
#else
      return DeleteByDeleteKeyRange(db_, db_->DefaultColumnFamily(), "",
                                    threshold);
#endif
    }
    return Status::InvalidArgument("--kiwi_method: " + FLAGS_kiwi_method);
  }

  // Waits until the secondary range tombstone retired (no file holds what
  // it covers), for at most twice the deadline; `*seconds` since `since`.
  Status WaitForDeadline(std::chrono::steady_clock::time_point since,
                         double* seconds) {
#ifdef LODESTONE_STOCK_BASELINE
    (void)since;
    (void)seconds;
    return Status::NotSupported("--kiwi_reclaim_by=deadline needs Lodestone");
#else
    if (FLAGS_kiwi_method != "secondary_delete" ||
        FLAGS_delete_persistence_threshold == 0 || stats_ == nullptr) {
      return Status::InvalidArgument(
          "--kiwi_reclaim_by=deadline needs --kiwi_method=secondary_delete, "
          "--delete_persistence_threshold and --statistics");
    }
    const double limit =
        2.0 * static_cast<double>(FLAGS_delete_persistence_threshold);
    while (stats_->getTickerCount(SECONDARY_DELETE_TOMBSTONES_RETIRED) == 0) {
      if (Seconds(since) > limit) {
        return Status::TimedOut(
            "the tombstone did not retire within twice "
            "--delete_persistence_threshold");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    *seconds = Seconds(since);
    return Status::OK();
#endif
  }

  // Keys read as deleted exactly when their delete key is below the
  // threshold (every key stays when nothing was deleted).
  uint64_t Check() {
    uint64_t errors = 0;
    std::string value;
    const bool deleted = FLAGS_kiwi_method != "none";
    for (int i = 0; i < 20000; ++i) {
      const uint64_t id = rng_() % FLAGS_kiwi_keys;
      const bool gone = deleted && DeleteKeyOf(id) < Threshold();
      Status s = db_->Get(ReadOptions(), KiwiKey(id), &value);
      if (gone ? !s.IsNotFound() : !(s.ok() && value == ValueOf(id))) {
        ++errors;
      }
    }
    return errors;
  }

  WorkloadThread* t_;
  DB* db_;
  std::mt19937_64 rng_;
  std::shared_ptr<Statistics> stats_;
};

void RunKiwi(WorkloadThread* thread) {
  if (thread->tid != 0) {
    return;
  }
  Kiwi(thread).Run();
}

const bool kRegistered = RegisterWorkload("kiwi", RunKiwi);

}  // namespace

void ConfigureKiwiOptions(Options* options) {
  if (FLAGS_kiwi_method == "compaction_filter") {
    options->compaction_filter = Filter();
  }
}

}  // namespace ROCKSDB_NAMESPACE
#endif  // GFLAGS
