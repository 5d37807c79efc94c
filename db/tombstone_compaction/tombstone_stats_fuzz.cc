// Fuzz target tombstone_stats: the tombstone statistics a MANIFEST record
// (a VersionEdit) carries for a new file under Lodestone's custom tag, as
// VersionEdit::DecodeFrom meets them on recovery. The input is the field;
// the rest of the record is a valid edit (upstream's own fields are
// upstream's to fuzz: its debug builds assert on some damaged keys that
// release builds refuse). An accepted edit must write itself back: its
// encoding decodes, and encodes to the same bytes, with the same
// statistics.

#include "db/tombstone_compaction/tombstone_stats.h"
#include "db/version_edit.h"
#include "tests/fuzz/fuzz_target.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

FileMetaData File(uint64_t number, uint64_t tombstones, uint64_t oldest) {
  FileMetaData meta;
  meta.fd = FileDescriptor(number, /*path_id=*/0, /*file_size=*/4096 * number,
                           /*smallest_seqno=*/10, /*largest_seqno=*/20);
  meta.smallest = InternalKey("a" + std::to_string(number), 10, kTypeValue);
  meta.largest = InternalKey("z", 20, kTypeDeletion);
  meta.epoch_number = number;
  meta.tombstone_stats.known = true;
  meta.tombstone_stats.count = tombstones;
  meta.tombstone_stats.window = 32;
  meta.tombstone_stats.window_peak = static_cast<uint32_t>(tombstones % 33);
  meta.tombstone_stats.oldest_time = oldest;
  return meta;
}

// The statistics field of `meta` as it stands in the MANIFEST: its tag,
// then the length-prefixed field.
std::string TaggedField(const std::string& field) {
  std::string tagged;
  PutVarint32(&tagged, NewFileCustomTag::kLodestoneTombstoneStats);
  PutLengthPrefixedSlice(&tagged, field);
  return tagged;
}

// An edit adding three files, the second with tombstone statistics.
std::string EditBytes() {
  VersionEdit edit;
  edit.SetLogNumber(5);
  edit.SetNextFile(100);
  edit.SetLastSequence(1000);
  FileMetaData plain = File(20, 0, 0);
  plain.tombstone_stats.known = false;  // Written with the feature off.
  edit.AddFile(1, plain);
  edit.AddFile(2, File(8, 300, 1700000000));
  edit.AddFile(3, plain);
  std::string bytes;
  if (!edit.EncodeTo(&bytes, /*ts_sz=*/0)) {
    fuzz::FuzzFail("the edit encodes", "");
  }
  return bytes;
}

// The edit's bytes with `field` in place of its statistics field.
std::string EditWithField(const Slice& field) {
  static const std::string edit = EditBytes();
  std::string stats;
  EncodeTombstoneStats(File(8, 300, 1700000000), &stats);
  static const std::string tagged = TaggedField(stats);
  const size_t at = edit.find(tagged);
  if (at == std::string::npos) {
    fuzz::FuzzFail("the edit holds the statistics field", "");
  }
  return edit.substr(0, at) + TaggedField(field.ToString()) +
         edit.substr(at + tagged.size());
}

std::vector<std::string> Seeds() {
  std::vector<std::string> seeds;
  for (uint64_t tombstones : {uint64_t{0}, uint64_t{1}, uint64_t{300},
                              uint64_t{1} << 40, ~uint64_t{0}}) {
    std::string field;
    EncodeTombstoneStats(File(8, tombstones, 1700000000 + tombstones), &field);
    seeds.push_back(std::move(field));
  }
  return seeds;
}

std::string Stats(const VersionEdit& edit) {
  std::string out;
  for (const auto& [level, f] : edit.GetNewFiles()) {
    out += std::to_string(level) + ":" + std::to_string(f.fd.GetNumber());
    if (f.tombstone_stats.known) {
      EncodeTombstoneStats(f, &out);
    }
    out += ';';
  }
  return out;
}

bool Run(const Slice& input) {
  VersionEdit edit;
  if (!edit.DecodeFrom(EditWithField(input)).ok()) {
    return false;
  }
  std::string encoded;
  if (!edit.EncodeTo(&encoded, /*ts_sz=*/0)) {
    return true;  // Fields an edit cannot carry are refused at encoding.
  }
  VersionEdit again;
  if (!again.DecodeFrom(encoded).ok()) {
    fuzz::FuzzFail("an accepted edit's encoding decodes", "");
  }
  std::string reencoded;
  if (!again.EncodeTo(&reencoded, /*ts_sz=*/0) || reencoded != encoded) {
    fuzz::FuzzFail("an accepted edit encodes the same twice", "");
  }
  if (Stats(again) != Stats(edit)) {
    fuzz::FuzzFail("tombstone statistics survive a round trip", "");
  }
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(tombstone_stats, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
