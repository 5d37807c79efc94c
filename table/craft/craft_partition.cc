#include "table/craft/craft_partition.h"

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

void CraftPartition::Encode(const std::string& trie,
                            const std::string& range_hash, std::string* out) {
  if (range_hash.empty()) {
    out->append(trie);
    return;
  }
  out->push_back(static_cast<char>(kFormatWithRangeHash));
  PutVarint64(out, trie.size());
  out->append(trie);
  out->append(range_hash);
}

Status CraftPartition::Decode(const Slice& block, CraftPartition* partition) {
  if (block.empty() || static_cast<uint8_t>(block[0]) != kFormatWithRangeHash) {
    partition->range_hash_.reset();
    return LoudsSparse::Decode(block, &partition->trie_);
  }
  Slice in = block;
  in.remove_prefix(1);
  uint64_t trie_size;
  if (!GetVarint64(&in, &trie_size) || trie_size > in.size()) {
    return Status::Corruption("CRaFT partition: bad trie size");
  }
  const Slice trie(in.data(), static_cast<size_t>(trie_size));
  in.remove_prefix(static_cast<size_t>(trie_size));
  if (!trie.empty() && static_cast<uint8_t>(trie[0]) == kFormatWithRangeHash) {
    return Status::Corruption("CRaFT partition: nested version 4");
  }
  Status s = LoudsSparse::Decode(trie, &partition->trie_);
  if (!s.ok()) {
    return s;
  }
  auto range_hash = std::make_unique<RangeHash>();
  s = RangeHash::Decode(in, range_hash.get());
  if (!s.ok()) {
    return s;
  }
  partition->range_hash_ = std::move(range_hash);
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE
