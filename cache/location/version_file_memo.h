// Lodestone location cache: where a file sits in a reader's Version.
//
// A hit must use a file only if the reader's Version holds it. The Version
// answers by number through a hash map (bucket, node, level vector: several
// cache misses on a large tree). This per-thread memo remembers the level
// and position at which a file was last found and believes it only after
// checking this very Version's level vector still holds a live FileMetaData
// of that number there, so a stale or recycled entry costs one slow lookup,
// never a wrong answer.

#pragma once

#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

struct FileMetaData;
class VersionStorageInfo;

// The file numbered `file_number` if `vstorage` holds it, else nullptr.
const FileMetaData* FindFileInVersion(const VersionStorageInfo* vstorage,
                                      uint64_t file_number);

}  // namespace ROCKSDB_NAMESPACE
