// Lodestone's db_stress operations: PutInitial where the expected state
// proves the contract, contract violation probes, short iterator bounds,
// secondary range deletes (docs/stress.md).

#ifdef GFLAGS

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <memory>
#include <thread>
#include <vector>

#include "db_stress_tool/db_stress_common.h"
#include "db_stress_tool/db_stress_shared_state.h"
#include "db_stress_tool/expected_value.h"
#include "rocksdb/secondary_delete.h"
#include "tools/stress/lodestone_stress.h"
#include "tools/stress/lodestone_stress_internal.h"

namespace ROCKSDB_NAMESPACE {
namespace lodestone_stress {

namespace {

// While alive, no read or metadata-read faults are injected on this thread.
// A PutInitial under verify_initial_puts reads the key to check the
// contract; an injected read error there would fail the write for a reason
// the test does not model (upstream's pre-write verification does the same).
class NoReadFaults {
 public:
  explicit NoReadFaults(bool on) : on_(on && fault_fs_guard != nullptr) {
    if (on_) {
      fault_fs_guard->DisableThreadLocalErrorInjection(
          FaultInjectionIOType::kRead);
      fault_fs_guard->DisableThreadLocalErrorInjection(
          FaultInjectionIOType::kMetadataRead);
    }
  }
  ~NoReadFaults() {
    if (on_) {
      fault_fs_guard->EnableThreadLocalErrorInjection(
          FaultInjectionIOType::kRead);
      fault_fs_guard->EnableThreadLocalErrorInjection(
          FaultInjectionIOType::kMetadataRead);
    }
  }

