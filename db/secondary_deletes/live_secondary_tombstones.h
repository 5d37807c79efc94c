// The secondary range tombstones a column family's version holds, and when
// one retires (docs/kiwi.md, "Tombstones in the version").
//
// A tombstone T covers the puts below T.seq whose delete key lies in its
// range. It lives in the MANIFEST (VersionEdit tag
// kLodestoneSecondaryRangeTombstone, patch 0045) and in every version from
// the one its call installed until no table file may still hold a put it
// covers. Memtables never hold one: DeleteByDeleteKeyRange flushes them
// before the tombstone is installed, and every later write is at or above
// T.seq.
//
// A file F may hold a put T covers unless
//   F.smallest_seqno >= T.seq                  (all of F was written after
//                                               T), or
//   F.secondary_tombstones_applied >= T.seq    (the job that wrote F
//                                               dropped what T covers).
// A job applies every tombstone of its input version, and marks its outputs
// with that version's watermark: the newest tombstone ever added to the
// column family. Calls install tombstones in sequence number order (the
// call retries when a newer one got in first), so a version holding the
// watermark W holds every live tombstone at or below W.
//
// Retirement is a pure function of the files: SaveTo drops T once no file
// may hold what it covers. Whatever the order and grouping in which edits
// are applied (at run time, or replayed from the MANIFEST at recovery), the
// same files give the same tombstones, provided no file written after T
// retired looks as if it might hold what T covers: T would come back to life
// when the MANIFEST is replayed and cover the entries that compactions
// zeroed since. Every such file has a mark at or above T: compactions mark
// their outputs with the watermark, which outlives the last live tombstone;
// flushes write entries above every tombstone; file ingestion takes a
// sequence number above 0 while the version has a watermark (patch 0048);
// ingest-behind and remote compaction, which cannot, are refused with a
// delete key extractor (options/lodestone/option_checks.cc). A rewritten
// MANIFEST holds only live tombstones, so a retired one is then gone.
//
// Immutable once built; shared by the versions that follow, read by any
// thread without a lock.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/secondary_deletes/secondary_tombstones.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilySet;
class DeleteKeyExtractor;
class Statistics;
class VersionEdit;
class VersionStorageInfo;
struct FileMetaData;
struct SuperVersion;

class LiveSecondaryTombstones {
 public:
  // REQUIRES: `tombstones` sorted by seq, each valid as EncodeTo requires,
  // none above `watermark`.
  LiveSecondaryTombstones(std::vector<SecondaryRangeTombstone> tombstones,
                          SequenceNumber watermark);

  bool empty() const { return tombstones_.empty(); }
  // By sequence number, oldest first.
  const std::vector<SecondaryRangeTombstone>& tombstones() const {
    return tombstones_;
  }
  const SecondaryTombstoneSet& set() const { return set_; }
  // The newest tombstone ever added to the column family, live or retired;
  // what a job applying this version's tombstones marks its outputs with.
  SequenceNumber watermark() const { return watermark_; }
  // The oldest live tombstone's sequence number; kMaxSequenceNumber when
  // none is live. A compaction keeps the sequence numbers at or above it
  // (zeroed, a newer put would look older than a tombstone over it).
  SequenceNumber oldest_seq() const {
    return tombstones_.empty() ? kMaxSequenceNumber : tombstones_.front().seq;
  }

  // Whether `file` may hold a put that `tombstone` covers.
  static bool MayHoldCovered(const FileMetaData& file,
                             const SecondaryRangeTombstone& tombstone);

  // Under a delete-persistence deadline of `threshold_seconds` (FADE), the
  // Unix time from which every file that may hold what `tombstone` covers
  // is due for a compaction (db/tombstone_compaction/
  // tombstone_candidates.h): half the deadline after the call. Unlike a
  // point tombstone, which must travel down the levels, what a secondary
  // one covers leaves in one compaction of each file holding it, which may
  // be every file of the column family: the other half is for those
  // compactions. 0 (due at once) when the tombstone's issue time is
  // unknown. REQUIRES: threshold_seconds > 0.
  static uint64_t DueAt(const SecondaryRangeTombstone& tombstone,
                        uint64_t threshold_seconds) {
    return tombstone.issued_at == 0
               ? 0
               : tombstone.issued_at + threshold_seconds / 2;
  }

 private:
  const std::vector<SecondaryRangeTombstone> tombstones_;
  const SecondaryTombstoneSet set_;
  const SequenceNumber watermark_;
};

// VersionBuilder::SaveTo (patch 0045): `vstorage`, whose files are saved,
// gets `base`'s tombstones plus `added`, less those no file of `vstorage`
// may hold a covered put for (counted in
// SECONDARY_DELETE_TOMBSTONES_RETIRED). Keeps `base`'s object when nothing
// changes; leaves none while no tombstone was ever added.
void SaveSecondaryTombstonesTo(
    const VersionStorageInfo& base,
    const std::vector<SecondaryRangeTombstone>& added, Statistics* stats,
    VersionStorageInfo* vstorage);

// VersionSet::WriteCurrentStateToManifest (patch 0045): `edit`, which holds
// `vstorage`'s files, gets its live tombstones and each file's
// secondary_tombstones_applied (which AddFile's long form leaves at 0).
void AddSecondaryTombstoneState(const VersionStorageInfo& vstorage,
                                VersionEdit* edit);

// VersionSet::Recover (patch 0045): every column family holding live
// tombstones has the delete key extractor they were issued under;
// InvalidArgument naming the family and both extractors otherwise, so that
// a DB never reads covered puts back with the wrong extractor or none.
Status CheckSecondaryTombstoneExtractors(ColumnFamilySet& families);

// The extractor's options string, as a tombstone records it.
std::string DescribeExtractor(const DeleteKeyExtractor& extractor);

// File ingestion (patch 0048): whether its files need a sequence number
// above 0, because `sv`'s version has a watermark (a tombstone was added
// since the MANIFEST was written, live or retired). A file at 0 would look
// older than the tombstone and keep it, or bring it back, live.
bool SecondaryTombstonesNeedSeqno(const SuperVersion& sv);

}  // namespace ROCKSDB_NAMESPACE
