// Lodestone: the 64-bit location descriptor stored in each slot of the
// location cache.
//
//   63..60  owner       the DB instance that wrote it (1..15; 0 = empty slot)
//   59..36  file        table file number (files numbered >= 2^24 are not
//                       cached)
//   35..12  block       data block offset >> 2, exactly what the block cache
//                       key holds (files up to 64 MiB)
//   11..2   value       offset of the entry's value within the data block,
//                       >> 2 (entries whose value starts past 4 KiB are not
//                       cached)
//    1..0   tag         two bits of the key's hash (bytewise comparator), or
//                       the value offset's low two bits (any other)
//
// No key is stored. A hit is proved to be for the looked-up key by seeking
// that key in the named block and landing exactly on the named entry: the
// descriptor was written for the key whose newest version sits there. (An
// entry's ordinal would not do: blocks without per-key checksums count
// entries only within a restart interval, so two keys of one block can
// share one.)
//
// Why a quarter of the value offset still names one entry: under the
// bytewise comparator an entry takes at least four bytes (three length
// varints and at least one key byte, since a key sorting after its
// predecessor cannot be a prefix of it), so two entries' value offsets
// differ by four or more. That frees the tag for a key fingerprint, which
// turns three in four slot collisions into a miss without a block read.
// Other comparators allow a key that is a prefix of the one before it, so
// there the tag keeps the offset exact and no fingerprint is checked.

#pragma once

#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

struct LocationDescriptor {
  static constexpr int kOwnerBits = 4;
  static constexpr int kFileBits = 24;
  static constexpr int kBlockBits = 24;
  static constexpr int kValueBits = 10;
  static constexpr int kTagBits = 2;
  static_assert(kOwnerBits + kFileBits + kBlockBits + kValueBits + kTagBits ==
                64);

  static constexpr uint32_t kMaxOwner = (1u << kOwnerBits) - 1;
  static constexpr uint32_t kTagMask = (1u << kTagBits) - 1;

  uint32_t owner = 0;
  uint64_t file_number = 0;
  uint64_t block_offset = 0;        // a multiple of 4 once decoded
  uint32_t value_offset_words = 0;  // value offset within the block / 4
  uint32_t tag = 0;

  // False when a field does not fit; such locations are not cached.
  static bool Encode(uint32_t owner, uint64_t file_number,
                     uint64_t block_offset, uint64_t value_offset, uint32_t tag,
                     uint64_t* word) {
    const uint64_t block = block_offset >> 2;
    const uint64_t value = value_offset >> 2;
    if (owner == 0 || owner > kMaxOwner || file_number >> kFileBits != 0 ||
        block >> kBlockBits != 0 || value >> kValueBits != 0 ||
        tag > kTagMask) {
      return false;
    }
    *word = (uint64_t{owner} << (64 - kOwnerBits)) |
            (file_number << (kBlockBits + kValueBits + kTagBits)) |
            (block << (kValueBits + kTagBits)) | (value << kTagBits) | tag;
    return true;
  }

  static uint32_t OwnerOf(uint64_t word) {
    return static_cast<uint32_t>(word >> (64 - kOwnerBits));
  }
  static uint32_t TagOf(uint64_t word) {
    return static_cast<uint32_t>(word & kTagMask);
  }

  static LocationDescriptor Decode(uint64_t word) {
    LocationDescriptor d;
    d.owner = OwnerOf(word);
    d.file_number = (word >> (kBlockBits + kValueBits + kTagBits)) &
                    ((uint64_t{1} << kFileBits) - 1);
    d.block_offset =
        ((word >> (kValueBits + kTagBits)) & ((uint64_t{1} << kBlockBits) - 1))
        << 2;
    d.value_offset_words =
        static_cast<uint32_t>((word >> kTagBits) & ((1u << kValueBits) - 1));
    d.tag = TagOf(word);
    return d;
  }
};

}  // namespace ROCKSDB_NAMESPACE
