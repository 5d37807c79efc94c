// db_bench --benchmarks=queue: a queue table, the workload where tombstones
// hurt most (issue: early tombstone pruning).
//
// Keys are [8-byte queue id][8-byte sequence], big-endian, sequences never
// reused. Producers append to a queue's tail; consumers seek to its head,
// read the K oldest items and delete them, so every dequeue seeks past the
// tombstones the previous dequeues left. Long-lived rows at the far end of
// every queue (sequence >= 2^63), loaded first, keep the lower levels
// overlapping every queue's range: without them stock RocksDB drops the
// tombstones at the base level already and there is nothing to see.
//
// Phases: fill (long-lived rows, pushed to the last level; then a prefill
// of every queue), steady (enqueue and dequeue K at a time), drain (dequeue
// only), idle (no writes; read-only probes of the queue heads). Every
// --queue_report_interval seconds thread 0 appends a CSV row to
// --queue_report_file (queue_report.h).
//
// --queue_snapshot_interval N: in the steady and drain phases thread 0
// holds one snapshot at a time and replaces it every N seconds, as long
// queries or backups do; what is deleted under it must then survive until
// it is released.

#ifdef GFLAGS
#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rocksdb/iterator.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/statistics.h"
#include "rocksdb/system_clock.h"
#include "tools/workloads/queue_report.h"
#include "tools/workloads/workload.h"
#include "util/coding.h"
#include "util/gflags_compat.h"

DEFINE_uint64(queue_count, 16, "queue: number of queues");
DEFINE_uint64(queue_long_lived_rows, 2000,
              "queue: rows per queue at its far end, loaded first");
DEFINE_uint64(queue_prefill, 2000, "queue: items per queue before steady");
DEFINE_uint64(queue_batch, 10, "queue: items per enqueue and per dequeue (K)");
DEFINE_string(queue_delete_mode, "delete",
              "queue: how items are written and removed: delete (Put, "
              "Delete), single_delete (Put, SingleDelete) or initial_put "
              "(PutInitial, Delete)");
DEFINE_bool(queue_overwrite, false,
            "queue: update every item once before it is dequeued (legal for "
            "initial puts, illegal for SingleDelete)");
DEFINE_uint64(queue_value_size, 100, "queue: value size in bytes");
DEFINE_uint64(queue_steady_seconds, 60, "queue: steady phase length");
DEFINE_uint64(queue_drain_seconds, 5, "queue: dequeue-only phase length");
DEFINE_uint64(queue_idle_seconds, 10, "queue: idle phase length");
DEFINE_uint64(queue_enqueue_rate, 0,
              "queue: items enqueued per second per thread in steady state "
              "(0 = unthrottled)");
DEFINE_string(queue_report_file, "",
              "queue: CSV of interval metrics (empty = none)");
DEFINE_uint64(queue_report_interval, 5, "queue: seconds between CSV rows");
DEFINE_uint64(queue_snapshot_interval, 0,
              "queue: seconds each snapshot is held, one at a time, in the "
              "steady and drain phases (0: none)");

namespace ROCKSDB_NAMESPACE {
namespace {

constexpr uint64_t kLongLivedBase = uint64_t{1} << 63;

std::string QueueKey(uint64_t queue, uint64_t seq) {
  std::string key;
  AppendBigEndian64(&key, queue);
  AppendBigEndian64(&key, seq);
  return key;
}

enum class DeleteMode { kDelete, kSingleDelete, kInitialPut };

class QueueWorkload {
 public:
  QueueWorkload(WorkloadThread* thread, QueueRunState* state)
      : t_(thread), state_(state), report_(thread->db, state, ReportConfig()) {
    for (uint64_t q = t_->tid; q < FLAGS_queue_count;
         q += static_cast<uint64_t>(t_->num_threads)) {
      queues_.push_back(q);
    }
    head_.assign(FLAGS_queue_count, 0);
    tail_.assign(FLAGS_queue_count, 0);
    value_.assign(FLAGS_queue_value_size, 'v');
  }

  Status Run() {
    Status s = ParseMode();
    if (!s.ok()) return s;
    SetPerfLevel(PerfLevel::kEnableCount);
    s = Fill();
    if (!s.ok()) return s;
    const auto clock = SystemClock::Default();
    for (int phase = 1; phase <= 3; ++phase) {
      if (t_->tid == 0) state_->phase = phase;
      const uint64_t seconds = phase == 1   ? FLAGS_queue_steady_seconds
                               : phase == 2 ? FLAGS_queue_drain_seconds
                                            : FLAGS_queue_idle_seconds;
      const uint64_t end = clock->NowMicros() + seconds * 1000000;
      size_t turn = 0;
      while (clock->NowMicros() < end) {
        const uint64_t q = queues_[turn++ % queues_.size()];
        if (phase == 1) {
          s = Enqueue(q);
          if (s.ok()) s = Dequeue(q, /*remove=*/true);
          Throttle(clock.get());
        } else if (phase == 2) {
          s = Dequeue(q, /*remove=*/true);
        } else {
          s = Dequeue(q, /*remove=*/false);  // A probe: no writes when idle.
          clock->SleepForMicroseconds(10000);
        }
        if (!s.ok()) return s;
        if (t_->tid == 0) {
          report_.MaybeWrite(clock.get());
          MaybeReplaceSnapshot(clock.get(), /*hold=*/phase <= 2);
        }
      }
    }
    if (t_->tid == 0) MaybeReplaceSnapshot(clock.get(), /*hold=*/false);
    SetPerfLevel(PerfLevel::kDisable);
    return Status::OK();
  }

