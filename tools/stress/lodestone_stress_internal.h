// Shared by tools/stress/*.cc only.

#pragma once

#ifdef GFLAGS

#include <atomic>
#include <cstdint>
#include <memory>

#include "rocksdb/statistics.h"

namespace ROCKSDB_NAMESPACE {
namespace lodestone_stress {

// What db_stress itself did, for the activity lines (the DB's tickers say
// what the DB did).
struct OpCounters {
  std::atomic<uint64_t> initial_puts{0};  // PutInitial writes that succeeded
  std::atomic<uint64_t> initial_put_errors{0};  // ... that failed
  std::atomic<uint64_t> txn_initial_puts{0};    // Transaction::PutInitial calls
  std::atomic<uint64_t> probes{0};              // contract violation probes
  std::atomic<uint64_t> probes_refused{0};      // ... refused as they must be
  std::atomic<uint64_t> probes_inconclusive{0};  // ... injected I/O error
  std::atomic<uint64_t> short_bounds{0};         // iterators with short bounds
  std::atomic<uint64_t> secondary_deletes{0};    // DeleteByDeleteKeyRange calls
                                                 // that succeeded
  std::atomic<uint64_t> secondary_delete_keys{0};     // ... keys they covered
  std::atomic<uint64_t> secondary_delete_retries{0};  // ... calls retried
  std::atomic<uint64_t> secondary_delete_refused{0};  // ... that did not
                                                      // take (DB stopped)
};
OpCounters& Counters();

// True when any Lodestone flag asks for a feature or an operation.
bool AnyFeatureOn();

// Starts the activity reporter once (idempotent); it reads `stats`.
void StartReporter(std::shared_ptr<Statistics> stats);

}  // namespace lodestone_stress
}  // namespace ROCKSDB_NAMESPACE

#endif  // GFLAGS
