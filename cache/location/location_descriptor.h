// Lodestone: what a slot of the location cache holds, and how a slot is
// written and read without locks.
//
// A slot is 16 bytes, two 64-bit words: the head names the entry's table
// and data block and carries the slot's state (owner 0 = empty); the tail
// finds the entry in its block and says how many bytes the block takes on
// disk, so that a hit can read a block the block cache no longer holds.
//
//   head  63..60  owner   the DB instance that wrote it (1..15)
//         59..30  file    table file number (files numbered >= 2^30 are not
//                         cached)
//         29..2   block   data block offset >> 2, exactly what the block
//                         cache key holds (tables up to 1 GiB; two blocks
//                         never start within 4 bytes of each other)
//          1..0   tag     two bits of the key's hash (bytewise comparator),
//                         or the value offset's low two bits (any other)
//   tail  63..50  value   offset of the entry's value within the
//                         uncompressed data block, >> 2 (values starting
//                         past 64 KiB are not cached)
//         49..30  size    the block's size on disk, its BlockHandle's size
//                         (blocks up to 1 MiB)
//         29..28  low     the block offset's low two bits: a read needs the
//                         exact offset, the block cache key does not
//         27..0   check   28 bits of a hash of the head, the tail's other
//                         bits and the key's fingerprint
//
// No key is stored. The check carries 32 bits of the key's hash (the slot
// index comes from its high bits): a descriptor written for another key
// that shares the slot fails the check, so a slot collision is a miss
// without a block read (which may be a disk read). A hit is proved to be
// for the looked-up key by seeking
// that key's entry in the named block by its value offset and finding the
// key there: the descriptor was written for the key whose newest version
// sits there. (An entry's ordinal would not do: blocks without per-key
// checksums count entries only within a restart interval, so two keys of
// one block can share one.)
//
// Why a quarter of the value offset still names one entry: under the
// bytewise comparator an entry takes at least four bytes (three length
// varints and at least one key byte, since a key sorting after its
// predecessor cannot be a prefix of it), so two entries' value offsets
// differ by four or more. That frees the tag for two more bits of the key's
// hash, told without decoding the tail. Other comparators allow a key that
// is a prefix of the one before it, so there the tag keeps the offset exact.
//
// Two words, one descriptor: a writer stores the tail, then swaps the head
// in (release); a reader loads the head (acquire), then the tail, and takes
// the pair only when the tail's check matches the head and the key. A tail
// stored by a writer whose head is not in (yet, or ever: it lost its swap)
// fails the check unless 28 hash bits collide. Clearing a slot clears its head
// only. Why not a 16-byte atomic: a portable one takes a lock or a locked
// compare-exchange on every read, and hot keys' slots are read by every
// core.

#pragma once

#include <atomic>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

struct alignas(16) LocationSlot {
  std::atomic<uint64_t> head{0};
  std::atomic<uint64_t> tail{0};
};
static_assert(sizeof(LocationSlot) == 16, "a slot is two words");

// A slot's two words as one value.
struct LocationSlotWords {
  uint64_t head = 0;
  uint64_t tail = 0;
  bool operator==(const LocationSlotWords& o) const {
    return head == o.head && tail == o.tail;
  }
  bool operator!=(const LocationSlotWords& o) const { return !(*this == o); }
};

struct LocationDescriptor {
  static constexpr int kOwnerBits = 4;
  static constexpr int kFileBits = 30;
  static constexpr int kBlockBits = 28;
  static constexpr int kTagBits = 2;
  static constexpr int kValueBits = 14;
  static constexpr int kSizeBits = 20;
  static constexpr int kLowBits = 2;
  static constexpr int kCheckBits = 28;
  static_assert(kOwnerBits + kFileBits + kBlockBits + kTagBits == 64);
  static_assert(kValueBits + kSizeBits + kLowBits + kCheckBits == 64);

  static constexpr uint32_t kMaxOwner = (1u << kOwnerBits) - 1;
  static constexpr uint32_t kTagMask = (1u << kTagBits) - 1;

  uint32_t owner = 0;
  uint64_t file_number = 0;
  uint64_t block_offset = 0;        // BlockHandle::offset()
  uint64_t block_size = 0;          // BlockHandle::size()
  uint32_t value_offset_words = 0;  // value offset within the block / 4
  uint32_t tag = 0;

  // False when a field does not fit; such locations are not cached.
  static bool Encode(uint32_t owner, uint64_t file_number,
                     uint64_t block_offset, uint64_t block_size,
                     uint64_t value_offset, uint32_t tag,
                     uint32_t key_fingerprint, LocationSlotWords* words) {
    const uint64_t block = block_offset >> 2;
    const uint64_t value = value_offset >> 2;
    if (owner == 0 || owner > kMaxOwner || file_number >> kFileBits != 0 ||
        block >> kBlockBits != 0 || tag > kTagMask ||
        value >> kValueBits != 0 || block_size >> kSizeBits != 0) {
      return false;
    }
    words->head = (uint64_t{owner} << (64 - kOwnerBits)) |
                  (file_number << (kBlockBits + kTagBits)) |
                  (block << kTagBits) | tag;
    const uint64_t fields = (((value << kSizeBits) | block_size) << kLowBits) |
                            (block_offset & ((1u << kLowBits) - 1));
    words->tail =
        (fields << kCheckBits) | Check(words->head, fields, key_fingerprint);
    return true;
  }

  static uint32_t OwnerOf(uint64_t head) {
    return static_cast<uint32_t>(head >> (64 - kOwnerBits));
  }
  static uint32_t TagOf(uint64_t head) {
    return static_cast<uint32_t>(head & kTagMask);
  }

  // False when the tail was not written with this head for a key of this
  // fingerprint (the check fails).
  static bool Decode(const LocationSlotWords& words, uint32_t key_fingerprint,
                     LocationDescriptor* d) {
    const uint64_t fields = words.tail >> kCheckBits;
    if ((words.tail & kCheckMask) !=
        Check(words.head, fields, key_fingerprint)) {
      return false;
    }
    d->owner = OwnerOf(words.head);
    d->file_number = (words.head >> (kBlockBits + kTagBits)) &
                     ((uint64_t{1} << kFileBits) - 1);
    d->block_offset =
        (((words.head >> kTagBits) & ((uint64_t{1} << kBlockBits) - 1))
         << kLowBits) |
        (fields & ((1u << kLowBits) - 1));
    d->tag = TagOf(words.head);
    d->block_size = (fields >> kLowBits) & ((uint64_t{1} << kSizeBits) - 1);
    d->value_offset_words =
        static_cast<uint32_t>(fields >> (kLowBits + kSizeBits));
    return true;
  }

 private:
  static constexpr uint64_t kCheckMask = (uint64_t{1} << kCheckBits) - 1;
  // A multiply-xor mix: every input bit reaches the product's high bits,
  // which the check keeps. Torn pairs are accidents, not adversaries.
  static uint64_t Check(uint64_t head, uint64_t tail_fields,
                        uint32_t key_fingerprint) {
    const uint64_t mixed =
        (head ^ ((tail_fields ^ (uint64_t{key_fingerprint} << 32)) *
                 0x9E3779B97F4A7C15ull)) *
        0xC2B2AE3D27D4EB4Full;
    return mixed >> (64 - kCheckBits);
  }
};

}  // namespace ROCKSDB_NAMESPACE
