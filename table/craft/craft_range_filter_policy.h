// The CRaFT range filter as a RangeFilterPolicy (id "craft"): its knobs
// are Configurable options checked where they are parsed, and NewBuilder
// returns a CraftTableWriter.

#pragma once

#include <memory>
#include <string>

#include "rocksdb/craft_filter.h"
#include "rocksdb/range_filter_policy.h"
#include "table/craft/craft_builder_pool.h"

namespace ROCKSDB_NAMESPACE {

class CraftRangeFilterPolicy : public RangeFilterPolicy {
 public:
  static const char* kClassName() { return "craft"; }
  static const char* kCompatibilityName() { return "craft"; }
  // The metaindex name of the metadata block, "filter.lodestone." +
  // kCompatibilityName(), for tables of every format version (FORMAT.md).
  // Stock RocksDB's meta block classifier (VerifyChecksum) asserts in debug
  // builds on names it does not know and ignores the obsolete "filter."
  // prefix, so the name uses it.
  static const char* kMetaBlockName() { return "filter.lodestone.craft"; }

  // `options` must pass Check. `writes_filters` false: a policy that only
  // keeps knobs set through the old per-knob option names while the filter
  // is off (craft_option_aliases.h); it writes and reads nothing and
  // serializes to nothing.
  explicit CraftRangeFilterPolicy(const CraftRangeFilterOptions& options,
                                  bool writes_filters = true);

  const char* Name() const override { return kClassName(); }
  const char* CompatibilityName() const override {
    return kCompatibilityName();
  }
  std::unique_ptr<RangeFilterBuilder> NewBuilder(
      const RangeFilterBuildContext& context) const override;
  // Check over the knobs an options string set, each of which its parser
  // checked alone: what only their combination can break.
  Status PrepareOptions(const ConfigOptions& opts) override;

  const CraftRangeFilterOptions& options() const { return options_; }
  bool writes_filters() const { return writes_filters_; }

  // The CRaFT policy `policy` is, or nullptr (another policy, or none).
  static const CraftRangeFilterPolicy* From(const RangeFilterPolicy* policy);

  // Whether tables opened under `policy` use their CRaFT filters: a CRaFT
  // policy that writes filters.
  static bool ReadsFilters(const RangeFilterPolicy* policy);

  // InvalidArgument naming the knob that is out of range, or the two suffix
  // widths whose sum is.
  static Status Check(const CraftRangeFilterOptions& options);

  // Checks one knob by its name in option strings ("partition_size", ...).
  static Status CheckKnob(const std::string& name, uint32_t value);

  // Parses `value` as the knob `name` (a uint32 that CheckKnob accepts)
  // into *knob, which is left unchanged on failure.
  static Status ParseKnob(const ConfigOptions& opts, const std::string& name,
                          const std::string& value, uint32_t* knob);

 protected:
  // Nothing for a policy that writes no filters, so that the option is
  // left out of OPTIONS files.
  std::string SerializeOptions(const ConfigOptions& opts,
                               const std::string& prefix) const override;

 private:
  CraftRangeFilterOptions options_;
  bool writes_filters_;
  // The builders of this policy's tables, kept between tables.
  const std::shared_ptr<CraftBuilderPool> builders_ =
      std::make_shared<CraftBuilderPool>();
};

}  // namespace ROCKSDB_NAMESPACE
