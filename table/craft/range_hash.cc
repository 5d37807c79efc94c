#include "table/craft/range_hash.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "table/craft/bit_stream.h"
#include "util/coding.h"
#include "util/math.h"
// Hash64's own function (util/hash.cc), inline: a call costs more than the
// hash of a prefix of a few bytes, and every stored key takes one.
#include "util/xxph3.h"

namespace ROCKSDB_NAMESPACE {

namespace {

constexpr uint64_t kPrefixSeed = 0x4c6f6465;  // "Lode"
constexpr uint32_t kMaxBlockBits = RangeHashBuilder::kMaxBitsPerKey - 2;

size_t TailBytes(size_t key_bytes) { return std::min<size_t>(key_bytes, 8); }

// Bits needed to write v (0 for 0).
uint32_t BitWidth(uint64_t v) {
  return v == 0 ? 0 : static_cast<uint32_t>(FloorLog2(v)) + 1;
}

// Elias-Fano's split of `num_values` values below `universe`: each value's
// low floor(log2(universe / num_values)) bits are stored as they are, its
// high part in unary, one bucket per high part.
uint32_t LowBits(uint64_t universe, uint64_t num_values) {
  return universe > num_values
             ? static_cast<uint32_t>(FloorLog2(universe / num_values))
             : 0;
}

uint64_t NumBuckets(uint64_t universe, uint32_t low_bits) {
  return ((universe - 1) >> low_bits) + 1;
}

uint64_t LowMask(uint32_t bits) {
  return bits == 0 ? 0 : (~uint64_t{0} >> (64 - bits));
}

// Sorts `values` (each below `universe`) and removes repeats. The values
// are hashes, close to uniform over the universe, so one counting pass by
// their top bits leaves buckets of about one value each: linear time where
// a comparison sort spends log n compares per value.
void SortAndDeduplicate(uint64_t universe, std::vector<uint64_t>* values) {
  const size_t n = values->size();
  const uint32_t shift = LowBits(universe, n);
  const size_t buckets = static_cast<size_t>(NumBuckets(universe, shift));
  std::vector<uint32_t> starts(buckets + 1, 0);
  for (uint64_t v : *values) {
    ++starts[static_cast<size_t>(v >> shift) + 1];
  }
  uint32_t largest = 0;
  for (size_t b = 0; b < buckets; ++b) {
    largest = std::max(largest, starts[b + 1]);
    starts[b + 1] += starts[b];
  }
  std::vector<uint64_t> sorted(n);
  for (uint64_t v : *values) {
    sorted[starts[static_cast<size_t>(v >> shift)]++] = v;
  }
  // A bucket holds more than a few values when keys are dense (one block of
  // tails fills a slot): those take a comparison sort. Otherwise the values
  // out of order all sit in small buckets, and one insertion pass over the
  // whole array moves only those.
  constexpr size_t kInsertionSortMax = 16;
  if (largest <= kInsertionSortMax) {
    for (size_t i = 1; i < n; ++i) {
      const uint64_t v = sorted[i];
      size_t j = i;
      for (; j > 0 && sorted[j - 1] > v; --j) {
        sorted[j] = sorted[j - 1];
      }
      sorted[j] = v;
    }
  } else {
    // starts[b] is now bucket b's end; bucket b begins at bucket b-1's end.
    size_t begin = 0;
    for (size_t b = 0; b < buckets; ++b) {
      std::sort(sorted.begin() + begin, sorted.begin() + starts[b]);
      begin = starts[b];
    }
  }
  // Repeats are common (keys whose tails agree in a block and whose slots
  // collide), so no branch on them: every value is written, and the end
  // moves past it only if it differs from the last one kept.
  size_t kept = n > 0 ? 1 : 0;
  for (size_t i = 1; i < n; ++i) {
    const uint64_t v = sorted[i];
    sorted[kept] = v;
    kept += v != sorted[kept - 1];
  }
  sorted.resize(kept);
  *values = std::move(sorted);
}

}  // namespace

uint64_t RangeHashPrefix(const Slice& key, size_t key_bytes) {
  assert(key.size() >= key_bytes);
  return XXPH3_64bits_withSeed(key.data(), key_bytes - TailBytes(key_bytes),
                               kPrefixSeed);
}

uint64_t RangeHashTail(const Slice& key, size_t key_bytes) {
  assert(key.size() >= key_bytes);
  if (key_bytes >= 8) {
    // One load, where a byte loop costs a shift and an or per byte: this
    // runs for every key a range-hashed partition stores.
    return EndianSwapValue(DecodeFixed64(key.data() + key_bytes - 8));
  }
  uint64_t tail = 0;
  for (size_t i = 0; i < key_bytes; ++i) {
    tail = (tail << 8) | static_cast<uint8_t>(key[i]);
  }
  return tail;
}

uint64_t RangeHashSlot(uint64_t prefix_hash, uint64_t block,
                       uint64_t num_slots) {
  // murmur3's 64-bit finalizer over the prefix hash and the block, reduced
  // to [0, num_slots) by a multiply-high.
  uint64_t h = prefix_hash ^ (block * 0x9e3779b97f4a7c15ULL);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(h) * num_slots) >> 64);
}

