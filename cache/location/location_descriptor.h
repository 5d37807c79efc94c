// Lodestone: the 64-bit location descriptor stored in each slot of the
// location cache.
//
//   63..60  owner       the DB instance that wrote it (1..15; 0 = empty slot)
//   59..36  file        table file number (files numbered >= 2^24 are not
//                       cached)
//   35..12  block       data block offset >> 2, exactly what the block cache
//                       key holds (files up to 64 MiB)
//   11..0   value       offset of the entry's value within the data block
//                       (entries whose value starts past 4 KiB are not
//                       cached)
//
// No key is stored. A hit is proved to be for the looked-up key by seeking
// that key in the named block and landing exactly on the named entry (its
// value offset is unique in the block): the descriptor was written for the
// key whose newest version sits there. (An entry's ordinal would not do:
// blocks without per-key checksums count entries only within a restart
// interval, so two keys of one block can share one.)

#pragma once

#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

struct LocationDescriptor {
  static constexpr int kOwnerBits = 4;
  static constexpr int kFileBits = 24;
  static constexpr int kBlockBits = 24;
  static constexpr int kValueBits = 12;
  static_assert(kOwnerBits + kFileBits + kBlockBits + kValueBits == 64);

  static constexpr uint32_t kMaxOwner = (1u << kOwnerBits) - 1;

  uint32_t owner = 0;
  uint64_t file_number = 0;
  uint64_t block_offset = 0;  // a multiple of 4 once decoded
  uint32_t value_offset = 0;  // within the uncompressed block

  // False when a field does not fit; such locations are not cached.
  static bool Encode(uint32_t owner, uint64_t file_number,
                     uint64_t block_offset, uint64_t value_offset,
                     uint64_t* word) {
    const uint64_t block = block_offset >> 2;
    if (owner == 0 || owner > kMaxOwner || file_number >> kFileBits != 0 ||
        block >> kBlockBits != 0 || value_offset >> kValueBits != 0) {
      return false;
    }
    *word = (uint64_t{owner} << (64 - kOwnerBits)) |
            (file_number << (kBlockBits + kValueBits)) |
            (block << kValueBits) | value_offset;
    return true;
  }

  static uint32_t OwnerOf(uint64_t word) {
    return static_cast<uint32_t>(word >> (64 - kOwnerBits));
  }

  static LocationDescriptor Decode(uint64_t word) {
    LocationDescriptor d;
    d.owner = OwnerOf(word);
    d.file_number = (word >> (kBlockBits + kValueBits)) & ((1u << kFileBits) - 1);
    d.block_offset = ((word >> kValueBits) & ((1u << kBlockBits) - 1)) << 2;
    d.value_offset = static_cast<uint32_t>(word & ((1u << kValueBits) - 1));
    return d;
  }
};

}  // namespace ROCKSDB_NAMESPACE
