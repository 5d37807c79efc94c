// Builds a table's CRaFT filter next to BlockBasedTableBuilder, as the
// RangeFilterBuilder of a CraftRangeFilterPolicy: the table builder feeds
// it every point key with the ordinal of the data block it lands in, and at
// Finish it writes the partitions and the metadata block as meta blocks
// (FORMAT.md).

#pragma once

#include <memory>

#include "rocksdb/range_filter_policy.h"
#include "table/craft/craft_builder_pool.h"
#include "table/craft/craft_filter.h"

namespace ROCKSDB_NAMESPACE {

class CraftTableWriter : public RangeFilterBuilder {
 public:
  // Builds with a builder from `pool`, given back when the writer goes.
  CraftTableWriter(std::shared_ptr<CraftBuilderPool> pool,
                   const CraftFilterOptions& options)
      : pool_(std::move(pool)), builder_(pool_->Take(options)) {}
  ~CraftTableWriter() override { pool_->Give(std::move(builder_)); }

  void Add(const Slice& user_key, uint32_t data_block) override {
    builder_->Add(user_key, data_block);
  }

  // Writes every partition, then the metadata block; `*meta_block` is
  // where the latter went. A table without keys gets no filter (returns
  // NotFound).
  Status Finish(const BlockWriter& write,
                RangeFilterBlockHandle* meta_block) override;

 private:
  const std::shared_ptr<CraftBuilderPool> pool_;
  std::unique_ptr<CraftFilterBuilder> builder_;
};

}  // namespace ROCKSDB_NAMESPACE