// ---- Builder ----

RangeHashBuilder::RangeHashBuilder(uint32_t bits_per_key)
    : block_bits_(
          std::min(std::max(bits_per_key, kMinBitsPerKey), kMaxBitsPerKey) -
          2) {}

void RangeHashBuilder::Add(const Slice& key) {
  if (mixed_widths_) {
    return;
  }
  if (keys_.empty()) {
    key_bytes_ = key.size();
  }
  if (key.size() != key_bytes_ || key_bytes_ == 0 ||
      key_bytes_ > kMaxKeyBytes) {
    mixed_widths_ = true;  // No section for this partition.
    keys_.clear();
    return;
  }
  // A repeat (or a key whose prefix hash collides with the last one's and
  // whose tail is the same) would give the same value: skip it here, and
  // Finish drops the rest of the equal values.
  // Built in place, field by field: a pair built first and copied in is
  // stored as two words and reloaded as one, which stalls the load.
  const uint64_t prefix = RangeHashPrefix(key, key_bytes_);
  const uint64_t tail = RangeHashTail(key, key_bytes_);
  if (keys_.empty() || keys_.back().first != prefix ||
      keys_.back().second != tail) {
    keys_.emplace_back(prefix, tail);
  }
}

bool RangeHashBuilder::Finish(std::string* out) {
  const bool usable = !mixed_widths_ && !keys_.empty();
  if (usable) {
    const uint64_t num_slots = keys_.size();
    // The universe num_slots << block_bits must fit in 63 bits.
    const uint32_t block_bits =
        std::min<uint32_t>(block_bits_, 63 - BitWidth(num_slots));
    const uint64_t universe = num_slots << block_bits;
    std::vector<uint64_t> values;
    values.reserve(keys_.size());
    for (const auto& [prefix_hash, tail] : keys_) {
      values.push_back(
          (RangeHashSlot(prefix_hash, tail >> block_bits, num_slots)
           << block_bits) |
          (tail & LowMask(block_bits)));
    }
    SortAndDeduplicate(universe, &values);
    const uint64_t num_values = values.size();
    const uint32_t low_bits = LowBits(universe, num_values);
    const uint64_t buckets = NumBuckets(universe, low_bits);

    // Lows as they are. Highs per bucket: a 0 per value and a closing 1.
    // Value v's 0 follows the ones of the buckets before its own, so it sits
    // at its high part + v: every bit is a 1 but those, one store per value
    // where a walk over the buckets would branch on each.
    std::vector<uint64_t> lows(craft_bits::Words(num_values * low_bits), 0);
    const uint64_t high_bits = num_values + buckets;
    std::vector<uint64_t> highs(craft_bits::Words(high_bits), ~uint64_t{0});
    if (high_bits % 64 != 0) {
      highs.back() = LowMask(high_bits % 64);
    }
    for (size_t v = 0; v < values.size(); ++v) {
      craft_bits::PutBitField(&lows, v * low_bits, low_bits,
                              values[v] & LowMask(low_bits));
      const uint64_t pos = (values[v] >> low_bits) + v;
      highs[pos / 64] &= ~(uint64_t{1} << (pos % 64));
    }
    assert(highs.back() >> ((high_bits - 1) % 64) == 1);  // The last 1.

    out->push_back(static_cast<char>(key_bytes_));
    out->push_back(static_cast<char>(block_bits));
    PutVarint64(out, num_slots);
    out->push_back(static_cast<char>(low_bits));
    PutVarint64(out, num_values);
    craft_bits::PutWords(out, lows);
    craft_bits::PutWords(out, highs);
  }
  keys_.clear();
  key_bytes_ = 0;
  mixed_widths_ = false;
  return usable;
}

// ---- Reader ----

