#include "db/secondary_deletes/secondary_tombstones.h"

#include <algorithm>
#include <cassert>

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// What EncodeTo writes; DecodeFrom also reads version 1 (no issued_at).
constexpr uint32_t kRecordVersion = 2;

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
  PutVarint64(dst, issued_at);
}

Status SecondaryRangeTombstone::DecodeFrom(Slice* input) {
  uint32_t version = 0;
  if (!GetVarint32(input, &version)) {
    return Corrupt("truncated version");
  }
  if (version != 1 && version != kRecordVersion) {
    return Corrupt("unknown version");
  }
  Slice lo_bytes, hi_bytes, extractor_bytes;
  if (!GetLengthPrefixedSlice(input, &lo_bytes) ||
      !GetLengthPrefixedSlice(input, &hi_bytes) || !GetVarint64(input, &seq) ||
      !GetLengthPrefixedSlice(input, &extractor_bytes)) {
    return Corrupt("truncated field");
  }
  issued_at = 0;
  if (version >= 2 && !GetVarint64(input, &issued_at)) {
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
  // Each end starts a fragment reaching the next end, under every tombstone
  // wholly over it. Quadratic in the tombstones, which are few (one per
  // call, until the files under them are rewritten).
  for (size_t i = 0; i < ends.size(); ++i) {
    std::vector<SequenceNumber> seqs;
    if (i + 1 < ends.size()) {
      for (const SecondaryRangeTombstone& t : tombstones) {
        if (t.lo <= ends[i] && ends[i + 1] <= t.hi) {
          seqs.push_back(t.seq);
        }
      }
      std::sort(seqs.begin(), seqs.end());
    }
    if (fragments_.empty() ? !seqs.empty() : fragments_.back().seqs != seqs) {
      fragments_.push_back({ends[i], std::move(seqs)});
    }
  }
  assert(fragments_.empty() || fragments_.back().seqs.empty());
}

std::vector<SecondaryTombstoneSet::Fragment>::const_iterator
SecondaryTombstoneSet::FragmentOf(const Slice& key) const {
  auto after = std::upper_bound(
      fragments_.begin(), fragments_.end(), key,
      [](const Slice& k, const Fragment& f) { return k.compare(f.start) < 0; });
  return after == fragments_.begin() ? fragments_.end() : after - 1;
}

bool SecondaryTombstoneSet::CoversIn(const Fragment& f,
                                     SequenceNumber entry_seq,
                                     SequenceNumber read_seq) {
  auto first_after = std::upper_bound(f.seqs.begin(), f.seqs.end(), entry_seq);
  return first_after != f.seqs.end() && *first_after <= read_seq;
}

bool SecondaryTombstoneSet::Covers(const Slice& delete_key,
                                   SequenceNumber entry_seq,
                                   SequenceNumber read_seq) const {
  auto it = FragmentOf(delete_key);
  return it != fragments_.end() && CoversIn(*it, entry_seq, read_seq);
}

bool SecondaryTombstoneSet::CoversRange(const Slice& smallest,
                                        const Slice& largest,
                                        SequenceNumber largest_seq,
                                        SequenceNumber read_seq) const {
  assert(smallest.compare(largest) <= 0);
  auto it = FragmentOf(smallest);
  if (it == fragments_.end()) {
    return false;
  }
  // A tombstone in (largest_seq, read_seq] covers every entry at or below
  // largest_seq.
  for (; it != fragments_.end() && largest.compare(it->start) >= 0; ++it) {
    if (!CoversIn(*it, largest_seq, read_seq)) {
      return false;
    }
  }
  return true;
}

bool SecondaryTombstoneSet::Overlaps(const Slice& smallest,
                                     const Slice& largest,
                                     SequenceNumber read_seq) const {
  assert(smallest.compare(largest) <= 0);
  auto it = FragmentOf(smallest);
  if (it == fragments_.end()) {
    it = fragments_.begin();
  }
  for (; it != fragments_.end() && largest.compare(it->start) >= 0; ++it) {
    if (!it->seqs.empty() && it->seqs.front() <= read_seq) {
      return true;
    }
  }
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
