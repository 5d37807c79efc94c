// Lodestone's additions to upstream's db_stress (docs/stress.md).
//
// Flags for every Lodestone option, a PutInitial share of the writes (with
// deliberate contract violations that must be rejected), short bounded
// iterators, planted bugs, and per-feature activity lines on stdout. The
// hooks in upstream's db_stress_tool/ (patches 0028-0030) call only the
// functions below.

#pragma once

#ifdef GFLAGS

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/transaction.h"
#include "util/gflags_compat.h"

// Lodestone options (docs/options.md); at their defaults they leave the
// options db_stress built (from flags or --options_file) untouched.
DECLARE_string(location_cache);
DECLARE_bool(craft_range_filter);
DECLARE_uint32(craft_partition_size);
DECLARE_uint32(craft_real_suffix_bits);
DECLARE_uint32(craft_hash_suffix_bits);
DECLARE_uint32(craft_range_hash_bits);
DECLARE_uint32(craft_min_level);
DECLARE_uint32(min_tombstones_for_range_conversion);
DECLARE_double(tombstone_density_trigger);
DECLARE_uint32(tombstone_density_window);
DECLARE_bool(compaction_overlap_by_keys);
DECLARE_uint64(delete_persistence_threshold);
DECLARE_bool(verify_initial_puts);
DECLARE_uint32(delete_tile_blocks);
// Operations.
DECLARE_int32(put_initial_one_in);
DECLARE_int32(put_initial_violation_one_in);
DECLARE_int32(lodestone_short_bounds_one_in);
DECLARE_int32(secondary_delete_one_in);
DECLARE_int32(secondary_delete_width);
DECLARE_bool(secondary_delete_extractor);
// Reporting and testing the tests.
DECLARE_uint32(lodestone_report_interval_sec);
DECLARE_string(lodestone_plant_bug);

namespace ROCKSDB_NAMESPACE {

class SharedState;
struct ThreadState;
class ExpectedValue;

namespace lodestone_stress {

// Hook at the end of InitializeOptionsGeneral (patch 0028), so it runs after
// the options file or the flags built `options`: applies every Lodestone
// flag that is not at its default, makes sure statistics exist while a
// Lodestone feature is on, plants the requested bugs and starts the activity
// reporter. Exits on a bad flag value.
void ApplyOptions(Options* options);

// Hook in BuildOptionsTable (patch 0028): SetOptions may change the dynamic
// Lodestone options among values that keep each enabled feature on.
void AddDynamicOptions(
    std::unordered_map<std::string, std::vector<std::string>>* options_table);

// How TestPut writes its key (patch 0029).
enum class PutKind {
  kPut,            // as upstream: Put (or Merge, PutEntity, TimedPut)
  kInitial,        // PutInitial: the expected state proves no visible value
  kViolationProbe  // no write: a PutInitial over a visible value, which
                   // verify_initial_puts must refuse (ProbeContractViolation)
};

// Chooses the kind of a plain put of a key whose expected value (read under
// the key's lock, before PreparePut) is `expected`.
PutKind ChoosePutKind(ThreadState* thread, const ExpectedValue& expected);

// The write of a plain put, for DB and for Transaction.
Status Put(DB* db, const WriteOptions& write_opts, ColumnFamilyHandle* cfh,
           const Slice& key, const Slice& value, PutKind kind);
Status TxnPut(Transaction& txn, ColumnFamilyHandle* cfh, const Slice& key,
              const Slice& value, PutKind kind);

// A PutInitial over a key the expected state says is visible (and not
// pending), under the key's lock: the write must fail with InvalidArgument
// and leave the key's value as expected. Any other outcome is a
// verification failure (with fault injection on, an injected I/O error is
// inconclusive). Returns OK unless the probe could not run.
Status ProbeContractViolation(ThreadState* thread, DB* db,
                              ColumnFamilyHandle* cfh, int cf, int64_t key,
                              const ReadOptions& read_opts,
                              const WriteOptions& write_opts);

// Short iterator bounds (patch 0030): with probability
// 1/--lodestone_short_bounds_one_in, bounds `ro` to [Key(lower), Key(upper))
// so that bounded seeks ask the CRaFT filters and scans end on short runs
// of tombstones. Holds the bound strings for the iterator's lifetime.
class ShortBounds {
 public:
  // Around one key: [key, key + width) with a small random width.
  bool MaybeApply(ThreadState* thread, int64_t key, ReadOptions* ro);
  // Exactly [lower, upper).
  bool MaybeApply(ThreadState* thread, int64_t lower, int64_t upper,
                  ReadOptions* ro);

 private:
  bool MaybeApplyAlways(int64_t lower, int64_t upper, ReadOptions* ro);

  std::string lower_;
  std::string upper_;
  Slice lower_slice_;
  Slice upper_slice_;
};

// Secondary range deletes (patch 0049): with probability
// 1/--secondary_delete_one_in, deletes from column family `cf` every key
// whose last byte (the delete key: key_suffix of length 1, which
// ApplyOptions configures) lies in a random run of
// --secondary_delete_width byte values. Holds every key lock of the family
// across the call and marks the covered keys pending delete in the
// expected state; retries a call that an injected, recoverable error
// failed (its MANIFEST record may be durable all the same) until it takes,
// as db_stress retries its writes, then commits; rolls back when writes
// were stopped or an earlier fault stopped the DB, as db_stress's writes
// do. Non-batched test only, where the expected state survives a crash in
// place (ValidateAndSanitize checks).
void MaybeSecondaryDelete(ThreadState* thread, DB* db, ColumnFamilyHandle* cfh,
                          int cf);

// Prints the per-feature activity lines now (also printed every
// --lodestone_report_interval_sec seconds and at exit).
void ReportActivity(const char* when);

}  // namespace lodestone_stress
}  // namespace ROCKSDB_NAMESPACE

#endif  // GFLAGS
