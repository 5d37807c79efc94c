// Idle CRaFT filter builders of one policy, kept with their buffers for the
// next table.
//
// Why: a builder's buffers (the key-code sample, the trie's levels, the
// range hash's keys) come to a few hundred KiB per table. Allocated and freed
// once per table, they push glibc's per-thread arena past its trim threshold
// (twice the largest mmap-sized block freed so far: 2 MiB once a table's
// 1 MiB file buffer has been), so at every table's end the arena hands the
// top of its heap back to the kernel, and the next table faults the same
// pages in again, a cost paid per table on the flush's or compaction's
// thread. Builders kept in a pool allocate once. (RocksDB keeps its
// compression contexts for reuse the same way.)
//
// Costs: at most kMaxIdle builders per policy stay allocated while no table
// is built, each bounded by kMaxRetainedBytes (a builder that grew larger,
// say for a very large partition_size, is freed instead). Builders made for
// other options are dropped, not reused, so a change of knobs takes effect
// at the next table.
//
// Thread-safe: Take and Give may be called from any thread.

#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "table/craft/craft_filter.h"

namespace ROCKSDB_NAMESPACE {

class CraftBuilderPool {
 public:
  static constexpr size_t kMaxIdle = 4;
  static constexpr size_t kMaxRetainedBytes = 4 << 20;

  // A builder for a new table with `options`: an idle one made with the
  // same options, or a new one.
  std::unique_ptr<CraftFilterBuilder> Take(const CraftFilterOptions& options);

  // Takes `builder` back. It is kept only if it is idle (finished, or never
  // given a key), holds at most kMaxRetainedBytes, and fewer than kMaxIdle
  // are kept already; otherwise it is freed.
  void Give(std::unique_ptr<CraftFilterBuilder> builder);

  size_t idle() const;

 private:
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<CraftFilterBuilder>> idle_;  // Guarded by mu_.
};

}  // namespace ROCKSDB_NAMESPACE