Status RangeHash::Decode(const Slice& section, RangeHash* range_hash) {
  auto corrupt = [](const char* what) {
    return Status::Corruption("CRaFT range hash: ", what);
  };
  Slice in = section;
  RangeHash r;
  if (in.size() < 2) {
    return corrupt("truncated header");
  }
  r.key_bytes_ = static_cast<uint8_t>(in[0]);
  r.block_bits_ = static_cast<uint8_t>(in[1]);
  in.remove_prefix(2);
  if (r.key_bytes_ == 0 || r.block_bits_ > kMaxBlockBits) {
    return corrupt("key width or block bits out of range");
  }
  if (!GetVarint64(&in, &r.num_slots_) || r.num_slots_ == 0 ||
      BitWidth(r.num_slots_) + r.block_bits_ > 63 || in.empty()) {
    return corrupt("bad slot count");
  }
  r.low_bits_ = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  if (!GetVarint64(&in, &r.num_values_) || r.num_values_ == 0 ||
      r.num_values_ > r.num_slots_) {
    return corrupt("bad value count");
  }
  const uint64_t universe = r.num_slots_ << r.block_bits_;
  if (r.low_bits_ != LowBits(universe, r.num_values_)) {
    return corrupt("low bits do not match the counts");
  }
  const uint64_t buckets = NumBuckets(universe, r.low_bits_);
  const uint64_t max_bits = uint64_t{in.size()} * 8;
  if ((r.low_bits_ > 0 && r.num_values_ > max_bits / r.low_bits_) ||
      buckets > max_bits || r.num_values_ + buckets > max_bits) {
    return corrupt("arrays larger than the section");
  }
  const size_t low_total = static_cast<size_t>(r.num_values_ * r.low_bits_);
  const size_t high_total = static_cast<size_t>(r.num_values_ + buckets);
  std::vector<uint64_t> high_words;
  if (!craft_bits::GetWords(&in, low_total, &r.lows_) ||
      !craft_bits::GetWords(&in, high_total, &high_words)) {
    return corrupt("truncated arrays");
  }
  if (!in.empty()) {
    return corrupt("trailing bytes");
  }
  r.highs_.Init(std::move(high_words), high_total);
  if (r.highs_.Count() != buckets || !r.highs_.Get(high_total - 1)) {
    return corrupt("bucket count does not match");
  }
  // Values must rise: AnyValueIn stops at the first one past its range.
  uint64_t bucket = 0;
  uint64_t index = 0;
  bool has_prev = false;
  uint64_t prev = 0;
  for (size_t pos = 0; pos < high_total; ++pos) {
    if (r.highs_.Get(pos)) {
      ++bucket;
      continue;
    }
    const uint64_t v =
        (bucket << r.low_bits_) |
        craft_bits::GetBitField(r.lows_, index * r.low_bits_, r.low_bits_);
    if (has_prev && v <= prev) {
      return corrupt("values out of order");
    }
    prev = v;
    has_prev = true;
    ++index;
  }
  *range_hash = std::move(r);
  return Status::OK();
}

bool RangeHash::AnyValueIn(uint64_t x, uint64_t y) const {
  // Every value in a bucket has the same high part; low bits >= block bits
  // (num_values <= num_slots), so [x, y] spans at most two buckets.
  const uint64_t buckets = highs_.Count();
  uint64_t b = x >> low_bits_;
  if (b >= buckets) {
    return false;
  }
  size_t pos = b == 0 ? 0 : highs_.Select1(static_cast<size_t>(b - 1)) + 1;
  for (; b <= (y >> low_bits_) && b < buckets; ++b) {
    const size_t end = highs_.NextSetBit(pos);  // Bucket b's closing 1.
    for (; pos < end; ++pos) {
      const uint64_t index = pos - b;  // Values before this one.
      const uint64_t v =
          (b << low_bits_) |
          craft_bits::GetBitField(lows_, index * low_bits_, low_bits_);
      if (v > y) {
        return false;
      }
      if (v >= x) {
        return true;
      }
    }
    pos = end + 1;
  }
  return false;
}

bool RangeHash::RangeMayExist(const Slice& lo, const Slice& hi) const {
  const size_t w = key_bytes_;
  const size_t prefix_bytes = w - TailBytes(w);
  if (lo.size() < w || hi.size() < w ||
      memcmp(lo.data(), hi.data(), prefix_bytes) != 0) {
    return true;
  }
  // Every stored key has width w, and one in [lo, hi) shares lo's and hi's
  // prefix: its tail lies in [first, last].
  const uint64_t max_tail = LowMask(static_cast<uint32_t>(8 * TailBytes(w)));
  uint64_t first = RangeHashTail(lo, w);
  if (lo.size() > w) {  // lo is past lo[0, w).
    if (first == max_tail) {
      return true;
    }
    ++first;
  }
  uint64_t last = RangeHashTail(hi, w);
  if (hi.size() == w) {  // hi itself is excluded.
    if (last == 0) {
      return true;
    }
    --last;
  }
  if (first > last) {
    return false;
  }
  const uint64_t first_block = first >> block_bits_;
  const uint64_t last_block = last >> block_bits_;
  if (last_block - first_block > 1) {
    return true;  // Wider than the blocks: the trie answers alone.
  }
  const uint64_t prefix_hash = RangeHashPrefix(lo, w);
  const uint64_t mask = LowMask(block_bits_);
  for (uint64_t block = first_block; block <= last_block; ++block) {
    const uint64_t base = RangeHashSlot(prefix_hash, block, num_slots_)
                          << block_bits_;
    const uint64_t x = base | (block == first_block ? first & mask : 0);
    const uint64_t y = base | (block == last_block ? last & mask : mask);
    if (AnyValueIn(x, y)) {
      return true;
    }
  }
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
