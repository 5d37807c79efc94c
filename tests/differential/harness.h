// The differential harness: one op stream, applied to a model and to two DBs
// opened with different option sets; every read is compared. Feature work
// plugs in an option set (option_sets.h) and, where needed, new ops.

#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/options.h"
#include "tests/differential/ops.h"

namespace lodestone_test {

struct OptionSet {
  std::string name;
  // Applied over the harness's base options (small memtables and files, so
  // flushes and multi-level compactions happen within a few thousand ops).
  std::function<void(ROCKSDB_NAMESPACE::Options*)> apply;
  // Test-only fault injection, to prove the harness catches bugs: drop the
  // n-th Delete this DB receives (0 = never).
  int drop_nth_delete = 0;
  // Write initial puts with PutInitial (else as plain Put), and put them in
  // the op mix.
  bool initial_puts = false;
  // Put more deletes in the op mix, so that scans meet tombstone runs.
  bool tombstone_runs = false;
  // A background thread keeps writing keys between the op stream's keys
  // ("k000123~w7") while the ops run; reads skip them, and at the end every
  // acknowledged one must still be there unless a later DeleteRange of the
  // op stream covers it.
  bool concurrent_writer = false;
  // Put secondary deletes (DeleteByDeleteKeyRange) in the op mix; every DB
  // of a run that has them gets the delete key extractor.
  bool secondary_deletes = false;
  // Point reads go through a Get of the same key first, so that the
  // compared read can be answered from what that Get remembered (location
  // cache). A Get whose two answers differ reports both: a divergence.
  bool warm_point_reads = false;
};

// The first read whose answer differs from the model's.
struct Divergence {
  size_t op_index = 0;
  std::string db;  // The option set's name.
  std::string expected;
  std::string actual;
  std::string ToString() const;
};

struct RunResult {
  // Per option set: the chains of initial puts its DB pruned (proof that a
  // feature under test did something).
  std::map<std::string, uint64_t> chains_pruned;
  // Per option set: range tombstones its scans synthesized from tombstone
  // runs (min_tombstones_for_range_conversion).
  std::map<std::string, uint64_t> runs_converted;
  // Per option set: compactions the tombstone-aware picker started.
  std::map<std::string, uint64_t> tombstone_compactions;
  // Per option set: point lookups the location cache answered.
  std::map<std::string, uint64_t> location_cache_hits;
  // Per option set: bounded seeks a CRaFT filter answered "empty".
  std::map<std::string, uint64_t> craft_empty_answers;
  // Per option set: straddling files compaction rankings counted by keys.
  std::map<std::string, uint64_t> overlaps_counted_by_keys;
  // Per option set: covered puts (or blocks) its reads and compactions
  // skipped for secondary deletes.
  std::map<std::string, uint64_t> secondary_deletes_skipped;
  bool diverged = false;
  Divergence divergence;
  std::string error;  // A failed write or open: also a failure.
  bool ok() const { return !diverged && error.empty(); }
};

// Applies `ops` to a fresh model and fresh DBs under `dir` (one per option
// set, each with as many column families as the ops name, all under the
// set's options), comparing every read. Stops at the first divergence.
RunResult RunOps(const std::vector<Op>& ops,
                 const std::vector<OptionSet>& option_sets,
                 const std::string& dir);

// Shrinks a failing op stream (prefix up to the failure, then chunk removal)
// while it still fails, within a budget of replays and seconds.
std::vector<Op> MinimizeOps(std::vector<Op> ops,
                            const std::vector<OptionSet>& option_sets,
                            const std::string& dir, int max_replays = 200,
                            int max_seconds = 60);

// Generates and runs one seed; on failure, minimizes and prints the seed,
// the divergence and the replayable op log to stderr (and to `log_path`).
RunResult RunSeed(const GeneratorOptions& generator,
                  const std::vector<OptionSet>& option_sets,
                  const std::string& dir, const std::string& log_path = "");

std::vector<Op> ReadOpLog(const std::string& path, std::string* error);

}  // namespace lodestone_test
