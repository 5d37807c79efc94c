#include "cache/location/version_file_memo.h"

#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

namespace {

struct MemoEntry {
  uint64_t file_number = 0;  // 0: empty (no table file is numbered 0)
  int level = 0;
  size_t position = 0;
  // Compared by value only until the level vector proves it is live.
  const FileMetaData* file = nullptr;
};

// Direct-mapped by file number; a few KiB per reading thread.
constexpr size_t kMemoEntries = 256;
thread_local MemoEntry tls_memo[kMemoEntries];

}  // namespace

const FileMetaData* FindFileInVersion(const VersionStorageInfo* vstorage,
                                      uint64_t file_number) {
  MemoEntry& entry = tls_memo[file_number % kMemoEntries];
  if (entry.file_number == file_number && entry.level >= 0 &&
      entry.level < vstorage->num_levels()) {
    const std::vector<FileMetaData*>& files = vstorage->LevelFiles(entry.level);
    // Pointer equality with a live element first: only then is `file` safe
    // to read, and its number tells a recycled address apart.
    if (entry.position < files.size() && files[entry.position] == entry.file &&
        entry.file->fd.GetNumber() == file_number) {
      return entry.file;
    }
  }
  const VersionStorageInfo::FileLocation location =
      vstorage->GetFileLocation(file_number);
  if (!location.IsValid()) {
    return nullptr;
  }
  const FileMetaData* file =
      vstorage->LevelFiles(location.GetLevel())[location.GetPosition()];
  entry.file_number = file_number;
  entry.level = location.GetLevel();
  entry.position = location.GetPosition();
  entry.file = file;
  return file;
}

}  // namespace ROCKSDB_NAMESPACE
