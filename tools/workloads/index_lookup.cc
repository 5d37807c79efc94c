// db_bench --benchmarks=indexlookup_fill,indexlookup: a non-covered
// secondary index scan (issue: location cache), the access pattern the
// location cache is for.
//
// Two relations share the DB. The base relation is keyed by primary key:
// 'b' + [8-byte pk]. The index relation holds one entry per row:
// 'i' + [8-byte index value] + [8-byte pk], empty value; a row's index value
// is a hash of its pk, so the rows of one index value are scattered over
// the base relation. A query picks an index value (Zipfian or uniform),
// scans its index range with an upper bound, and then fetches each
// matching base row by Get (or one MultiGet): a short scan and a handful of
// random point lookups per operation.

#ifdef GFLAGS
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "rocksdb/iterator.h"
#include "rocksdb/write_batch.h"
#include "tools/workloads/workload.h"
#include "util/gflags_compat.h"
#include "util/hash.h"

DEFINE_uint64(indexlookup_rows, 500000,
              "indexlookup: rows in the base relation");
DEFINE_uint64(indexlookup_rows_per_value, 8,
              "indexlookup: average rows per index value");
DEFINE_uint64(indexlookup_value_size, 200, "indexlookup: base row size");
DEFINE_uint64(indexlookup_ops, 200000, "indexlookup: queries per thread");
DEFINE_double(indexlookup_zipf, 0.99,
              "indexlookup: Zipfian skew of the index value a query picks "
              "(0 = uniform)");
DEFINE_bool(indexlookup_multiget, false,
            "indexlookup: fetch the base rows with one MultiGet");

namespace ROCKSDB_NAMESPACE {
namespace {

uint64_t DistinctValues() {
  return std::max<uint64_t>(
      1, FLAGS_indexlookup_rows /
             std::max<uint64_t>(1, FLAGS_indexlookup_rows_per_value));
}

uint64_t IndexValueOf(uint64_t pk) {
  return Hash64(reinterpret_cast<const char*>(&pk), sizeof(pk), 7) %
         DistinctValues();
}

std::string BaseKey(uint64_t pk) { return TaggedKey('b', pk); }

std::string IndexPrefix(uint64_t value) { return TaggedKey('i', value); }

// Gray et al.'s Zipfian generator (as in YCSB) over [0, n); hot values are
// scattered by a hash so that they do not cluster in one key range.
class ZipfianValues {
 public:
  ZipfianValues(uint64_t n, double theta, uint64_t seed)
      : n_(n), theta_(theta), rng_(seed) {
    if (theta_ <= 0) {
      return;
    }
    for (uint64_t i = 1; i <= n_; i++) {
      zetan_ += 1.0 / std::pow(static_cast<double>(i), theta_);
    }
    const double zeta2 = 1.0 + 1.0 / std::pow(2.0, theta_);
    alpha_ = 1.0 / (1.0 - theta_);
    eta_ = (1.0 - std::pow(2.0 / static_cast<double>(n_), 1.0 - theta_)) /
           (1.0 - zeta2 / zetan_);
  }

  uint64_t Next() {
    if (theta_ <= 0) {
      return rng_() % n_;
    }
    const double u = std::uniform_real_distribution<double>(0, 1)(rng_);
    const double uz = u * zetan_;
    uint64_t rank;
    if (uz < 1.0) {
      rank = 0;
    } else if (uz < 1.0 + std::pow(0.5, theta_)) {
      rank = 1;
    } else {
      rank = static_cast<uint64_t>(static_cast<double>(n_) *
                                   std::pow(eta_ * u - eta_ + 1.0, alpha_));
    }
    rank = std::min(rank, n_ - 1);
    return Hash64(reinterpret_cast<const char*>(&rank), sizeof(rank), 11) % n_;
  }

