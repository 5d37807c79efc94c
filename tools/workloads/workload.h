// Lodestone's db_bench workloads. Each is a function run by every db_bench
// thread, registered under a benchmark name (--benchmarks=queue,...) and
// configured by its own gflags. db_bench calls in through one hook
// (patches/0011), which hands over the DB and db_bench's per-op accounting,
// so our workloads report like built-in ones: summary line, latency
// histograms, --report_file intervals, --statistics.

#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "rocksdb/db.h"

namespace ROCKSDB_NAMESPACE {

// db_bench's operation kinds, for its per-kind latency histograms.
enum class WorkloadOp : unsigned char {
  kRead = 0,
  kWrite,
  kDelete,
  kSeek,
  kMerge,
  kUpdate,
  kOthers = 10,
};

struct WorkloadThread {
  DB* db = nullptr;
  int tid = 0;  // 0..num_threads-1
  int num_threads = 1;
  uint64_t seed = 0;
  // Counts `n` finished operations of one kind in db_bench's statistics;
  // also drives --report_file and the ops/sec of the summary line.
  std::function<void(int64_t n, WorkloadOp op)> finished_ops;
  // Appends text to the benchmark's summary line.
  std::function<void(const std::string& message)> add_message;
};

using WorkloadFunction = void (*)(WorkloadThread* thread);

// Registers a workload at static initialization (see WORKLOAD_REGISTER).
bool RegisterWorkload(const std::string& name, WorkloadFunction function);

// Looks up a workload by benchmark name.
bool FindWorkload(const std::string& name, WorkloadFunction* function);

// Appends `v` big-endian, so that keys sort by number.
inline void AppendBigEndian64(std::string* dst, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    dst->push_back(static_cast<char>((v >> shift) & 0xff));
  }
}

// The 8 bytes at `at` read big-endian (fewer if the slice ends sooner).
inline uint64_t DecodeBigEndian64(const Slice& s, size_t at) {
  uint64_t v = 0;
  for (size_t i = at; i < at + 8 && i < s.size(); i++) {
    v = (v << 8) | static_cast<unsigned char>(s[i]);
  }
  return v;
}

// A relation's key: a one-byte tag, then `v` big-endian.
inline std::string TaggedKey(char tag, uint64_t v) {
  std::string key(1, tag);
  AppendBigEndian64(&key, v);
  return key;
}

// Bytes flushed and compacted per byte the workload wrote (0 without
// --statistics or before any write).
double WorkloadWriteAmp(DB* db, uint64_t user_bytes);

// Applies the options our workloads' flags set (db_bench calls it before
// opening the DB; tools/workloads/workload_options.cc).
void ConfigureWorkloadOptions(Options* options);

// The kiwi workload's compaction filter, for --kiwi_method=compaction_filter
// (tools/workloads/kiwi.cc).
void ConfigureKiwiOptions(Options* options);

// DB::PutInitial in Lodestone; NotSupported in the stock baseline's db_bench,
// which links an unpatched library.
Status WorkloadPutInitial(DB* db, const WriteOptions& options, const Slice& key,
                          const Slice& value);

}  // namespace ROCKSDB_NAMESPACE
