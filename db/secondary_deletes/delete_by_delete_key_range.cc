// DeleteByDeleteKeyRange (rocksdb/secondary_delete.h): how a secondary range
// tombstone is issued.
//
// The tombstone (lo, hi, S) must enter the column family's version at a
// point where every write before the call is in a table file and no write
// at or above S is anywhere yet: then memtables never hold an entry it
// covers (live_secondary_tombstones.h relies on it), and no flush or
// compaction that runs without knowing it can hold an entry above it (one
// could zero the entry's sequence number, or fold merge operands across S).
//
// So the call flushes the family's memtables, then, in the write thread
// (no write in flight), checks that they are still empty: if so it takes S,
// the next sequence number, and applies the tombstone to the MANIFEST and a
// new SuperVersion before it lets writes go on. If writes came in during
// the flush it flushes again. The last attempt flushes while holding the
// write thread, as file ingestion does when it must flush, so that the call
// ends under any write load. Writes wait for the switches and for one
// MANIFEST write; the flushes run beside them.

#include <string>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/db_impl_access/db_impl_access.h"
#include "db/secondary_deletes/live_secondary_tombstones.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/secondary_delete.h"
#include "rocksdb/system_clock.h"
#include "util/cast_util.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Flushes that writes may refill before the call takes the write thread
// for good.
constexpr int kMaxAttempts = 4;

// The tombstone may enter cfd's version: the family still exists and its
// memtables hold nothing (no write below the tombstone is in them).
// REQUIRES: DB mutex held, write thread entered.
Status MayInstall(ColumnFamilyData* cfd, const void* arg) {
  const auto* tombstone = static_cast<const SecondaryRangeTombstone*>(arg);
  if (cfd->IsDropped()) {
    return Status::InvalidArgument("column family " + cfd->GetName() +
                                   " was dropped");
  }
  const std::shared_ptr<const LiveSecondaryTombstones>& live =
      cfd->current()->storage_info()->secondary_tombstones();
  // Tombstones enter in the write thread, in the order of their numbers.
  assert(live == nullptr || live->watermark() < tombstone->seq);
  if (live != nullptr && live->watermark() >= tombstone->seq) {
    return Status::Corruption("secondary range tombstone out of order");
  }
  if (!cfd->mem()->IsEmpty() || cfd->imm()->NumNotFlushed() != 0) {
    return Status::Busy("writes reached the memtable");
  }
  return Status::OK();
}

}  // namespace

Status DeleteByDeleteKeyRange(DB* db, ColumnFamilyHandle* column_family,
                              const Slice& lo, const Slice& hi) {
  if (db == nullptr || column_family == nullptr) {
    return Status::InvalidArgument(
        "DeleteByDeleteKeyRange: no DB or column family");
  }
  if (lo.compare(hi) >= 0) {
    return Status::InvalidArgument(
        "DeleteByDeleteKeyRange: lo must be below hi (bytewise), not [" +
        lo.ToString(/*hex=*/true) + ", " + hi.ToString(/*hex=*/true) + ")");
  }
  auto* impl = static_cast_with_check<DBImpl>(db->GetRootDB());
  ColumnFamilyData* cfd =
      static_cast<ColumnFamilyHandleImpl*>(column_family)->cfd();
  // Not changeable by SetOptions; read under the DB mutex all the same.
  const std::shared_ptr<const DeleteKeyExtractor> extractor =
      impl->GetOptions(column_family).delete_key_extractor;
  if (extractor == nullptr) {
    return Status::InvalidArgument("column family " + cfd->GetName() +
                                   " has no delete_key_extractor");
  }
  // While the DB has a background error no flush can finish, and each one
  // asked for keeps a flush job scheduled, which the recovery waits out:
  // callers that retry every second would keep the DB from recovering.
  Status s = DBImplAccess::BackgroundError(impl);
  if (!s.ok()) {
    return s;
  }
  // The first flush goes through DB::Flush, which read-only, compacted,
  // secondary and follower instances refuse: it is also the check that
  // this DB takes writes (release builds have no RTTI to ask with).
  s = db->Flush(FlushOptions(), column_family);
  if (s.IsNotSupported()) {
    return Status::NotSupported(
        "DeleteByDeleteKeyRange needs a DB open for writes", s.ToString());
  }
  if (!s.ok()) {
    return s;
  }
  SecondaryRangeTombstone tombstone;
  tombstone.lo = lo.ToString();
  tombstone.hi = hi.ToString();
  tombstone.extractor = DescribeExtractor(*extractor);
  // REQUIRES: write thread entered, the family's memtables empty.
  auto install = [&]() {
    tombstone.seq = DBImplAccess::TakeSequenceNumber(impl);
    // Where a delete-persistence deadline counts from; unknown (0) if the
    // clock fails, which the deadline treats as overdue.
    int64_t now = 0;
    tombstone.issued_at =
        impl->immutable_db_options().clock->GetCurrentTime(&now).ok() && now > 0
            ? static_cast<uint64_t>(now)
            : 0;
    VersionEdit edit;
    edit.SetColumnFamily(cfd->GetID());
    edit.AddSecondaryRangeTombstone(tombstone);
    // The MANIFEST records the number the tombstone took: no write holds it,
    // so without this a reopened DB would number its next writes at or
    // below it, and read the latest state below it.
    edit.SetLastSequence(tombstone.seq);
    return DBImplAccess::ApplyEdit(impl, cfd, &edit, MayInstall, &tombstone);
  };
  for (int attempt = 1; attempt <= kMaxAttempts; ++attempt) {
    uint64_t memtable_id = 0;
    {
      DBImplAccess::WriteThreadEntry entry(impl);
      if (DBImplAccess::MemtablesEmpty(impl, cfd)) {
        s = install();
        break;
      }
      bool all_column_families = false;
      s = DBImplAccess::FlushFromWriteThread(impl, cfd, &all_column_families);
      if (s.ok()) {
        memtable_id = DBImplAccess::NewestImmutableMemTableId(impl, cfd);
      }
      if (s.ok() && attempt == kMaxAttempts) {
        // Writes wait for this flush: nothing can refill the memtables.
        s = DBImplAccess::WaitForFlush(impl, cfd, memtable_id);
        if (s.ok()) {
          s = install();
        }
        break;
      }
    }
    if (s.ok()) {
      s = DBImplAccess::WaitForFlush(impl, cfd, memtable_id);
    }
    if (!s.ok()) {
      break;
    }
  }
  if (s.ok()) {
    RecordTick(impl->immutable_db_options().stats,
               SECONDARY_DELETE_TOMBSTONES_ADDED);
  }
  return s;
}

}  // namespace ROCKSDB_NAMESPACE
