// CraftMetadata (craft_filter.h): the filter's metadata block, its layout
// checks, and the partition and key-count lookups (bytes: FORMAT.md).

#include <algorithm>

#include "table/craft/craft_filter.h"
#include "util/coding.h"
#include "util/math.h"

namespace ROCKSDB_NAMESPACE {

namespace {

constexpr uint8_t kMetadataVersionNoLastKey = 1;
constexpr uint8_t kMetadataVersion = 2;  // Version 1 plus the last key.

// A key's first 8 bytes, big-endian, zero-padded: a <= b implies
// KeyHead(a) <= KeyHead(b).
uint64_t KeyHead(const Slice& key) {
  if (key.size() >= 8) {  // Every seek computes a few: one load.
    return EndianSwapValue(DecodeFixed64(key.data()));
  }
  uint64_t head = 0;
  const size_t n = std::min<size_t>(key.size(), 8);
  for (size_t i = 0; i < n; ++i) {
    head |= uint64_t{static_cast<uint8_t>(key[i])} << (56 - 8 * i);
  }
  return head;
}

// The 8 bytes of `key` after its first `prefix`, big-endian, zero-padded.
uint64_t KeyHeadAfter(const Slice& key, size_t prefix) {
  return prefix < key.size()
             ? KeyHead(Slice(key.data() + prefix, key.size() - prefix))
             : 0;
}

// The longest run of decimal digits ExpectedKeys reads as a number:
// 10^19 < 2^64.
constexpr size_t kMaxDigits = 19;

// How many of key[prefix, prefix + limit) are ASCII decimal digits before
// the first one that is not (or the key's end).
size_t DigitRun(const Slice& key, size_t prefix, size_t limit) {
  size_t n = 0;
  while (n < limit && prefix + n < key.size() && key[prefix + n] >= '0' &&
         key[prefix + n] <= '9') {
    ++n;
  }
  return n;
}

// key[prefix, prefix + digits) read as a decimal number (the caller has
// checked they are digits). Among keys that share their first `prefix`
// bytes and hold `digits` digits after them, a <= b implies
// DigitsAfter(a) <= DigitsAfter(b).
uint64_t DigitsAfter(const Slice& key, size_t prefix, size_t digits) {
  uint64_t value = 0;
  for (size_t j = 0; j < digits; ++j) {
    value = value * 10 + static_cast<uint8_t>(key[prefix + j] - '0');
  }
  return value;
}

}  // namespace

void CraftMetadata::Encode(const std::vector<CraftPartitionInfo>& partitions,
                           const Slice& last_key, std::string* out) {
  out->push_back(static_cast<char>(kMetadataVersion));
  PutVarint64(out, partitions.size());
  for (const CraftPartitionInfo& p : partitions) {
    PutLengthPrefixedSlice(out, p.first_key);
    PutVarint64(out, p.num_keys);
    PutVarint32(out, p.first_block);
    PutVarint32(out, p.last_block);
    PutVarint64(out, p.offset);
    PutVarint64(out, p.size);
  }
  PutLengthPrefixedSlice(out, last_key);
}

Status CraftMetadata::Decode(const Slice& block, CraftMetadata* metadata) {
  auto corrupt = [](const char* why) {
    return Status::Corruption("CRaFT metadata", why);
  };
  Slice in = block;
  if (in.empty() ||
      (static_cast<uint8_t>(in[0]) != kMetadataVersion &&
       static_cast<uint8_t>(in[0]) != kMetadataVersionNoLastKey)) {
    return corrupt("unknown format version");
  }
  const bool has_last_key = static_cast<uint8_t>(in[0]) == kMetadataVersion;
  in.remove_prefix(1);
  uint64_t count;
  if (!GetVarint64(&in, &count) || count > in.size()) {
    return corrupt("bad partition count");
  }
  CraftMetadata m;
  m.partitions_.resize(static_cast<size_t>(count));
  for (CraftPartitionInfo& p : m.partitions_) {
    Slice first_key;
    if (!GetLengthPrefixedSlice(&in, &first_key) ||
        !GetVarint64(&in, &p.num_keys) || !GetVarint32(&in, &p.first_block) ||
        !GetVarint32(&in, &p.last_block) || !GetVarint64(&in, &p.offset) ||
        !GetVarint64(&in, &p.size)) {
      return corrupt("truncated partition entry");
    }
    p.first_key = first_key.ToString();
    Probe probe;
    probe.head = KeyHead(first_key);
    probe.num_keys = p.num_keys;
    m.probes_.push_back(probe);
    if (p.num_keys == 0 || p.last_block < p.first_block) {
      return corrupt("empty partition or bad block range");
    }
    m.num_keys_ += p.num_keys;
  }
  if (has_last_key) {
    Slice last_key;
    if (!GetLengthPrefixedSlice(&in, &last_key) ||
        (!m.partitions_.empty() &&
         last_key.compare(m.partitions_.back().first_key) < 0)) {
      return corrupt("missing or misplaced last key");
    }
    m.last_key_ = last_key.ToString();
    m.has_last_key_ = true;
  }
  if (!in.empty()) {
    return corrupt("trailing bytes");
  }
  for (size_t i = 1; i < m.partitions_.size(); ++i) {
    if (Slice(m.partitions_[i - 1].first_key)
                .compare(m.partitions_[i].first_key) >= 0 ||
        m.partitions_[i - 1].last_block > m.partitions_[i].first_block) {
      return corrupt("partitions out of order");
    }
  }
  for (size_t i = 0; i < m.partitions_.size(); ++i) {
    const bool last = i + 1 == m.partitions_.size();
    if (last && !m.has_last_key_) {
      break;  // Unknown end: ExpectedKeys says -1.
    }
    const Slice from(m.partitions_[i].first_key);
    const Slice to(last ? m.last_key_ : m.partitions_[i + 1].first_key);
    Probe& probe = m.probes_[i];
    probe.prefix = static_cast<uint32_t>(from.difference_offset(to));
    probe.from = KeyHeadAfter(from, probe.prefix);
    probe.to = KeyHeadAfter(to, probe.prefix);
    probe.digits =
        static_cast<uint32_t>(std::min(DigitRun(from, probe.prefix, kMaxDigits),
                                       DigitRun(to, probe.prefix, kMaxDigits)));
  }
  *metadata = std::move(m);
  return Status::OK();
}

Status CraftMetadata::Decode(const Slice& block, const CraftTableLayout& layout,
                             CraftMetadata* metadata) {
  CraftMetadata m;
  Status s = Decode(block, &m);
  if (s.ok()) {
    s = m.CheckLayout(layout);
  }
  if (s.ok()) {
    *metadata = std::move(m);
  }
  return s;
}

Status CraftMetadata::CheckLayout(const CraftTableLayout& layout) const {
  auto corrupt = [](const char* why) {
    return Status::Corruption("CRaFT metadata", why);
  };
  // Back to back: each partition ends (with its trailer) where the next
  // starts, the last where the metadata does.
  for (size_t i = 0; i < partitions_.size(); ++i) {
    const CraftPartitionInfo& p = partitions_[i];
    const uint64_t next = i + 1 < partitions_.size() ? partitions_[i + 1].offset
                                                     : layout.metadata_offset;
    if (p.size == 0 || p.offset >= next ||
        next - p.offset < layout.block_trailer_size ||
        next - p.offset - layout.block_trailer_size != p.size) {
      return corrupt("partitions do not tile the filter's bytes");
    }
  }
  if (layout.num_data_blocks > 0 && !partitions_.empty() &&
      (partitions_.front().first_block != 0 ||
       partitions_.back().last_block + uint64_t{1} != layout.num_data_blocks)) {
    return corrupt("block ordinals do not span the data blocks");
  }
  if (layout.num_entries > 0 && num_keys_ > layout.num_entries) {
    return corrupt("more keys than the table has entries");
  }
  return Status::OK();
}

Status CraftMetadata::DecodePartition(size_t index, const Slice& block,
                                      CraftPartition* partition) const {
  Status s = CraftPartition::Decode(block, partition);
  if (s.ok()) {
    s = CheckPartition(index, *partition);
  }
  return s;
}

namespace {
// The key one past `key` at its width (big-endian increment), or false if
// `key` is all 0xff bytes.
bool NextKeyOfWidth(const Slice& key, std::string* next) {
  next->assign(key.data(), key.size());
  for (size_t i = next->size(); i-- > 0;) {
    if (static_cast<uint8_t>((*next)[i]) != 0xff) {
      (*next)[i] = static_cast<char>(static_cast<uint8_t>((*next)[i]) + 1);
      return true;
    }
    (*next)[i] = '\0';
  }
  return false;
}

// Whether a stored `key` is in `partition` as far as its parts can tell.
bool HoldsKey(const CraftPartition& partition, const Slice& key) {
  if (!partition.KeyMayExist(key)) {
    return false;
  }
  const RangeHash* range_hash = partition.range_hash();
  std::string next;
  return range_hash == nullptr || !NextKeyOfWidth(key, &next) ||
         range_hash->RangeMayExist(key, next);
}
}  // namespace

Status CraftMetadata::CheckPartition(size_t index,
                                     const CraftPartition& partition) const {
  auto corrupt = [](const char* why) {
    return Status::Corruption("CRaFT partition", why);
  };
  if (index >= partitions_.size()) {
    return corrupt("index out of range");
  }
  const CraftPartitionInfo& info = partitions_[index];
  if (partition.trie().num_keys() != info.num_keys) {
    return corrupt("key count differs from the metadata's");
  }
  const RangeHash* range_hash = partition.range_hash();
  if (range_hash != nullptr &&
      (range_hash->num_slots() != info.num_keys ||
       range_hash->num_values() > range_hash->num_slots() ||
       range_hash->key_bytes() != info.first_key.size())) {
    return corrupt("range hash does not cover the partition's keys");
  }
  // The first key is stored and nothing is stored before it (CountLess
  // undercounts only keys cut to the same bits as its argument, so a
  // healthy partition answers 0).
  if (!HoldsKey(partition, info.first_key) ||
      partition.trie().CountLess(info.first_key) != 0) {
    return corrupt("first key not the partition's first");
  }
  if (index + 1 == partitions_.size() && has_last_key_ &&
      !HoldsKey(partition, last_key_)) {
    return corrupt("last key not stored");
  }
  return Status::OK();
}

int CraftMetadata::FindPartition(const Slice& key) const {
  // Heads order partitions as their keys do, except that equal heads say
  // nothing: only those partitions need their first keys compared.
  const uint64_t head = KeyHead(key);
  const auto tie_end = std::upper_bound(
      probes_.begin(), probes_.end(), head,
      [](uint64_t h, const Probe& probe) { return h < probe.head; });
  if (tie_end == probes_.begin() || (tie_end - 1)->head != head) {
    return static_cast<int>(tie_end - probes_.begin()) - 1;  // No tie.
  }
  const auto tie_begin = std::lower_bound(
      probes_.begin(), tie_end, head,
      [](const Probe& probe, uint64_t h) { return probe.head < h; });
  const auto begin = partitions_.begin() + (tie_begin - probes_.begin());
  const auto end = partitions_.begin() + (tie_end - probes_.begin());
  auto it = std::upper_bound(begin, end, key,
                             [](const Slice& k, const CraftPartitionInfo& p) {
                               return k.compare(p.first_key) < 0;
                             });
  return static_cast<int>(it - partitions_.begin()) - 1;
}

bool CraftMetadata::FirstKeyBefore(size_t i, const Slice& key) const {
  const uint64_t head = KeyHead(key);
  if (probes_[i].head != head) {
    return probes_[i].head < head;
  }
  return Slice(partitions_[i].first_key).compare(key) < 0;
}

double CraftMetadata::ExpectedKeys(const Slice& lo, const Slice& hi) const {
  const int p = FindPartition(lo);
  if (p < 0) {
    // Before the first key: [lo, hi) holds that key or nothing.
    return partitions_.empty() || !FirstKeyBefore(0, hi)
               ? 0
               : static_cast<double>(probes_[0].num_keys) + 1;
  }
  const size_t i = static_cast<size_t>(p);
  if (i + 1 < partitions_.size() && FirstKeyBefore(i + 1, hi)) {
    return static_cast<double>(probes_[i].num_keys) + 1;  // A key in it.
  }
  const Probe& probe = probes_[i];
  if (probe.to <= probe.from) {
    return -1;  // No end known, or ends too close for 8 bytes to tell.
  }
  // Keys within the range share its prefix. lo is at or after its first key;
  // hi is at most the next partition's first key, or past the last key.
  const bool last = i + 1 == partitions_.size();
  if (last && lo.compare(last_key_) > 0) {
    return 0;
  }
  const bool hi_past_end = last && hi.compare(last_key_) > 0;
  uint64_t from = probe.from;
  uint64_t to = probe.to;
  uint64_t lo_at = 0;
  uint64_t hi_at = 0;
  if (probe.digits != 0) {
    // The ends differ first in a number printed in decimal (an id): read
    // as bytes, each digit position would span 256 values where it uses
    // 10, and a scan over ten ids would look like a tenth of a key or
    // less. Read as numbers, the run of digits all four keys hold there.
    // (Only that run: what follows a separator is another field, whose
    // values repeat under each value of this one.)
    const Slice end(last ? last_key_ : partitions_[i + 1].first_key);
    const Slice high = hi_past_end ? end : hi;
    const size_t digits = std::min(DigitRun(lo, probe.prefix, probe.digits),
                                   DigitRun(high, probe.prefix, probe.digits));
    lo_at = DigitsAfter(lo, probe.prefix, digits);
    hi_at = DigitsAfter(high, probe.prefix, digits);
    if (hi_at > lo_at) {
      from = DigitsAfter(partitions_[i].first_key, probe.prefix, digits);
      to = DigitsAfter(end, probe.prefix, digits);
    }
  }
  if (hi_at <= lo_at) {
    // Bytes, one load per key: no digits, or lo and hi differ only past
    // the run (or a byte that happens to be a digit in binary keys).
    lo_at = KeyHeadAfter(lo, probe.prefix);
    hi_at = hi_past_end ? to : KeyHeadAfter(hi, probe.prefix);
  }
  // (lo is at or after the partition's first key and hi at most its end,
  // so hi_at > lo_at implies to > from in either reading.)
  if (hi_at <= lo_at) {
    return 0;
  }
  return static_cast<double>(probe.num_keys) *
         (static_cast<double>(hi_at - lo_at) / static_cast<double>(to - from));
}

}  // namespace ROCKSDB_NAMESPACE
