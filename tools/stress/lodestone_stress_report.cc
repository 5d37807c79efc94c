// Per-feature activity lines on stdout (docs/stress.md):
//
//   lodestone: <feature> key=value ... at=<seconds since start> when=<why>
//
// Values are counts since this process started (tickers of the statistics
// object every DB of the process shares, and db_stress's own counters). The
// crash test kills db_stress, so besides the line at exit the reporter
// prints every --lodestone_report_interval_sec seconds and flushes stdout;
// the crash test wrapper keeps each process's last line per feature.

#ifdef GFLAGS

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "db/tombstone_runs/tombstone_run_conversion.h"
#include "tools/stress/lodestone_stress.h"
#include "tools/stress/lodestone_stress_internal.h"

namespace ROCKSDB_NAMESPACE {
namespace lodestone_stress {

namespace {
// Constant-initialized, so it outlives every user, the reporter included.
OpCounters op_counters;
}  // namespace

OpCounters& Counters() { return op_counters; }

namespace {

class Reporter {
 public:
  ~Reporter() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!started_) {
        return;
      }
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) {
      thread_.join();
    }
    Print("exit");
  }

  void Start(std::shared_ptr<Statistics> stats) {
    std::lock_guard<std::mutex> lock(mu_);
    if (started_) {
      return;
    }
    started_ = true;
    {
      std::lock_guard<std::mutex> print_lock(print_mu_);
      stats_ = std::move(stats);
      start_ = std::chrono::steady_clock::now();
    }
    if (FLAGS_lodestone_report_interval_sec > 0) {
      thread_ = std::thread([this] { Run(); });
    }
  }

