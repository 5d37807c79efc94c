// Builds a table's CRaFT filter next to BlockBasedTableBuilder (patch
// 0013): the builder feeds it every point key with the ordinal of the data
// block it lands in, and at Finish it writes the partitions and the metadata
// block as meta blocks (FORMAT.md).

#pragma once

#include <functional>
#include <memory>

#include "rocksdb/comparator.h"
#include "rocksdb/table.h"
#include "table/craft/craft_filter.h"
#include "table/format.h"

namespace ROCKSDB_NAMESPACE {

class Logger;

class CraftTableWriter {
 public:
  // The metaindex name of the metadata block. Stock RocksDB's meta block
  // classifier (VerifyChecksum) asserts in debug builds on names it does not
  // know and ignores the obsolete "filter." prefix, so the name uses it.
  static const char* const kMetaBlockName;

  // A writer when table_options.craft_range_filter is set and keys order
  // bytewise without timestamps; otherwise nullptr (and a LOG line saying
  // why, for a comparator the filter cannot serve).
  static std::unique_ptr<CraftTableWriter> CreateIfEnabled(
      const BlockBasedTableOptions& table_options, const Comparator* ucmp,
      Logger* logger);

  // InvalidArgument naming the option when a CRaFT table option asks for
  // what the format cannot store (suffix or range hash bits beyond their
  // widths). Checked wherever column family options are validated, whether
  // or not craft_range_filter is on, so a value is refused when it is set,
  // not when the filter is turned on later.
  static Status CheckOptions(const BlockBasedTableOptions& table_options);

  explicit CraftTableWriter(const CraftFilterOptions& options)
      : builder_(options) {}

  void Add(const Slice& user_key, uint32_t data_block) {
    builder_.Add(user_key, data_block);
  }

  // Stores a block in the file and says where.
  using BlockWriter =
      std::function<Status(const Slice& contents, BlockHandle* handle)>;

  // Writes every partition, then the metadata block; `*metadata` is where
  // the latter went. A table without keys gets no filter (returns
  // NotFound).
  Status Finish(const BlockWriter& write, BlockHandle* metadata);

  uint64_t num_keys() const { return builder_.num_keys(); }

 private:
  CraftFilterBuilder builder_;
};

}  // namespace ROCKSDB_NAMESPACE
