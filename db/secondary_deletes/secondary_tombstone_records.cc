#include "db/secondary_deletes/secondary_tombstone_records.h"

#include "db/version_edit.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

void EncodeSecondaryRangeTombstones(
    const std::vector<SecondaryRangeTombstone>& tombstones, std::string* dst) {
  for (const SecondaryRangeTombstone& t : tombstones) {
    PutVarint32(dst, Tag::kLodestoneSecondaryRangeTombstone);
    std::string record;
    t.EncodeTo(&record);
    PutLengthPrefixedSlice(dst, record);
  }
}

const char* DecodeSecondaryRangeTombstone(
    Slice* input, std::vector<SecondaryRangeTombstone>* tombstones) {
  Slice record;
  if (!GetLengthPrefixedSlice(input, &record)) {
    return "secondary range tombstone";
  }
  SecondaryRangeTombstone t;
  if (!t.DecodeFrom(&record).ok() || !record.empty()) {
    return "secondary range tombstone: corrupt record";
  }
  tombstones->push_back(std::move(t));
  return nullptr;
}

std::string DescribeSecondaryRangeTombstones(
    const std::vector<SecondaryRangeTombstone>& tombstones) {
  std::string r;
  for (const SecondaryRangeTombstone& t : tombstones) {
    r.append("\n  SecondaryRangeTombstone: [");
    r.append(Slice(t.lo).ToString(/*hex=*/true));
    r.append(", ");
    r.append(Slice(t.hi).ToString(/*hex=*/true));
    r.append(") seq ");
    r.append(std::to_string(t.seq));
    r.append(" extractor ");
    r.append(t.extractor);
    r.append(" issued_at ");
    r.append(std::to_string(t.issued_at));
  }
  return r;
}

void EncodeSecondaryTombstonesApplied(const FileMetaData& file,
                                      std::string* dst) {
  if (file.secondary_tombstones_applied == 0) {
    return;
  }
  PutVarint32(dst, NewFileCustomTag::kLodestoneSecondaryTombstonesApplied);
  std::string value;
  PutVarint64(&value, file.secondary_tombstones_applied);
  PutLengthPrefixedSlice(dst, value);
}

bool DecodeSecondaryTombstonesApplied(Slice field, FileMetaData* file) {
  uint64_t applied = 0;
  if (!GetVarint64(&field, &applied) || !field.empty() ||
      applied > kMaxSequenceNumber) {
    return false;
  }
  file->secondary_tombstones_applied = applied;
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