  void Print(const char* when) {
    std::lock_guard<std::mutex> lock(print_mu_);
    if (!stats_) {
      return;
    }
    const double at =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    auto t = [this](Tickers ticker) {
      return static_cast<unsigned long long>(stats_->getTickerCount(ticker));
    };
    auto c = [](const std::atomic<uint64_t>& counter) {
      return static_cast<unsigned long long>(
          counter.load(std::memory_order_relaxed));
    };
    const OpCounters& n = Counters();
    fprintf(stdout,
            "lodestone: location_cache hits=%llu misses=%llu false_hits=%llu "
            "stale=%llu populates=%llu invalidations=%llu at=%.0f when=%s\n",
            t(LOCATION_CACHE_HIT), t(LOCATION_CACHE_MISS),
            t(LOCATION_CACHE_FALSE_HIT), t(LOCATION_CACHE_STALE),
            t(LOCATION_CACHE_POPULATE), t(LOCATION_CACHE_INVALIDATE), at, when);
    fprintf(stdout,
            "lodestone: craft checked=%llu skipped=%llu false_positives=%llu "
            "short_bounds=%llu at=%.0f when=%s\n",
            t(CRAFT_FILTER_CHECKED), t(CRAFT_FILTER_EMPTY),
            t(CRAFT_FILTER_FALSE_POSITIVE), c(n.short_bounds), at, when);
    // Why runs were discarded: every DB of the process, whatever its
    // statistics (docs/tombstone_runs.md).
    const TombstoneRunCounts conv = GetTombstoneRunCountsInProcess();
    auto why = [&conv](TombstoneRunOutcome o) {
      return static_cast<unsigned long long>(
          conv.by_outcome[static_cast<int>(o)]);
    };
    fprintf(stdout,
            "lodestone: conversion inserted=%llu discarded=%llu "
            "superversion_changed=%llu older_than_memtable=%llu "
            "not_added=%llu stopped=%llu pushed_out=%llu "
            "write_thread_busy=%llu cheaper_to_step=%llu left_to_pruning=%llu "
            "at=%.0f when=%s\n",
            t(READ_PATH_RANGE_TOMBSTONES_INSERTED),
            t(READ_PATH_RANGE_TOMBSTONES_DISCARDED),
            why(TombstoneRunOutcome::kSuperVersionChanged),
            why(TombstoneRunOutcome::kOlderThanMemtable),
            why(TombstoneRunOutcome::kNotAdded),
            why(TombstoneRunOutcome::kStopped),
            why(TombstoneRunOutcome::kPushedOut),
            why(TombstoneRunOutcome::kWriteThreadBusy),
            why(TombstoneRunOutcome::kCheaperToStep),
            why(TombstoneRunOutcome::kLeftToPruning), at, when);
    fprintf(stdout,
            "lodestone: initial_put puts=%llu failed=%llu txn_puts=%llu "
            "chains_pruned=%llu pruned_early=%llu reached_bottommost=%llu "
            "at=%.0f when=%s\n",
            c(n.initial_puts), c(n.initial_put_errors), c(n.txn_initial_puts),
            t(INITIAL_CHAINS_PRUNED), t(TOMBSTONES_PRUNED_EARLY),
            t(TOMBSTONES_REACHED_BOTTOMMOST), at, when);
    fprintf(stdout,
            "lodestone: initial_put_contract violations=%llu probes=%llu "
            "refused=%llu inconclusive=%llu at=%.0f when=%s\n",
            t(INITIAL_PUT_CONTRACT_VIOLATIONS), c(n.probes),
            c(n.probes_refused), c(n.probes_inconclusive), at, when);
    fprintf(stdout,
            "lodestone: tombstone_picks density=%llu deadline=%llu at=%.0f "
            "when=%s\n",
            t(COMPACTION_TOMBSTONE_DENSITY_PICKS),
            t(COMPACTION_TOMBSTONE_DEADLINE_PICKS), at, when);
    fprintf(stdout,
            "lodestone: secondary_deletes calls=%llu keys=%llu retries=%llu "
            "refused=%llu tombstones_added=%llu retired=%llu hidden=%llu "
            "dropped=%llu blocks_skipped=%llu blocks_dropped=%llu "
            "blocks_partial=%llu at=%.0f "
            "when=%s\n",
            c(n.secondary_deletes), c(n.secondary_delete_keys),
            c(n.secondary_delete_retries), c(n.secondary_delete_refused),
            t(SECONDARY_DELETE_TOMBSTONES_ADDED),
            t(SECONDARY_DELETE_TOMBSTONES_RETIRED),
            t(SECONDARY_DELETE_ENTRIES_HIDDEN),
            t(SECONDARY_DELETE_ENTRIES_DROPPED),
            t(SECONDARY_DELETE_BLOCKS_SKIPPED),
            t(SECONDARY_DELETE_BLOCKS_DROPPED_FULL),
            t(SECONDARY_DELETE_BLOCKS_DROPPED_PARTIAL), at, when);
    fprintf(stdout,
            "lodestone: overlap_by_keys from_filter=%llu whole_file=%llu "
            "at=%.0f when=%s\n",
            t(COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER),
            t(COMPACTION_OVERLAP_BY_KEYS_WHOLE_FILE), at, when);
    // How much work the DB did, to tell an idle feature from a stalled DB
    // (e.g. writes failing under injected faults). found_in_tables: Gets a
    // table answered (what the location cache can remember).
    fprintf(stdout,
            "lodestone: progress keys_written=%llu keys_read=%llu "
            "seeks=%llu flush_bytes=%llu compact_bytes=%llu "
            "found_in_tables=%llu at=%.0f when=%s\n",
            t(NUMBER_KEYS_WRITTEN), t(NUMBER_KEYS_READ), t(NUMBER_DB_SEEK),
            t(FLUSH_WRITE_BYTES), t(COMPACT_WRITE_BYTES),
            t(GET_HIT_L0) + t(GET_HIT_L1) + t(GET_HIT_L2_AND_UP), at, when);
    fflush(stdout);
  }

 private:
  void Run() {
    const auto interval =
        std::chrono::seconds(FLAGS_lodestone_report_interval_sec);
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, interval, [this] { return stop_; })) {
      lock.unlock();
      Print("periodic");
      lock.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  bool started_ = false;
  bool stop_ = false;
  std::thread thread_;
  std::mutex print_mu_;
  std::shared_ptr<Statistics> stats_;
  std::chrono::steady_clock::time_point start_;
};

// Constructed on first use, after the globals it reads (the statistics
// object is held here), so it is destroyed, and prints its last lines,
// before them.
Reporter& GetReporter() {
  static Reporter reporter;
  return reporter;
}

}  // namespace

void StartReporter(std::shared_ptr<Statistics> stats) {
  GetReporter().Start(std::move(stats));
}

void ReportActivity(const char* when) { GetReporter().Print(when); }

}  // namespace lodestone_stress
}  // namespace ROCKSDB_NAMESPACE

#endif  // GFLAGS
