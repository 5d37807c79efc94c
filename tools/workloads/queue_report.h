// The queue workload's CSV report (--queue_report_file, queue.cc): what one
// run's threads share, and the rows thread 0 writes from it every
// --queue_report_interval seconds: dequeue latency p50/p99, tombstones
// skipped per dequeue (perf context), live tombstones per level, space and
// write amplification.

#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

#include "monitoring/histogram.h"
#include "rocksdb/db.h"
#include "rocksdb/system_clock.h"

namespace ROCKSDB_NAMESPACE {

// Shared by the threads of one run: dequeue latencies and counts for the
// current interval (under `mu`), and totals.
struct QueueRunState {
  std::mutex mu;
  HistogramImpl interval_latency;
  uint64_t interval_dequeues = 0;
  uint64_t interval_skipped = 0;
  std::atomic<uint64_t> user_bytes{0};
  std::atomic<uint64_t> live_items{0};
  std::atomic<uint64_t> deletes{0};
  std::atomic<int> phase{0};  // An index into QueueReport::kPhaseNames.
  std::atomic<int> threads_done{0};

  // One dequeue of the current interval.
  void AddDequeue(uint64_t micros, uint64_t tombstones_skipped);
};

// Used by one thread (thread 0); rows are written as the run goes, so a
// run cut short still leaves its intervals.
class QueueReport {
 public:
  static const char* const kPhaseNames[];

  struct Config {
    std::string path;  // Empty: rows are computed, nothing is written.
    uint64_t interval_seconds = 5;
    // Rows that stay for the whole run (the long-lived rows of every
    // queue), and the bytes of one row: live data for space amplification.
    uint64_t permanent_rows = 0;
    uint64_t row_bytes = 0;
  };

  QueueReport(DB* db, QueueRunState* state, Config config)
      : db_(db), state_(state), config_(std::move(config)) {}
  ~QueueReport();

  QueueReport(const QueueReport&) = delete;
  QueueReport& operator=(const QueueReport&) = delete;

  // The first call opens the file and writes the header; later calls write
  // a row once an interval has passed since the last one.
  void MaybeWrite(SystemClock* clock);

 private:
  void WriteHeader();
  void WriteRow(double secs_elapsed);

  DB* const db_;
  QueueRunState* const state_;
  const Config config_;
  uint64_t start_ = 0;
  uint64_t next_ = 0;
  FILE* file_ = nullptr;
};

}  // namespace ROCKSDB_NAMESPACE
