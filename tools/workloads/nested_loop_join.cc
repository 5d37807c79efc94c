// db_bench --benchmarks=nljoin_fill,nljoin: the inner side of a nested-loop
// join (issue: range filter), the access pattern the CRaFT filter is for.
//
// Two relations share the DB. The outer relation is keyed by row id:
// 'o' + [8-byte id], its value starting with the row's 8-byte join key,
// drawn uniformly from [0, nljoin_join_keys). The inner relation holds
// nljoin_rows_per_match rows for a fraction (nljoin_match_fraction) of the
// join keys: 'n' + [8-byte join key] + [8-byte row]. A query scans
// nljoin_outer_per_query consecutive outer rows and, for each, seeks the
// inner relation with an upper bound at the next join key and reads the
// matching rows: one short bounded seek per outer row, most of them into a
// range that is empty in every table.
//
// Correlated probes (nljoin_near_miss > 0, with nljoin_inner_row_ids=false
// so that an inner key is 'n' + [8-byte join key] alone): an outer row
// without a match references a join key 1..nljoin_near_miss past one that
// has inner rows, as a foreign key to a neighbour of an existing id does.
// Each such seek then starts just past a stored key, the range a trie
// cannot reject and CRaFT's range hash can (docs/craft.md). Join keys are
// the indexes of [0, nljoin_join_keys) times nljoin_key_stride: a stride
// spaces stored keys apart (sparse ids) without making the fill walk a
// larger domain; with dense keys the trie's prefix already tells a stored
// key from its near neighbours.

#ifdef GFLAGS
#include <algorithm>
#include <cinttypes>
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

DEFINE_uint64(nljoin_outer_rows, 200000, "nljoin: rows in the outer relation");
DEFINE_uint64(nljoin_join_keys, 2000000, "nljoin: join key domain");
DEFINE_double(nljoin_match_fraction, 0.05,
              "nljoin: share of join keys with inner rows");
DEFINE_uint64(nljoin_rows_per_match, 4,
              "nljoin: inner rows per matching join key");
DEFINE_uint64(nljoin_value_size, 100, "nljoin: row value size");
DEFINE_uint64(nljoin_outer_per_query, 32,
              "nljoin: outer rows a query scans (one inner seek each)");
DEFINE_uint64(nljoin_ops, 20000, "nljoin: queries per thread");
DEFINE_bool(nljoin_inner_row_ids, true,
            "nljoin: inner keys end with an 8-byte row id (false: the join "
            "key alone, one row per matching join key)");
DEFINE_uint64(nljoin_near_miss, 0,
              "nljoin: when > 0, a share nljoin_match_fraction of outer rows "
              "join a matching key and the rest a key 1..N past one "
              "(correlated probes); 0: join keys uniform");
DEFINE_uint64(nljoin_key_stride, 1,
              "nljoin: join key values are the domain's indexes times this "
              "(> 1: sparse keys, far apart)");

