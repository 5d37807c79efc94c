#include "db/secondary_deletes/secondary_tombstones.h"

#include <algorithm>
#include <cassert>

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

constexpr uint32_t kRecordVersion = 1;

Status Corrupt(const char* what) {
  return Status::Corruption("secondary range tombstone", what);
}

}  // namespace

void SecondaryRangeTombstone::EncodeTo(std::string* dst) const {
  assert(Slice(lo).compare(Slice(hi)) < 0);
  assert(seq > 0 && seq <= kMaxSequenceNumber);
  assert(!extractor.empty());
  PutVarint32(dst, kRecordVersion);
  PutLengthPrefixedSlice(dst, lo);
  PutLengthPrefixedSlice(dst, hi);
  PutVarint64(dst, seq);
  PutLengthPrefixedSlice(dst, extractor);
}

Status SecondaryRangeTombstone::DecodeFrom(Slice* input) {
  uint32_t version = 0;
  if (!GetVarint32(input, &version)) {
    return Corrupt("truncated version");
  }
  if (version != kRecordVersion) {
    return Corrupt("unknown version");
  }
  Slice lo_bytes, hi_bytes, extractor_bytes;
  if (!GetLengthPrefixedSlice(input, &lo_bytes) ||
      !GetLengthPrefixedSlice(input, &hi_bytes) || !GetVarint64(input, &seq) ||
      !GetLengthPrefixedSlice(input, &extractor_bytes)) {
    return Corrupt("truncated field");
  }
  if (lo_bytes.compare(hi_bytes) >= 0) {
    return Corrupt("empty delete key range");
  }
  if (seq == 0 || seq > kMaxSequenceNumber) {
    return Corrupt("sequence number out of range");
  }
  if (extractor_bytes.empty()) {
    return Corrupt("no extractor");
  }
  lo = lo_bytes.ToString();
  hi = hi_bytes.ToString();
  extractor = extractor_bytes.ToString();
  return Status::OK();
}

SecondaryTombstoneSet::SecondaryTombstoneSet(
    const std::vector<SecondaryRangeTombstone>& tombstones) {
  std::vector<std::string> ends;
  ends.reserve(2 * tombstones.size());
  for (const SecondaryRangeTombstone& t : tombstones) {
    assert(Slice(t.lo).compare(Slice(t.hi)) < 0);
    ends.push_back(t.lo);
    ends.push_back(t.hi);
  }
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  // Each end starts a fragment reaching the next end; the newest tombstone
  // wholly over it sets its seq. Quadratic in the tombstones, which are
  // few (one per call, until the files under them are rewritten).
  for (size_t i = 0; i < ends.size(); ++i) {
    SequenceNumber seq = 0;
    if (i + 1 < ends.size()) {
      for (const SecondaryRangeTombstone& t : tombstones) {
        if (t.lo <= ends[i] && ends[i + 1] <= t.hi) {
          seq = std::max(seq, t.seq);
        }
      }
    }
    if (fragments_.empty() ? seq != 0 : fragments_.back().seq != seq) {
      fragments_.push_back({ends[i], seq});
    }
  }
  assert(fragments_.empty() || fragments_.back().seq == 0);
}

std::vector<SecondaryTombstoneSet::Fragment>::const_iterator
SecondaryTombstoneSet::FragmentOf(const Slice& key) const {
  auto after = std::upper_bound(
      fragments_.begin(), fragments_.end(), key,
      [](const Slice& k, const Fragment& f) { return k.compare(f.start) < 0; });
  return after == fragments_.begin() ? fragments_.end() : after - 1;
}

bool SecondaryTombstoneSet::Covers(const Slice& delete_key,
                                   SequenceNumber seq) const {
  auto it = FragmentOf(delete_key);
  return it != fragments_.end() && seq < it->seq;
}

bool SecondaryTombstoneSet::CoversRange(const Slice& smallest,
                                        const Slice& largest,
                                        SequenceNumber largest_seq) const {
  assert(smallest.compare(largest) <= 0);
  auto it = FragmentOf(smallest);
  if (it == fragments_.end()) {
    return false;
  }
  for (; it != fragments_.end() && largest.compare(it->start) >= 0; ++it) {
    if (largest_seq >= it->seq) {
      return false;
    }
  }
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
