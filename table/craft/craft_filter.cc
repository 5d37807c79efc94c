#include "table/craft/craft_filter.h"

#include <algorithm>
#include <cmath>

#include "table/craft/common_prefix.h"
#include "util/coding.h"
#include "util/math.h"

namespace ROCKSDB_NAMESPACE {

namespace {

constexpr uint8_t kMetadataVersionNoLastKey = 1;
constexpr uint8_t kMetadataVersion = 2;  // Version 1 plus the last key.

}  // namespace

// ---- Builder ----

CraftFilterBuilder::CraftFilterBuilder(const CraftFilterOptions& options)
    : options_(options),
      sampling_(options.key_coding && options.trie.compact_labels),
      trie_(options.trie),
      range_hash_(options.range_hash_bits) {
  if (options_.partition_size == 0) {
    options_.partition_size = CraftFilterOptions::kDefaultPartitionSize;
  }
}

void CraftFilterBuilder::Add(const Slice& user_key, uint32_t data_block) {
  if (!sampling_) {
    AddKey(user_key, data_block);
    return;
  }
  if (sample_.empty()) {
    // The sample's whole size at once, not a dozen regrowths per table.
    sample_keys_.reserve(CraftFilterOptions::kKeyCodeSampleBytes);
    sample_.reserve(CraftFilterOptions::kKeyCodeSampleBytes / 32);
  }
  sample_keys_.append(user_key.data(), user_key.size());
  sample_.emplace_back(static_cast<uint32_t>(sample_keys_.size()), data_block);
  if (sample_keys_.size() + sample_.size() >=
      CraftFilterOptions::kKeyCodeSampleBytes) {
    ChooseKeyCode();
  }
}

namespace {

// Whether a prefix code of bytes with these weights could spend at most 7
// bits per byte: never when their entropy exceeds 7 bits (Shannon's bound
// holds for every prefix code, alphabetic ones included).
bool CodeCanSaveAnEighth(const uint64_t (&weights)[256], uint64_t total) {
  double entropy_bits = 0;
  for (uint64_t w : weights) {
    if (w > 0) {
      entropy_bits +=
          static_cast<double>(w) * std::log2(static_cast<double>(total) / w);
    }
  }
  // A hair of slack so rounding never skips a code that qualifies.
  return entropy_bits <= 7.0 * static_cast<double>(total) * (1 + 1e-9);
}

}  // namespace

void CraftFilterBuilder::ChooseKeyCode() {
  std::vector<Slice> keys;  // Distinct, in order.
  keys.reserve(sample_.size());
  uint32_t begin = 0;
  for (const auto& entry : sample_) {
    const Slice key(sample_keys_.data() + begin, entry.first - begin);
    begin = entry.first;
    if (keys.empty() || !SameKey(key, keys.back())) {
      keys.push_back(key);
    }
  }
  // Weigh the bytes the trie will store: each key's bytes after the prefix
  // it shares with the previous key, to one past its cut (a suffix byte).
  uint64_t weights[256] = {};
  uint64_t total = 0;
  size_t lcp_prev = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const size_t lcp_next =
        i + 1 < keys.size() ? CommonPrefixLength(keys[i], keys[i + 1]) : 0;
    const size_t end =
        std::min(keys[i].size(), std::max(lcp_prev, lcp_next) + 2);
    for (size_t d = lcp_prev; d < end; ++d) {
      ++weights[static_cast<uint8_t>(keys[i][d])];
      ++total;
    }
    lcp_prev = lcp_next;
  }
  options_.trie.key_code.reset();
  if (total > 0 && CodeCanSaveAnEighth(weights, total)) {
    auto code = std::make_shared<OrderPreservingCode>(
        OrderPreservingCode::Optimal(weights));
    // Worth a format 3 partition when it saves an eighth of the bits.
    if (code->CodedBits(weights) <= total * 7 &&
        CodedTrialIsSmaller(keys, code)) {
      options_.trie.key_code = std::move(code);
    }
  }
  trie_ = LoudsSparseBuilder(options_.trie);
  sampling_ = false;
  begin = 0;
  for (const auto& [end, data_block] : sample_) {
    AddKey(Slice(sample_keys_.data() + begin, end - begin), data_block);
    begin = end;
  }
  sample_.clear();
  sample_.shrink_to_fit();
  sample_keys_.clear();
  sample_keys_.shrink_to_fit();
}

bool CraftFilterBuilder::CodedTrialIsSmaller(
    const std::vector<Slice>& keys,
    const std::shared_ptr<OrderPreservingCode>& code) const {
  LoudsSparseOptions plain_options = options_.trie;
  plain_options.key_code.reset();
  LoudsSparseOptions coded_options = plain_options;
  coded_options.key_code = code;
  LoudsSparseBuilder plain(plain_options);
  LoudsSparseBuilder coded(coded_options);
  size_t bytes = 0;
  for (const Slice& key : keys) {
    if (bytes >= CraftFilterOptions::kKeyCodeTrialBytes) {
      break;
    }
    plain.Add(key);
    coded.Add(key);
    bytes += key.size() + 1;
  }
  std::string plain_trie, coded_trie;
  plain.Finish(&plain_trie);
  coded.Finish(&coded_trie);
  return coded_trie.size() < plain_trie.size();
}

