// DBOptions::verify_initial_puts: checks the PutInitial contract on write.
//
// The check must be atomic with the write: two writers that PutInitial the
// same key must not both see it absent. So it runs inside the write group,
// as a WriteCallback that does not allow batching: a writer carrying it
// always leads its own group, and the leader of a group runs after every
// earlier group has reached the memtable and published its sequence
// numbers, so a lookup at the latest sequence number sees every write
// ordered before this one and none after it. That ordering does not hold
// with unordered_write, two_write_queues or a WritePrepared /
// WriteUnprepared TransactionDB (seq_per_batch); there the option is
// refused at open (CheckInitialPutVerificationSupported).
//
// Cost: with the option on, writes that carry initial puts are not batched
// with others, and each initial put takes one point lookup inside the write
// group. Writes without initial puts are unaffected.

#pragma once

#include <cstdint>
#include <functional>

#include "db/write_callback.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class DBImpl;
class WriteBatch;

// Answers whether `key` has a visible value in column family `cf_id` in the
// DB's current state. Sets *visible to false for a column family that does
// not exist (the write path then rejects or, with
// ignore_missing_column_families, skips the record as it does for a Put).
using VisibleValueLookup =
    std::function<Status(uint32_t cf_id, const Slice& key, bool* visible)>;

// Checks every initial put of `batch`: its key must have no visible value
// when the put applies, counting the batch's own earlier records (puts,
// deletes and range deletions). Returns InvalidArgument naming the key on a
// violation; any other non-OK status is the lookup's own error.
Status VerifyInitialPutContract(const WriteBatch& batch,
                                const VisibleValueLookup& lookup);

// True if `batch` holds at least one initial put.
bool HasInitialPuts(const WriteBatch& batch);

// InvalidArgument if verify_initial_puts is set in a configuration where the
// check cannot be atomic with the write (see above). Called by DB::Open.
Status CheckInitialPutVerificationSupported(const DBOptions& db_options,
                                            bool seq_per_batch);

// The write-group check. Wraps the writer's own callback (an optimistic
// transaction's validation), which runs first.
//
// Lifetime: lives on the writer's stack for the duration of its write; `db`,
// `batch` and `inner` must outlive it.
class InitialPutContractCallback : public WriteCallback {
 public:
  InitialPutContractCallback(DBImpl* db, const WriteBatch* batch,
                             WriteCallback* inner)
      : db_(db), batch_(batch), inner_(inner) {}

  // Runs `inner`, then the contract check. A violation counts
  // INITIAL_PUT_CONTRACT_VIOLATIONS and fails the write with
  // InvalidArgument; the batch is not written.
  Status Callback(DB* db) override;

  // Never batched: the check must see every earlier write in the memtable.
  bool AllowWriteBatching() override { return false; }

 private:
  DBImpl* const db_;
  const WriteBatch* const batch_;
  WriteCallback* const inner_;
};

}  // namespace ROCKSDB_NAMESPACE
