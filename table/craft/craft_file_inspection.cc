#include "table/craft/craft_file_inspection.h"

#include <cinttypes>
#include <cstdio>

#include "file/random_access_file_reader.h"
#include "table/block_based/block.h"
#include "table/block_based/block_based_table_builder.h"
#include "table/craft/craft_range_filter_policy.h"
#include "table/craft/craft_table_reader.h"
#include "table/format.h"
#include "table/meta_blocks.h"

namespace ROCKSDB_NAMESPACE {

Status ReadCraftFilterFromFile(const std::string& path, const Options& options,
                               CraftFileFilter* filter) {
  std::unique_ptr<FSRandomAccessFile> file;
  const auto& fs = options.env->GetFileSystem();
  Status s = fs->NewRandomAccessFile(path, FileOptions(), &file, nullptr);
  uint64_t size = 0;
  if (s.ok()) {
    s = options.env->GetFileSize(path, &size);
  }
  if (!s.ok()) {
    return s;
  }
  RandomAccessFileReader reader(std::move(file), path);
  const ImmutableOptions ioptions(options);
  BlockContents metaindex_contents;
  Footer footer;
  s = ReadMetaIndexBlockInFile(&reader, size, kBlockBasedTableMagicNumber,
                               ioptions, ReadOptions(), &metaindex_contents,
                               /*memory_allocator=*/nullptr,
                               /*prefetch_buffer=*/nullptr, &footer);
  if (!s.ok()) {
    return s;
  }
  Block metaindex(std::move(metaindex_contents));
  std::unique_ptr<InternalIterator> meta_iter(metaindex.NewMetaIterator());
  BlockHandle handle;
  s = FindOptionalMetaBlock(meta_iter.get(),
                            CraftRangeFilterPolicy::kMetaBlockName(), &handle);
  if (s.ok() && handle.IsNull()) {
    return Status::NotFound("no CRaFT filter in " + path);
  }
  if (!s.ok()) {
    return s;
  }
  auto read = [&](const BlockHandle& h, BlockContents* contents) {
    return ReadCraftBlock(&reader, /*prefetch_buffer=*/nullptr, footer,
                          ReadOptions(), ioptions, PersistentCacheOptions(), h,
                          contents);
  };
  BlockContents contents;
  s = read(handle, &contents);
  if (s.ok()) {
    // The table's properties are not read here: their counts stay unchecked.
    CraftTableLayout layout;
    layout.metadata_offset = handle.offset();
    layout.block_trailer_size = footer.GetBlockTrailerSize();
    s = CraftMetadata::Decode(contents.data, layout, &filter->metadata);
  }
  if (!s.ok()) {
    return s;
  }
  filter->bytes = handle.size();
  const auto& infos = filter->metadata.partitions();
  for (size_t i = 0; i < infos.size(); ++i) {
    const CraftPartitionInfo& p = infos[i];
    BlockContents partition;
    s = read(BlockHandle(p.offset, p.size), &partition);
    filter->partitions.emplace_back();
    if (s.ok()) {
      s = filter->metadata.DecodePartition(i, partition.data,
                                           &filter->partitions.back());
    }
    if (!s.ok()) {
      return s;
    }
    filter->bytes += p.size;
  }
  return Status::OK();
}

std::string DescribeCraftFilter(const std::string& path,
                                const Options& options) {
  CraftFileFilter filter;
  Status s = ReadCraftFilterFromFile(path, options, &filter);
  if (s.IsNotFound()) {
    return "";
  }
  if (!s.ok()) {
    return "CRaFT range filter: unreadable (" + s.ToString() + ")\n";
  }
  const uint64_t keys = filter.metadata.num_keys();
  size_t coded = 0;   // Partitions storing coded keys (format 3).
  size_t hashed = 0;  // Partitions with a range hash (format 4).
  for (const CraftPartition& p : filter.partitions) {
    coded += p.trie().key_code() != nullptr;
    hashed += p.range_hash() != nullptr;
  }
  auto share = [&filter](size_t n) {
    return n == 0 ? "no"
                  : (n == filter.partitions.size() ? "yes" : "some partitions");
  };
  char buf[384];
  snprintf(
      buf, sizeof(buf),
      "CRaFT range filter\n"
      "------------------------------\n"
      "  partitions: %zu\n  keys: %" PRIu64 "\n  bytes: %" PRIu64
      "\n  bits per key: %.2f\n  order-preserving key code: %s\n"
      "  range hash: %s\n",
      filter.metadata.partitions().size(), keys, filter.bytes,
      keys ? 8.0 * static_cast<double>(filter.bytes) / static_cast<double>(keys)
           : 0.0,
      share(coded), share(hashed));
  return buf;
}

}  // namespace ROCKSDB_NAMESPACE
