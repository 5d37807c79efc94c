// CraftFilterBuilder (craft_filter.h): partitions of a table's keys, each
// trie built with the key code chosen by a trial on a sample of its keys.

#include <algorithm>
#include <cmath>

#include "table/craft/common_prefix.h"
#include "table/craft/craft_filter.h"

namespace ROCKSDB_NAMESPACE {

CraftFilterBuilder::CraftFilterBuilder(const CraftFilterOptions& options)
    : given_options_(options),
      options_(options),
      sampling_(options.key_coding && options.trie.compact_labels),
      trie_(options.trie),
      range_hash_(options.range_hash_bits) {
  if (options_.partition_size == 0) {
    options_.partition_size = CraftFilterOptions::kDefaultPartitionSize;
  }
}

bool CraftFilterBuilder::BuildsWith(const CraftFilterOptions& options) const {
  const CraftFilterOptions& mine = given_options_;
  return options.partition_size == mine.partition_size &&
         options.key_coding == mine.key_coding &&
         options.range_hash_bits == mine.range_hash_bits &&
         options.trie.real_suffix_bits == mine.trie.real_suffix_bits &&
         options.trie.hash_suffix_bits == mine.trie.hash_suffix_bits &&
         options.trie.compact_labels == mine.trie.compact_labels &&
         options.trie.key_code == mine.trie.key_code;
}

size_t CraftFilterBuilder::RetainedBytes() const {
  return sample_keys_.capacity() + sample_.capacity() * sizeof(sample_[0]) +
         trie_.RetainedBytes() + range_hash_.RetainedBytes() +
         last_key_.capacity() + current_.first_key.capacity() + sizeof(*this);
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
  } else {
    const Slice last = SampledKey(sample_.size() - 1);
    if (!SameKey(user_key, last)) {
      WeighSampledKey(last, CommonPrefixLength(last, user_key));
    }
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

Slice CraftFilterBuilder::SampledKey(size_t i) const {
  const uint32_t begin = i == 0 ? 0 : sample_[i - 1].first;
  return Slice(sample_keys_.data() + begin, sample_[i].first - begin);
}

void CraftFilterBuilder::WeighSampledKey(const Slice& key, size_t lcp_next) {
  const size_t end =
      std::min(key.size(), std::max(sample_lcp_prev_, lcp_next) + 2);
  for (size_t d = sample_lcp_prev_; d < end; ++d) {
    ++sample_weights_[static_cast<uint8_t>(key[d])];
  }
  sample_weight_total_ += end - std::min(end, sample_lcp_prev_);
  sample_lcp_prev_ = lcp_next;
}

void CraftFilterBuilder::ChooseKeyCode() {
  if (!sample_.empty()) {
    WeighSampledKey(SampledKey(sample_.size() - 1), 0);  // The last key.
  }
  const uint64_t total = sample_weight_total_;
  options_.trie.key_code.reset();
  if (total > 0 && CodeCanSaveAnEighth(sample_weights_, total)) {
    auto code = std::make_shared<OrderPreservingCode>(
        OrderPreservingCode::Optimal(sample_weights_));
    // Worth a format 3 partition when it saves an eighth of the bits.
    if (code->CodedBits(sample_weights_) <= total * 7) {
      std::vector<Slice> keys;  // The trial's: distinct, in order.
      size_t bytes = 0;
      for (size_t i = 0;
           i < sample_.size() && bytes < CraftFilterOptions::kKeyCodeTrialBytes;
           ++i) {
        const Slice key = SampledKey(i);
        if (keys.empty() || !SameKey(key, keys.back())) {
          keys.push_back(key);
          bytes += key.size() + 1;
        }
      }
      if (CodedTrialIsSmaller(keys, code)) {
        options_.trie.key_code = std::move(code);
      }
    }
  }
  trie_.SetKeyCode(options_.trie.key_code);
  sampling_ = false;
  for (size_t i = 0; i < sample_.size(); ++i) {
    AddKey(SampledKey(i), sample_[i].second);
  }
  sample_.clear();
  sample_keys_.clear();
  std::fill(std::begin(sample_weights_), std::end(sample_weights_), 0);
  sample_weight_total_ = 0;
  sample_lcp_prev_ = 0;
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
  CopyKey(user_key, &last_key_);
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

}  // namespace ROCKSDB_NAMESPACE