 private:
  const bool on_;
};

bool FaultInjectionOn() {
  return fault_fs_guard != nullptr &&
         (FLAGS_write_fault_one_in > 0 ||
          FLAGS_metadata_write_fault_one_in > 0 ||
          FLAGS_read_fault_one_in > 0 || FLAGS_metadata_read_fault_one_in > 0 ||
          FLAGS_sync_fault_injection);
}

// An outcome that fault injection explains: an injected error, or the DB
// stopped by an earlier one.
bool ExplainedByFaults(const Status& s) {
  return !s.ok() && FaultInjectionOn() &&
         (s.IsIOError() || FaultInjectionTestFS::IsInjectedError(s) ||
          s.severity() >= Status::Severity::kHardError);
}

void Fail(ThreadState* thread, const std::string& msg) {
  fprintf(stderr, "Lodestone verification failed: %s\n", msg.c_str());
  thread->shared->SetVerificationFailure();
  thread->stats.AddErrors(1);
}

// Transactions other than write-committed pessimistic or optimistic ones
// write their batch before commit; PutInitial stays out of them.
bool TxnAllowsInitial() {
  return !FLAGS_use_txn || FLAGS_use_optimistic_txn ||
         FLAGS_txn_write_policy == 0;
}

}  // namespace

PutKind ChoosePutKind(ThreadState* thread, const ExpectedValue& expected) {
  if (FLAGS_put_initial_one_in <= 0 &&
      FLAGS_put_initial_violation_one_in <= 0) {
    return PutKind::kPut;
  }
  if (expected.PendingWrite() || expected.PendingDelete()) {
    // An earlier process may or may not have written the key.
    return PutKind::kPut;
  }
  if (expected.IsDeleted()) {
    if (FLAGS_put_initial_one_in > 0 && TxnAllowsInitial() &&
        thread->rand.OneIn(FLAGS_put_initial_one_in)) {
      return PutKind::kInitial;
    }
  } else if (FLAGS_put_initial_violation_one_in > 0 &&
             thread->rand.OneIn(FLAGS_put_initial_violation_one_in)) {
    return PutKind::kViolationProbe;
  }
  return PutKind::kPut;
}

Status Put(DB* db, const WriteOptions& write_opts, ColumnFamilyHandle* cfh,
           const Slice& key, const Slice& value, PutKind kind) {
  if (kind != PutKind::kInitial) {
    return db->Put(write_opts, cfh, key, value);
  }
  NoReadFaults no_read_faults(FLAGS_verify_initial_puts);
  Status s = db->PutInitial(write_opts, cfh, key, value);
  if (s.ok()) {
    Counters().initial_puts.fetch_add(1, std::memory_order_relaxed);
  } else if (Counters().initial_put_errors.fetch_add(
                 1, std::memory_order_relaxed) == 0) {
    fprintf(stdout, "lodestone: first failed PutInitial: %s\n",
            s.ToString().c_str());
  }
  return s;
}

Status TxnPut(Transaction& txn, ColumnFamilyHandle* cfh, const Slice& key,
              const Slice& value, PutKind kind) {
  if (kind != PutKind::kInitial) {
    return txn.Put(cfh, key, value);
  }
  Status s = txn.PutInitial(cfh, key, value);
  if (s.ok()) {
    Counters().txn_initial_puts.fetch_add(1, std::memory_order_relaxed);
  }
  return s;
}

Status ProbeContractViolation(ThreadState* thread, DB* db,
                              ColumnFamilyHandle* cfh, int cf, int64_t key,
                              const ReadOptions& read_opts,
                              const WriteOptions& write_opts) {
  OpCounters& counters = Counters();
  counters.probes.fetch_add(1, std::memory_order_relaxed);
  const ExpectedValue expected = thread->shared->Get(cf, key);
  assert(!expected.PendingWrite() && !expected.PendingDelete() &&
         !expected.IsDeleted());
  const std::string k = Key(key);
  char value[100];
  const size_t sz =
      GenerateValue(expected.NextValueBase(), value, sizeof(value));

  NoReadFaults no_read_faults(true);
  Status s = db->PutInitial(write_opts, cfh, k, Slice(value, sz));
  if (!s.IsInvalidArgument()) {
    if (ExplainedByFaults(s)) {
      if (counters.probes_inconclusive.fetch_add(
              1, std::memory_order_relaxed) == 0) {
        fprintf(stdout, "lodestone: first inconclusive probe: %s\n",
                s.ToString().c_str());
      }
      return Status::OK();
    }
    Fail(thread, "PutInitial over visible key " + Slice(k).ToString(true) +
                     " in column family " + std::to_string(cf) + " returned " +
                     s.ToString() +
                     ", expected InvalidArgument (verify_initial_puts)");
    return Status::OK();
  }
  counters.probes_refused.fetch_add(1, std::memory_order_relaxed);

  // Refused means unchanged.
  std::string from_db;
  Status g = db->Get(read_opts, cfh, k, &from_db);
  if (g.ok() && from_db.size() >= sizeof(uint32_t) &&
      GetValueBase(from_db) == expected.GetValueBase()) {
    return Status::OK();
  }
  if (ExplainedByFaults(g)) {
    return Status::OK();
  }
  char buf[200];
  snprintf(
      buf, sizeof(buf),
      "after a refused PutInitial, key %s in column family %d reads %s "
      "(value base %" PRIu32 "), expected value base %" PRIu32,
      Slice(k).ToString(true).c_str(), cf, g.ToString().c_str(),
      g.ok() && from_db.size() >= sizeof(uint32_t) ? GetValueBase(from_db) : 0,
      expected.GetValueBase());
  Fail(thread, buf);
  return Status::OK();
}

bool ShortBounds::MaybeApply(ThreadState* thread, int64_t key,
                             ReadOptions* ro) {
  if (FLAGS_lodestone_short_bounds_one_in <= 0 ||
      !thread->rand.OneIn(FLAGS_lodestone_short_bounds_one_in)) {
    return false;
  }
  static constexpr int64_t kWidths[] = {1, 2, 3, 5, 8, 16, 32};
  const int64_t width =
      kWidths[thread->rand.Uniform(static_cast<int>(std::size(kWidths)))];
  return MaybeApplyAlways(key, key + width, ro);
}

bool ShortBounds::MaybeApply(ThreadState* thread, int64_t lower, int64_t upper,
                             ReadOptions* ro) {
  if (FLAGS_lodestone_short_bounds_one_in <= 0 ||
      !thread->rand.OneIn(FLAGS_lodestone_short_bounds_one_in)) {
    return false;
  }
  return MaybeApplyAlways(lower, upper, ro);
}

bool ShortBounds::MaybeApplyAlways(int64_t lower, int64_t upper,
                                   ReadOptions* ro) {
  lower_ = Key(lower);
  upper_ = Key(upper);
  lower_slice_ = lower_;
  upper_slice_ = upper_;
  ro->iterate_lower_bound = &lower_slice_;
  ro->iterate_upper_bound = &upper_slice_;
  Counters().short_bounds.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void MaybeSecondaryDelete(ThreadState* thread, DB* db, ColumnFamilyHandle* cfh,
                          int cf) {
  if (FLAGS_secondary_delete_one_in <= 0 ||
      !thread->rand.OneIn(FLAGS_secondary_delete_one_in)) {
    return;
  }
  SharedState* shared = thread->shared;
  const int64_t max_key = shared->GetMaxKey();
  // Delete keys are one byte: [lo, hi) over byte values, hi past 0xff
  // written as "\xff\x00" (above every one-byte key, bytewise).
  const int lo = static_cast<int>(thread->rand.Uniform(256));
  const int hi = std::min(256, lo + FLAGS_secondary_delete_width);
  const std::string lo_key(1, static_cast<char>(lo));
  const std::string hi_key = hi < 256 ? std::string(1, static_cast<char>(hi))
                                      : std::string("\xff\x00", 2);
  // Every key lock of the family, in key order as every op takes them, so
  // that no write of a covered key races the call.
  std::vector<std::unique_ptr<MutexLock>> locks;
  port::Mutex* last = nullptr;
  for (int64_t k = 0; k < max_key; ++k) {
    port::Mutex* m = shared->GetMutexForKey(cf, k);
    if (m != last) {
      locks.emplace_back(new MutexLock(m));
      last = m;
    }
  }
  std::vector<PendingExpectedValue> pending;
  for (int64_t k = 0; k < max_key; ++k) {
    const std::string key = Key(k);
    const int d = static_cast<unsigned char>(key.back());
    if (d >= lo && d < hi) {
      pending.push_back(shared->PrepareDelete(cf, k));
    }
  }
  OpCounters& counters = Counters();
  Status s;
  for (;;) {
    s = DeleteByDeleteKeyRange(db, cfh, lo_key, hi_key);
    if (s.ok() || !FaultInjectionTestFS::IsInjectedError(s) ||
        status_to_io_status(Status(s)).GetDataLoss() ||
        s.severity() >= Status::Severity::kFatalError) {
      break;
    }
    // An injected error the DB recovers from, while the record may be
    // durable already: retried until it takes, as db_stress retries its
    // own writes (the call is idempotent under the locks).
    if (counters.secondary_delete_retries.fetch_add(
            1, std::memory_order_relaxed) == 0) {
      fprintf(stdout, "lodestone: first retried secondary delete: %s\n",
              s.ToString().c_str());
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (s.ok()) {
    for (PendingExpectedValue& p : pending) {
      p.Commit();
    }
    counters.secondary_deletes.fetch_add(1, std::memory_order_relaxed);
    counters.secondary_delete_keys.fetch_add(pending.size(),
                                             std::memory_order_relaxed);
    return;
  }
  if (s.IsTryAgain() || ExplainedByFaults(s)) {
    // Writes were stopped, or an earlier fault stopped the DB: the call
    // did not get to its MANIFEST write, or the DB will not take another.
    for (PendingExpectedValue& p : pending) {
      p.Rollback();
    }
    counters.secondary_delete_refused.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  for (PendingExpectedValue& p : pending) {
    p.Rollback();
  }
  Fail(thread, "DeleteByDeleteKeyRange in column family " + std::to_string(cf) +
                   " failed: " + s.ToString());
}

}  // namespace lodestone_stress
}  // namespace ROCKSDB_NAMESPACE

#endif  // GFLAGS
