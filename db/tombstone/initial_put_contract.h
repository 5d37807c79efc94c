// DBOptions::verify_initial_puts: checks the PutInitial contract on write.

#pragma once

#include <cstdint>
#include <functional>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class WriteBatch;

// Answers whether `key` has a visible value in column family `cf_id` in the
// DB's current state.
using VisibleValueLookup =
    std::function<Status(uint32_t cf_id, const Slice& key, bool* visible)>;

// Checks every initial put of `batch`: its key must have no visible value
// when the put applies, counting the batch's own earlier records. Returns
// InvalidArgument naming the key on a violation (the batch is not written).
Status VerifyInitialPutContract(const WriteBatch& batch,
                                const VisibleValueLookup& lookup);

}  // namespace ROCKSDB_NAMESPACE
