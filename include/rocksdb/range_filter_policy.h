// Lodestone: a range filter is a per-table structure that answers "may any
// key lie in [lo, hi)?" without reading data blocks, so that a short seek
// over an empty range skips the table. BlockBasedTableOptions::range_filter
// names the policy that writes one into every new table; tables keep
// theirs whatever the option says later. CRaFT (rocksdb/craft_filter.h) is
// the one policy today.
//
// The shape follows FilterPolicy: a Customizable configured from a string
// (`range_filter=craft`, `range_filter={id=craft;range_hash_bits=14}`), one
// builder per table file from an explicit context, the filter's meta block
// named by CompatibilityName(). Unlike a FilterPolicy it does not replace
// the bloom filter; both are written.

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "rocksdb/customizable.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class Comparator;
class Logger;
struct ConfigOptions;

// Where a block went in the table file.
struct RangeFilterBlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;
};

// What a builder may know about the table it is built for. The pointers
// outlive the builder.
struct RangeFilterBuildContext {
  const Comparator* user_comparator = nullptr;
  // Where to say why no filter is written (may be null).
  Logger* info_log = nullptr;
  // -1 when unknown (e.g. SstFileWriter).
  int level_at_creation = -1;
};

// Builds one table's filter. Call grammar:
//   Add* Finish?
// Add receives every point entry's user key in table order (all versions,
// so a key may repeat and straddle blocks; never range deletions) with the
// ordinal of the data block it lands in: 0 for the first block, growing by
// one at each new data block. An abandoned table destroys its builder
// unfinished. Used by one thread at a time.
class RangeFilterBuilder {
 public:
  virtual ~RangeFilterBuilder() = default;

  virtual void Add(const Slice& user_key, uint32_t data_block) = 0;

  // Stores a block in the table file, uncompressed, and says where.
  using BlockWriter = std::function<Status(const Slice& contents,
                                           RangeFilterBlockHandle* where)>;

  // Writes the filter's blocks through `write`; `*meta_block` is the one
  // the metaindex points at (under RangeFilterPolicy's meta block name).
  // NotFound: nothing to write (no keys); the table gets no filter.
  virtual Status Finish(const BlockWriter& write,
                        RangeFilterBlockHandle* meta_block) = 0;
};

// Immutable once configured (never ConfigureFromString a policy that a
// table factory holds: make a new one); shared by every table factory copy
// that holds it, so it outlives the builders and readers it makes. A policy
// of one's own must be registered in ObjectLibrary::Default() under its
// Name(), so that OPTIONS files naming it load (DB::Open verifies the file
// it writes by loading it).
class RangeFilterPolicy : public Customizable {
 public:
  static const char* Type() { return "RangeFilterPolicy"; }

  // `value`: an id ("craft"), "id=craft;<knob>=<value>;...", or empty /
  // "nullptr" for none (*result reset). An unknown id, an unknown knob or a
  // knob out of range fails with InvalidArgument naming it, *result
  // unchanged.
  static Status CreateFromString(const ConfigOptions& config_options,
                                 const std::string& value,
                                 std::shared_ptr<RangeFilterPolicy>* result);

  // Names the filter's meta block ("filter.lodestone." + this): a policy
  // reads the filters of tables written under the same name, whatever its
  // knobs, and ignores others.
  virtual const char* CompatibilityName() const = 0;

  // A builder for one new table, or nullptr when this table gets no filter
  // (the policy says why in context.info_log, e.g. a comparator it cannot
  // serve).
  virtual std::unique_ptr<RangeFilterBuilder> NewBuilder(
      const RangeFilterBuildContext& context) const = 0;
};

}  // namespace ROCKSDB_NAMESPACE