  // Releases the held snapshot once it is due (or when !hold) and, with
  // `hold`, takes the next one.
  void MaybeReplaceSnapshot(SystemClock* clock, bool hold) {
    if (FLAGS_queue_snapshot_interval == 0) return;
    const uint64_t now = clock->NowMicros();
    if (hold && snapshot_ != nullptr && now < snapshot_due_) return;
    if (snapshot_ != nullptr) {
      t_->db->ReleaseSnapshot(snapshot_);
      snapshot_ = nullptr;
    }
    if (hold) {
      snapshot_ = t_->db->GetSnapshot();
      snapshot_due_ = now + FLAGS_queue_snapshot_interval * 1000000;
    }
  }

  uint64_t dequeues() const { return dequeues_; }

 private:
  static QueueReport::Config ReportConfig() {
    QueueReport::Config config;
    config.path = FLAGS_queue_report_file;
    config.interval_seconds = FLAGS_queue_report_interval;
    config.permanent_rows = FLAGS_queue_count * FLAGS_queue_long_lived_rows;
    config.row_bytes = 16 + FLAGS_queue_value_size;
    return config;
  }

  Status ParseMode() {
    if (FLAGS_queue_delete_mode == "delete") {
      mode_ = DeleteMode::kDelete;
    } else if (FLAGS_queue_delete_mode == "single_delete") {
      mode_ = DeleteMode::kSingleDelete;
      if (FLAGS_queue_overwrite) {
        return Status::InvalidArgument(
            "queue: --queue_overwrite breaks SingleDelete's contract");
      }
    } else if (FLAGS_queue_delete_mode == "initial_put") {
      mode_ = DeleteMode::kInitialPut;
    } else {
      return Status::InvalidArgument("queue: unknown --queue_delete_mode " +
                                     FLAGS_queue_delete_mode);
    }
    if (FLAGS_queue_batch == 0 || FLAGS_queue_count == 0) {
      return Status::InvalidArgument("queue: count and batch must be > 0");
    }
    return Status::OK();
  }

  Status Add(const std::string& key, bool initial) {
    state_->user_bytes += key.size() + value_.size();
    if (initial && mode_ == DeleteMode::kInitialPut) {
      return WorkloadPutInitial(t_->db, WriteOptions(), key, value_);
    }
    return t_->db->Put(WriteOptions(), key, value_);
  }

  Status Fill() {
    Status s;
    // Long-lived rows first, so that they sink to the last level.
    for (uint64_t q : queues_) {
      for (uint64_t i = 0; s.ok() && i < FLAGS_queue_long_lived_rows; ++i) {
        s = Add(QueueKey(q, kLongLivedBase + i), /*initial=*/false);
      }
    }
    if (!s.ok()) return s;
    t_->finished_ops(
        static_cast<int64_t>(queues_.size() * FLAGS_queue_long_lived_rows),
        WorkloadOp::kWrite);
    if (t_->tid == 0) {
      s = t_->db->Flush(FlushOptions());
      if (s.ok()) {
        CompactRangeOptions cro;
        cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
        s = t_->db->CompactRange(cro, nullptr, nullptr);
      }
      if (!s.ok()) return s;
    }
    for (uint64_t q : queues_) {
      for (uint64_t i = 0; s.ok() && i < FLAGS_queue_prefill; ++i) {
        s = Add(QueueKey(q, tail_[q]++), /*initial=*/true);
      }
      state_->live_items += FLAGS_queue_prefill;
    }
    return s;
  }

  Status Enqueue(uint64_t q) {
    Status s;
    const uint64_t first = tail_[q];
    for (uint64_t i = 0; s.ok() && i < FLAGS_queue_batch; ++i) {
      s = Add(QueueKey(q, tail_[q]++), /*initial=*/true);
    }
    if (s.ok() && FLAGS_queue_overwrite && first >= FLAGS_queue_batch &&
        first - FLAGS_queue_batch >= head_[q]) {
      // Update the previous batch once; it is still queued.
      for (uint64_t seq = first - FLAGS_queue_batch; s.ok() && seq < first;
           ++seq) {
        s = Add(QueueKey(q, seq), /*initial=*/false);
      }
      t_->finished_ops(static_cast<int64_t>(FLAGS_queue_batch),
                       WorkloadOp::kUpdate);
    }
    state_->live_items += FLAGS_queue_batch;
    t_->finished_ops(static_cast<int64_t>(FLAGS_queue_batch),
                     WorkloadOp::kWrite);
    return s;
  }

