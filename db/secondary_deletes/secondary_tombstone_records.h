// How VersionEdit writes and reads what secondary range deletes keep in the
// MANIFEST (patch 0045), so that version_edit.cc holds one call per field.
//
// Two fields:
//   - a record per tombstone, under VersionEdit tag
//     kLodestoneSecondaryRangeTombstone (not ignorable): a length-prefixed
//     SecondaryRangeTombstone (secondary_tombstones.h gives its bytes);
//   - a file's secondary_tombstones_applied, under the NewFile4 custom tag
//     kLodestoneSecondaryTombstonesApplied (safe to ignore): a varint64,
//     written only when not 0, so files of a DB that never issued a
//     secondary range delete are recorded exactly as stock records them.

#pragma once

#include <string>
#include <vector>

#include "db/secondary_deletes/secondary_tombstones.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

struct FileMetaData;

// Appends each tombstone as a tagged, length-prefixed record.
void EncodeSecondaryRangeTombstones(
    const std::vector<SecondaryRangeTombstone>& tombstones, std::string* dst);

// Reads one record's length-prefixed payload from `*input` (after its tag)
// into `tombstones`. Returns nullptr, or what VersionEdit::DecodeFrom
// reports as corrupt.
const char* DecodeSecondaryRangeTombstone(
    Slice* input, std::vector<SecondaryRangeTombstone>* tombstones);

// For VersionEdit::DebugString: one line per tombstone, or nothing.
std::string DescribeSecondaryRangeTombstones(
    const std::vector<SecondaryRangeTombstone>& tombstones);

// The custom field of `file`, tag and length-prefixed value, if not 0.
void EncodeSecondaryTombstonesApplied(const FileMetaData& file,
                                      std::string* dst);
// `field`: the custom field's value. False when it is not one varint64.
bool DecodeSecondaryTombstonesApplied(Slice field, FileMetaData* file);

}  // namespace ROCKSDB_NAMESPACE