 private:
  const uint64_t n_;
  const double theta_;
  std::mt19937_64 rng_;
  double zetan_ = 0, alpha_ = 0, eta_ = 0;
};

void RunFill(WorkloadThread* thread) {
  // Rows in a shuffled order, split between threads.
  std::vector<uint64_t> pks;
  for (uint64_t pk = static_cast<uint64_t>(thread->tid);
       pk < FLAGS_indexlookup_rows;
       pk += static_cast<uint64_t>(thread->num_threads)) {
    pks.push_back(pk);
  }
  std::mt19937_64 rng(thread->seed);
  std::shuffle(pks.begin(), pks.end(), rng);
  std::string value(FLAGS_indexlookup_value_size, 'v');
  for (uint64_t pk : pks) {
    for (size_t i = 0; i < 8 && i < value.size(); i++) {
      value[i] = static_cast<char>('a' + (pk >> (4 * i)) % 16);
    }
    WriteBatch batch;
    std::string index_key = IndexPrefix(IndexValueOf(pk));
    AppendBigEndian64(&index_key, pk);
    Status s = batch.Put(BaseKey(pk), value);
    if (s.ok()) {
      s = batch.Put(index_key, Slice());
    }
    if (s.ok()) {
      s = thread->db->Write(WriteOptions(), &batch);
    }
    if (!s.ok()) {
      fprintf(stderr, "indexlookup_fill: %s\n", s.ToString().c_str());
      exit(1);
    }
    thread->finished_ops(1, WorkloadOp::kWrite);
  }
}

void RunQuery(WorkloadThread* thread) {
  ZipfianValues values(DistinctValues(), FLAGS_indexlookup_zipf, thread->seed);
  uint64_t rows = 0, found = 0;
  std::vector<std::string> base_keys;
  for (uint64_t op = 0; op < FLAGS_indexlookup_ops; op++) {
    const uint64_t v = values.Next();
    const std::string start = IndexPrefix(v);
    const std::string limit = IndexPrefix(v + 1);
    Slice upper(limit);
    ReadOptions ro;
    ro.iterate_upper_bound = &upper;
    base_keys.clear();
    {
      std::unique_ptr<Iterator> it(thread->db->NewIterator(ro));
      for (it->Seek(start); it->Valid(); it->Next()) {
        base_keys.push_back(BaseKey(DecodeBigEndian64(it->key(), 9)));
      }
      if (!it->status().ok()) {
        fprintf(stderr, "indexlookup: %s\n", it->status().ToString().c_str());
        exit(1);
      }
    }
    rows += base_keys.size();
    if (FLAGS_indexlookup_multiget && !base_keys.empty()) {
      std::vector<Slice> keys(base_keys.begin(), base_keys.end());
      std::vector<PinnableSlice> got(keys.size());
      std::vector<Status> statuses(keys.size());
      thread->db->MultiGet(ReadOptions(), thread->db->DefaultColumnFamily(),
                           keys.size(), keys.data(), got.data(),
                           statuses.data());
      for (const Status& s : statuses) {
        found += s.ok();
      }
    } else {
      PinnableSlice got;
      for (const std::string& key : base_keys) {
        got.Reset();
        found += thread->db
                     ->Get(ReadOptions(), thread->db->DefaultColumnFamily(),
                           key, &got)
                     .ok();
      }
    }
    thread->finished_ops(1, WorkloadOp::kRead);
  }
  char msg[96];
  snprintf(msg, sizeof(msg),
           "(%.2f rows per query, %" PRIu64 " of %" PRIu64 " found)",
           FLAGS_indexlookup_ops
               ? static_cast<double>(rows) /
                     static_cast<double>(FLAGS_indexlookup_ops)
               : 0.0,
           found, rows);
  thread->add_message(msg);
}

const bool kFillRegistered = RegisterWorkload("indexlookup_fill", RunFill);
const bool kQueryRegistered = RegisterWorkload("indexlookup", RunQuery);

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
#endif  // GFLAGS