  // Seeks to the queue's head and reads (and, if `remove`, deletes) its K
  // oldest items.
  Status Dequeue(uint64_t q, bool remove) {
    const auto clock = SystemClock::Default();
    const uint64_t skipped_before =
        get_perf_context()->internal_delete_skipped_count;
    const uint64_t start = clock->NowNanos();
    const std::string lower = QueueKey(q, 0);
    const std::string upper = QueueKey(q, kLongLivedBase);
    Slice upper_slice(upper);
    ReadOptions ro;
    ro.iterate_upper_bound = &upper_slice;
    std::unique_ptr<Iterator> it(t_->db->NewIterator(ro));
    std::vector<std::string> taken;
    Status s;
    for (it->Seek(lower); it->Valid() && taken.size() < FLAGS_queue_batch;
         it->Next()) {
      taken.push_back(it->key().ToString());
      if (it->value() != value_) {
        s = Status::Corruption("queue: a dequeued item's value changed",
                               it->key().ToString(/*hex=*/true));
        break;
      }
    }
    if (s.ok()) s = it->status();
    it.reset();
    // This thread alone writes queue q: what it reads is exactly the queue's
    // oldest items, in order, as many as are queued (up to K). A variant
    // that lost items, or brought deleted ones back, fails the run here.
    const uint64_t queued = tail_[q] - head_[q];
    if (s.ok() &&
        taken.size() != std::min<uint64_t>(queued, FLAGS_queue_batch)) {
      s = Status::Corruption("queue: dequeued " + std::to_string(taken.size()) +
                             " items of " + std::to_string(queued) +
                             " queued in queue " + std::to_string(q));
    }
    for (size_t i = 0; s.ok() && i < taken.size(); ++i) {
      if (taken[i] != QueueKey(q, head_[q] + i)) {
        s = Status::Corruption(
            "queue: dequeued out of order in queue " + std::to_string(q),
            Slice(taken[i]).ToString(/*hex=*/true));
      }
    }
    for (size_t i = 0; s.ok() && remove && i < taken.size(); ++i) {
      s = mode_ == DeleteMode::kSingleDelete
              ? t_->db->SingleDelete(WriteOptions(), taken[i])
              : t_->db->Delete(WriteOptions(), taken[i]);
    }
    if (!s.ok()) return s;
    const uint64_t micros = (clock->NowNanos() - start) / 1000;
    const uint64_t skipped =
        get_perf_context()->internal_delete_skipped_count - skipped_before;
    if (remove && !taken.empty()) {
      head_[q] += taken.size();
      state_->deletes += taken.size();
      state_->live_items -=
          std::min<uint64_t>(state_->live_items, taken.size());
      t_->finished_ops(static_cast<int64_t>(taken.size()), WorkloadOp::kDelete);
    }
    t_->finished_ops(1, WorkloadOp::kSeek);
    ++dequeues_;
    state_->AddDequeue(micros, skipped);
    return Status::OK();
  }

  void Throttle(SystemClock* clock) {
    if (FLAGS_queue_enqueue_rate == 0) return;
    enqueued_ += FLAGS_queue_batch;
    if (throttle_start_ == 0) throttle_start_ = clock->NowMicros();
    const uint64_t due =
        throttle_start_ + enqueued_ * 1000000 / FLAGS_queue_enqueue_rate;
    const uint64_t now = clock->NowMicros();
    if (due > now) clock->SleepForMicroseconds(static_cast<int>(due - now));
  }

  WorkloadThread* t_;
  QueueRunState* state_;
  DeleteMode mode_ = DeleteMode::kDelete;
  std::vector<uint64_t> queues_;
  std::vector<uint64_t> head_;
  std::vector<uint64_t> tail_;
  std::string value_;
  uint64_t dequeues_ = 0;
  uint64_t enqueued_ = 0;
  uint64_t throttle_start_ = 0;
  QueueReport report_;  // Written by thread 0 only.
  const Snapshot* snapshot_ = nullptr;
  uint64_t snapshot_due_ = 0;
};

void RunQueue(WorkloadThread* thread) {
  // One shared state per db_bench run; threads start together.
  static QueueRunState* state = nullptr;
  static std::mutex init_mu;
  {
    std::lock_guard<std::mutex> lock(init_mu);
    if (state == nullptr || state->threads_done == thread->num_threads) {
      delete state;
      state = new QueueRunState();
    }
  }
  QueueWorkload workload(thread, state);
  Status s = workload.Run();
  if (!s.ok()) {
    fprintf(stderr, "queue: %s\n", s.ToString().c_str());
    exit(1);
  }
  if (thread->tid == 0) {
    char msg[160];
    snprintf(msg, sizeof(msg), "(%" PRIu64 " dequeues, mode %s%s)",
             workload.dequeues(), FLAGS_queue_delete_mode.c_str(),
             FLAGS_queue_overwrite ? "+overwrite" : "");
    thread->add_message(msg);
  }
  ++state->threads_done;
}

const bool kRegistered = RegisterWorkload("queue", RunQueue);

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
#endif  // GFLAGS
