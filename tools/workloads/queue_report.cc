#include "tools/workloads/queue_report.h"

#include <algorithm>
#include <cinttypes>
#include <vector>

#include "rocksdb/metadata.h"
#include "tools/workloads/workload.h"

namespace ROCKSDB_NAMESPACE {

const char* const QueueReport::kPhaseNames[] = {"fill", "steady", "drain",
                                                "idle", "done"};

void QueueRunState::AddDequeue(uint64_t micros, uint64_t tombstones_skipped) {
  std::lock_guard<std::mutex> lock(mu);
  interval_latency.Add(micros);
  ++interval_dequeues;
  interval_skipped += tombstones_skipped;
}

QueueReport::~QueueReport() {
  if (file_ != nullptr) {
    fclose(file_);
  }
}

void QueueReport::MaybeWrite(SystemClock* clock) {
  const uint64_t now = clock->NowMicros();
  if (start_ == 0) {
    start_ = now;
    next_ = now + config_.interval_seconds * 1000000;
    if (!config_.path.empty()) {
      file_ = fopen(config_.path.c_str(), "w");
    }
    if (file_ != nullptr) {
      WriteHeader();
    }
    return;
  }
  if (now < next_) {
    return;
  }
  next_ += config_.interval_seconds * 1000000;
  WriteRow(static_cast<double>(now - start_) / 1e6);
}

void QueueReport::WriteHeader() {
  fprintf(file_,
          "secs_elapsed,phase,dequeues,dequeue_p50_us,dequeue_p99_us,"
          "tombstones_skipped_per_dequeue");
  for (int level = 0; level < 7; ++level) {
    fprintf(file_, ",live_tombstones_L%d", level);
  }
  fprintf(file_, ",live_tombstones,deletes,space_amp,write_amp\n");
  fflush(file_);
}

void QueueReport::WriteRow(double secs_elapsed) {
  double p50, p99, skipped_per;
  uint64_t dequeues;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    dequeues = state_->interval_dequeues;
    p50 = dequeues ? state_->interval_latency.Percentile(50) : 0;
    p99 = dequeues ? state_->interval_latency.Percentile(99) : 0;
    skipped_per = dequeues ? static_cast<double>(state_->interval_skipped) /
                                 static_cast<double>(dequeues)
                           : 0;
    state_->interval_latency.Clear();
    state_->interval_dequeues = 0;
    state_->interval_skipped = 0;
  }
  ColumnFamilyMetaData meta;
  db_->GetColumnFamilyMetaData(&meta);
  std::vector<uint64_t> tombstones(7, 0);
  uint64_t total_tombstones = 0;
  for (const auto& level : meta.levels) {
    for (const auto& file : level.files) {
      tombstones[std::min(level.level, 6)] += file.num_deletions;
      total_tombstones += file.num_deletions;
    }
  }
  const double live_bytes =
      static_cast<double>(state_->live_items + config_.permanent_rows) *
      static_cast<double>(config_.row_bytes);
  const double space_amp =
      live_bytes > 0 ? static_cast<double>(meta.size) / live_bytes : 0;
  const double write_amp = WorkloadWriteAmp(db_, state_->user_bytes.load());
  if (file_ == nullptr) {
    return;
  }
  fprintf(file_, "%.1f,%s,%" PRIu64 ",%.1f,%.1f,%.2f", secs_elapsed,
          kPhaseNames[state_->phase.load()], dequeues, p50, p99, skipped_per);
  for (uint64_t n : tombstones) {
    fprintf(file_, ",%" PRIu64, n);
  }
  fprintf(file_, ",%" PRIu64 ",%" PRIu64 ",%.3f,%.3f\n", total_tombstones,
          state_->deletes.load(), space_amp, write_amp);
  fflush(file_);
}

}  // namespace ROCKSDB_NAMESPACE
