// Lodestone: how a point lookup learns where the entry that decided it
// lives, so that the location cache can remember it.
//
// A lookup that may remember a location lends the GetContext of its key a
// LocationCacheFoundEntry (GetContext::set_location_found). The table
// reader that decides the key (state kFound) reports the entry's data block
// (its handle: offset and size) and value offset into it, and Version::MultiGet
// reports the file. Nothing listens (a null sink) unless the location cache
// does, which costs the table readers one null check per decided key.

#pragma once

#include <cstdint>

#include "db/dbformat.h"
#include "table/format.h"
#include "table/get_context.h"

namespace ROCKSDB_NAMESPACE {

struct FileMetaData;

struct LocationCacheFoundEntry {
  // The table that decided the key: reported by Version::MultiGet only
  // (Version::Get knows it where it asks).
  const FileMetaData* file = nullptr;
  // Reported by BlockBasedTable::Get and ::MultiGet; other table formats
  // report nothing (has_entry stays false).
  uint64_t block_offset = 0;
  uint64_t block_size = 0;
  uint32_t value_offset = 0;
  bool has_entry = false;
  // LocationCacheServesType(the entry's type).
  bool plain_value = false;
};

// The entry types a hit serves, and so the only ones worth remembering:
// plain values (a put or an initial put). Anything else (entities, merge
// operands, blob indexes) takes the full search.
inline bool LocationCacheServesType(ValueType type) {
  return type == kTypeValue || type == kTypeValueInitial;
}

// BlockBasedTable::Get / ::MultiGet, when an entry decided the lookup: its
// data block's handle, its internal key and the offset of its value within
// the block. The latest report wins.
inline void ReportLocationCacheEntry(GetContext* get_context,
                                     const BlockHandle& block,
                                     const Slice& internal_key,
                                     uint32_t value_offset) {
  LocationCacheFoundEntry* found = get_context->location_found();
  if (found != nullptr) {
    found->plain_value =
        LocationCacheServesType(ExtractValueType(internal_key));
    found->block_offset = block.offset();
    found->block_size = block.size();
    found->value_offset = value_offset;
    found->has_entry = true;
  }
}

// Version::MultiGet (MultiGetFromSST), when `file` decided the lookup.
inline void ReportLocationCacheFile(GetContext* get_context,
                                    const FileMetaData* file) {
  LocationCacheFoundEntry* found = get_context->location_found();
  if (found != nullptr) {
    found->file = file;
  }
}

}  // namespace ROCKSDB_NAMESPACE