void CraftFilterBuilder::AddKey(const Slice& user_key, uint32_t data_block) {
  if (has_last_key_ && SameKey(user_key, last_key_)) {
    current_.last_block = std::max(current_.last_block, data_block);
    return;  // An older version of the same key.
  }
  if (trie_.num_keys() > 0 &&
      trie_.EstimatedSize() + range_hash_.EstimatedSize() >=
          options_.partition_size) {
    CutPartition();
  }
  if (trie_.num_keys() == 0) {
    current_ = CraftPartitionInfo();
    current_.first_key.assign(user_key.data(), user_key.size());
    current_.first_block = data_block;
  }
  trie_.Add(user_key);
  if (options_.range_hash_bits > 0) {
    range_hash_.Add(user_key);
  }
  current_.last_block = data_block;
  ++current_.num_keys;
  ++num_keys_;
  last_key_.assign(user_key.data(), user_key.size());
  has_last_key_ = true;
}

void CraftFilterBuilder::CutPartition() {
  std::string trie;
  trie_.Finish(&trie);
  std::string range_hash;
  if (options_.range_hash_bits > 0) {
    range_hash_.Finish(&range_hash);
  }
  std::string block;
  CraftPartition::Encode(trie, range_hash, &block);
  partitions_.push_back(std::move(block));
  infos_.push_back(current_);
}

void CraftFilterBuilder::Finish(std::vector<std::string>* partitions,
                                std::vector<CraftPartitionInfo>* infos,
                                std::string* last_key) {
  if (sampling_) {
    ChooseKeyCode();
  }
  if (trie_.num_keys() > 0) {
    CutPartition();
  }
  *partitions = std::move(partitions_);
  *infos = std::move(infos_);
  *last_key = has_last_key_ ? last_key_ : std::string();
  partitions_.clear();
  infos_.clear();
  has_last_key_ = false;
  num_keys_ = 0;
  sampling_ = options_.key_coding && options_.trie.compact_labels;
}

// ---- Metadata ----

namespace {

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
  const uint64_t lo_at = KeyHeadAfter(lo, probe.prefix);
  const uint64_t hi_at = last && hi.compare(last_key_) > 0
                             ? probe.to
                             : KeyHeadAfter(hi, probe.prefix);
  if (hi_at <= lo_at) {
    return 0;
  }
  return static_cast<double>(probe.num_keys) *
         (static_cast<double>(hi_at - lo_at) /
          static_cast<double>(probe.to - probe.from));
}

// ---- Reader ----

bool CraftFilterReader::RangeMayExist(const Slice& lo, const Slice& hi,
                                      const CraftPartitionLoader& loader,
                                      Status* status) const {
  const auto& parts = metadata_.partitions();
  if (parts.empty() || hi.compare(lo) <= 0) {
    return false;
  }
  const int p = metadata_.FindPartition(lo);
  // A partition's first key is a stored key: if the next one starts inside
  // the range, the answer needs no trie.
  const size_t next = static_cast<size_t>(p + 1);
  if (next < parts.size() && metadata_.FirstKeyBefore(next, hi)) {
    return true;
  }
  if (p < 0 && !confirm_first_keys_) {
    return false;  // lo sorts before every key and the first key is >= hi.
  }
  // Before every key, with confirm_first_keys_, the first partition's trie
  // answers instead of its first key alone.
  if (PartitionMayHold(static_cast<size_t>(std::max(p, 0)), lo, hi, loader,
                       status)) {
    return true;
  }
  // The next partition's first key said the range ends before it.
  return confirm_first_keys_ && p >= 0 && next < parts.size() &&
         PartitionMayHold(next, lo, hi, loader, status);
}

bool CraftFilterReader::PartitionMayHold(size_t index, const Slice& lo,
                                         const Slice& hi,
                                         const CraftPartitionLoader& loader,
                                         Status* status) const {
  const CraftPartition* partition = nullptr;
  Cleanable pin;  // Holds the partition (e.g. its block cache entry).
  Status s = loader(index, &partition, &pin);
  if (!s.ok() || partition == nullptr) {
    if (status != nullptr) {
      *status = s;
    }
    return true;  // Never a false negative, even on a damaged partition.
  }
  return partition->RangeMayExist(lo, hi);
}

uint64_t CraftFilterReader::EstimateKeys(
    const Slice& lo, const Slice& hi,
    const CraftPartitionLoader* loader) const {
  const auto& parts = metadata_.partitions();
  if (parts.empty() || hi.compare(lo) <= 0) {
    return 0;
  }
  const int first = std::max(0, metadata_.FindPartition(lo));
  const int last = metadata_.FindPartition(hi);
  if (last < first) {
    return 0;
  }
  // Keys of partition p in [lo, hi): by its trie, else half of them.
  auto edge = [&](int p) -> uint64_t {
    if (loader != nullptr) {
      const CraftPartition* partition = nullptr;
      Cleanable pin;
      if ((*loader)(static_cast<size_t>(p), &partition, &pin).ok() &&
          partition != nullptr) {
        const uint64_t below_hi = partition->trie().CountLess(hi);
        const uint64_t below_lo = partition->trie().CountLess(lo);
        return below_hi > below_lo ? below_hi - below_lo : 0;
      }
    }
    return parts[static_cast<size_t>(p)].num_keys / 2;
  };
  if (first == last) {
    return edge(first);
  }
  uint64_t keys = edge(first) + edge(last);
  for (int i = first + 1; i < last; ++i) {
    keys += parts[static_cast<size_t>(i)].num_keys;
  }
  return keys;
}

bool CraftFilterReader::BlockRange(const Slice& lo, uint32_t* first_block,
                                   uint32_t* last_block) const {
  const int p = metadata_.FindPartition(lo);
  if (p < 0) {
    return false;
  }
  *first_block = metadata_.partitions()[static_cast<size_t>(p)].first_block;
  *last_block = metadata_.partitions()[static_cast<size_t>(p)].last_block;
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
