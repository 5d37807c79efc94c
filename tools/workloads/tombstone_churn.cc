// db_bench --benchmarks=tombstone_churn: the YugabyteDB blog's pattern
// ("LSM Tree, Tombstones and YugabyteDB"): insert a handful of rows, delete
// them all, run a query, repeat. The table never holds more than
// --churn_rows rows, yet every cycle leaves tombstones behind.
//
// With --churn_unique_keys (the blog's table without a primary key) each
// cycle's rows get new keys and the query scans the table for one row, so
// it walks every tombstone still alive; otherwise rows reuse their keys and
// the query is a point Get. Thread 0 writes query latency p50/p99 and
// tombstones skipped per query to --churn_report_file every interval.

#ifdef GFLAGS
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>

#include "monitoring/histogram.h"
#include "rocksdb/iterator.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/system_clock.h"
#include "tools/workloads/workload.h"
#include "util/coding.h"
#include "util/gflags_compat.h"

DEFINE_uint64(churn_rows, 42, "tombstone_churn: rows inserted per cycle");
DEFINE_uint64(churn_value_size, 1024, "tombstone_churn: value size");
DEFINE_uint64(churn_seconds, 60, "tombstone_churn: run length");
DEFINE_bool(churn_unique_keys, true,
            "tombstone_churn: new keys every cycle and a scanning query (no "
            "primary key); false reuses keys and queries with Get");
DEFINE_string(churn_delete_mode, "delete",
              "tombstone_churn: delete, single_delete or initial_put");
DEFINE_string(churn_report_file, "", "tombstone_churn: CSV of intervals");
DEFINE_uint64(churn_report_interval, 5, "tombstone_churn: seconds per row");

namespace ROCKSDB_NAMESPACE {
namespace {

// Table prefix per thread, then the row id.
std::string RowKey(uint64_t table, uint64_t id) {
  std::string key;
  AppendBigEndian64(&key, table);
  AppendBigEndian64(&key, id);
  return key;
}

void RunTombstoneChurn(WorkloadThread* thread) {
  const bool initial = FLAGS_churn_delete_mode == "initial_put";
  const bool single = FLAGS_churn_delete_mode == "single_delete";
  if (!initial && !single && FLAGS_churn_delete_mode != "delete") {
    fprintf(stderr, "tombstone_churn: unknown --churn_delete_mode %s\n",
            FLAGS_churn_delete_mode.c_str());
    exit(1);
  }
  DB* db = thread->db;
  const auto clock = SystemClock::Default();
  const uint64_t table = static_cast<uint64_t>(thread->tid);
  const std::string value(FLAGS_churn_value_size, 'x');
  FILE* report = nullptr;
  if (thread->tid == 0 && !FLAGS_churn_report_file.empty()) {
    report = fopen(FLAGS_churn_report_file.c_str(), "w");
    if (report) {
      fprintf(report,
              "secs_elapsed,queries,query_p50_us,query_p99_us,"
              "tombstones_skipped_per_query\n");
    }
  }
  SetPerfLevel(PerfLevel::kEnableCount);
  HistogramImpl latency;
  uint64_t queries = 0, skipped = 0, next_id = 0, cycles = 0;
  const uint64_t start = clock->NowMicros();
  uint64_t next_report = start + FLAGS_churn_report_interval * 1000000;
  const uint64_t end = start + FLAGS_churn_seconds * 1000000;
  const std::string table_end = RowKey(table + 1, 0);
  Status s;
  while (s.ok() && clock->NowMicros() < end) {
    const uint64_t first = FLAGS_churn_unique_keys ? next_id : 0;
    for (uint64_t i = 0; s.ok() && i < FLAGS_churn_rows; ++i) {
      const std::string key = RowKey(table, first + i);
      s = initial ? WorkloadPutInitial(db, WriteOptions(), key, value)
                  : db->Put(WriteOptions(), key, value);
    }
    thread->finished_ops(static_cast<int64_t>(FLAGS_churn_rows),
                         WorkloadOp::kWrite);
    for (uint64_t i = 0; s.ok() && i < FLAGS_churn_rows; ++i) {
      const std::string key = RowKey(table, first + i);
      s = single ? db->SingleDelete(WriteOptions(), key)
                 : db->Delete(WriteOptions(), key);
    }
    thread->finished_ops(static_cast<int64_t>(FLAGS_churn_rows),
                         WorkloadOp::kDelete);
    next_id += FLAGS_churn_rows;
    ++cycles;
    if (!s.ok()) break;

    // The query: "where id = 1".
    const uint64_t before = get_perf_context()->internal_delete_skipped_count;
    const uint64_t t0 = clock->NowNanos();
    if (FLAGS_churn_unique_keys) {
      Slice upper(table_end);
      ReadOptions ro;
      ro.iterate_upper_bound = &upper;
      std::unique_ptr<Iterator> it(db->NewIterator(ro));
      for (it->Seek(RowKey(table, 0)); it->Valid(); it->Next()) {
      }
      s = it->status();
    } else {
      std::string got;
      s = db->Get(ReadOptions(), RowKey(table, 1), &got);
      if (s.IsNotFound()) s = Status::OK();
    }
    latency.Add((clock->NowNanos() - t0) / 1000);
    skipped += get_perf_context()->internal_delete_skipped_count - before;
    ++queries;
    thread->finished_ops(1, WorkloadOp::kSeek);

    const uint64_t now = clock->NowMicros();
    if (report && now >= next_report) {
      fprintf(report, "%.1f,%" PRIu64 ",%.1f,%.1f,%.1f\n", (now - start) / 1e6,
              queries, latency.Percentile(50), latency.Percentile(99),
              queries ? static_cast<double>(skipped) / queries : 0.0);
      fflush(report);
      latency.Clear();
      queries = skipped = 0;
      next_report += FLAGS_churn_report_interval * 1000000;
    }
  }
  SetPerfLevel(PerfLevel::kDisable);
  if (report) fclose(report);
  if (!s.ok()) {
    fprintf(stderr, "tombstone_churn: %s\n", s.ToString().c_str());
    exit(1);
  }
  char msg[96];
  snprintf(msg, sizeof(msg), "(%" PRIu64 " cycles, mode %s)", cycles,
           FLAGS_churn_delete_mode.c_str());
  thread->add_message(msg);
}

const bool kRegistered = RegisterWorkload("tombstone_churn", RunTombstoneChurn);

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
#endif  // GFLAGS