namespace ROCKSDB_NAMESPACE {
namespace {

bool Matches(uint64_t join_key) {
  const uint64_t h =
      Hash64(reinterpret_cast<const char*>(&join_key), sizeof(join_key), 3);
  return static_cast<double>(h % 1000000) <
         FLAGS_nljoin_match_fraction * 1000000.0;
}

uint64_t OuterHash(uint64_t outer_id, uint64_t seed) {
  return Hash64(reinterpret_cast<const char*>(&outer_id), sizeof(outer_id),
                seed);
}

uint64_t StoredJoinKey(uint64_t index) {
  return index * std::max<uint64_t>(1, FLAGS_nljoin_key_stride);
}

uint64_t JoinKeyOf(uint64_t outer_id) {
  const uint64_t join_keys = std::max<uint64_t>(1, FLAGS_nljoin_join_keys);
  const uint64_t uniform = OuterHash(outer_id, 5) % join_keys;
  if (FLAGS_nljoin_near_miss == 0) {
    return StoredJoinKey(uniform);
  }
  // The first matching join key at or after the uniform one (wrapping).
  uint64_t match = uniform;
  for (uint64_t i = 0; i < join_keys && !Matches(match); i++) {
    match = (match + 1) % join_keys;
  }
  if (static_cast<double>(OuterHash(outer_id, 7) % 1000000) <
      FLAGS_nljoin_match_fraction * 1000000.0) {
    return StoredJoinKey(match);
  }
  return StoredJoinKey(match) + 1 +
         OuterHash(outer_id, 9) % FLAGS_nljoin_near_miss;
}

std::string OuterKey(uint64_t id) { return TaggedKey('o', id); }

std::string InnerPrefix(uint64_t join_key) { return TaggedKey('n', join_key); }

void Check(const Status& s, const char* what) {
  if (!s.ok()) {
    fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
    exit(1);
  }
}

// Outer rows and inner matches, interleaved in a shuffled order so that
// every flushed table spans both relations' whole key ranges.
void RunFill(WorkloadThread* thread) {
  struct Write {
    bool outer;
    uint64_t id;
  };
  std::vector<Write> writes;
  const auto tid = static_cast<uint64_t>(thread->tid);
  const auto step = static_cast<uint64_t>(thread->num_threads);
  for (uint64_t id = tid; id < FLAGS_nljoin_outer_rows; id += step) {
    writes.push_back({true, id});
  }
  for (uint64_t j = tid; j < FLAGS_nljoin_join_keys; j += step) {
    if (Matches(j)) {
      writes.push_back({false, j});
    }
  }
  std::mt19937_64 rng(thread->seed);
  std::shuffle(writes.begin(), writes.end(), rng);
  std::string value(std::max<uint64_t>(FLAGS_nljoin_value_size, 8), 'v');
  for (const Write& w : writes) {
    WriteBatch batch;
    if (w.outer) {
      std::string head;
      AppendBigEndian64(&head, JoinKeyOf(w.id));
      value.replace(0, 8, head);
      Check(batch.Put(OuterKey(w.id), value), "nljoin_fill");
    } else {
      if (!FLAGS_nljoin_inner_row_ids) {
        Check(batch.Put(InnerPrefix(StoredJoinKey(w.id)), value),
              "nljoin_fill");
      }
      for (uint64_t r = 0;
           FLAGS_nljoin_inner_row_ids && r < FLAGS_nljoin_rows_per_match; r++) {
        std::string key = InnerPrefix(StoredJoinKey(w.id));
        AppendBigEndian64(&key, r);
        Check(batch.Put(key, value), "nljoin_fill");
      }
    }
    Check(thread->db->Write(WriteOptions(), &batch), "nljoin_fill");
    thread->finished_ops(1, WorkloadOp::kWrite);
  }
}

void RunQuery(WorkloadThread* thread) {
  std::mt19937_64 rng(thread->seed);
  const uint64_t outer_rows = std::max<uint64_t>(1, FLAGS_nljoin_outer_rows);
  uint64_t probes = 0, matched_probes = 0, inner_rows = 0;
  for (uint64_t op = 0; op < FLAGS_nljoin_ops; op++) {
    // The outer scan.
    const uint64_t first = rng() % outer_rows;
    const std::string outer_start = OuterKey(first);
    const std::string outer_limit =
        OuterKey(first + FLAGS_nljoin_outer_per_query);
    Slice outer_upper(outer_limit);
    ReadOptions outer_ro;
    outer_ro.iterate_upper_bound = &outer_upper;
    std::vector<uint64_t> join_keys;
    {
      std::unique_ptr<Iterator> it(thread->db->NewIterator(outer_ro));
      for (it->Seek(outer_start); it->Valid(); it->Next()) {
        join_keys.push_back(DecodeBigEndian64(it->value(), 0));
      }
      Check(it->status(), "nljoin");
    }
    // One bounded inner seek per outer row.
    for (uint64_t j : join_keys) {
      const std::string start = InnerPrefix(j);
      const std::string limit = InnerPrefix(j + 1);
      Slice upper(limit);
      ReadOptions ro;
      ro.iterate_upper_bound = &upper;
      std::unique_ptr<Iterator> it(thread->db->NewIterator(ro));
      uint64_t rows = 0;
      for (it->Seek(start); it->Valid(); it->Next()) {
        rows++;
      }
      Check(it->status(), "nljoin");
      probes++;
      matched_probes += rows > 0 ? 1 : 0;
      inner_rows += rows;
    }
    thread->finished_ops(1, WorkloadOp::kSeek);
  }
  char msg[128];
  snprintf(msg, sizeof(msg),
           "(%" PRIu64 " inner seeks, %" PRIu64 " non-empty, %" PRIu64
           " inner rows)",
           probes, matched_probes, inner_rows);
  thread->add_message(msg);
}

const bool kFillRegistered = RegisterWorkload("nljoin_fill", RunFill);
const bool kQueryRegistered = RegisterWorkload("nljoin", RunQuery);

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
#endif  // GFLAGS
