#include "table/craft/craft_range_filter_policy.h"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "logging/logging.h"
#include "rocksdb/comparator.h"
#include "rocksdb/utilities/options_type.h"
#include "table/craft/craft_table_writer.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Above any num_levels a DB uses (RocksDB allows a few dozen).
constexpr uint32_t kMaxMinLevel = 64;

struct KnobRange {
  uint32_t min;
  uint32_t max;
  bool zero_allowed;  // 0 (off) is valid below `min` too.
  uint32_t default_value;
};

const std::unordered_map<std::string, KnobRange>& KnobRanges() {
  static const CraftRangeFilterOptions defaults;
  static const std::unordered_map<std::string, KnobRange> ranges = {
      // Any size is honoured: a partition is cut at the first key boundary
      // at or past it.
      {"partition_size", {0, UINT32_MAX, true, defaults.partition_size}},
      {"real_suffix_bits",
       {0, LoudsSparseOptions::kMaxRealSuffixBits, true,
        defaults.real_suffix_bits}},
      {"hash_suffix_bits",
       {0, LoudsSparseOptions::kMaxHashSuffixBits, true,
        defaults.hash_suffix_bits}},
      {"range_hash_bits",
       {RangeHashBuilder::kMinBitsPerKey, RangeHashBuilder::kMaxBitsPerKey,
        true, defaults.range_hash_bits}},
      {"min_level", {0, kMaxMinLevel, true, defaults.min_level}},
  };
  return ranges;
}

const OptionTypeInfo kPlainUInt32(0, OptionType::kUInt32T,
                                  OptionVerificationType::kNormal,
                                  OptionTypeFlags::kNone);

// A knob parses as a uint32 in its range and is left out of serialized
// options at its default, so `{id=craft}` serializes as plain "craft".
OptionTypeInfo Knob(int offset, const std::string& name) {
  OptionTypeInfo info(offset, OptionType::kUInt32T,
                      OptionVerificationType::kNormal, OptionTypeFlags::kNone);
  const uint32_t default_value = KnobRanges().at(name).default_value;
  info.SetParseFunc([name](const ConfigOptions& opts,
                           const std::string& /*key*/, const std::string& value,
                           void* addr) {
    return CraftRangeFilterPolicy::ParseKnob(opts, name, value,
                                             static_cast<uint32_t*>(addr));
  });
  info.SetSerializeFunc([default_value](const ConfigOptions& opts,
                                        const std::string& key,
                                        const void* addr, std::string* value) {
    if (*static_cast<const uint32_t*>(addr) == default_value) {
      value->clear();
      return Status::OK();
    }
    return kPlainUInt32.Serialize(opts, key, addr, value);
  });
  return info;
}

const std::unordered_map<std::string, OptionTypeInfo>& KnobTypeInfo() {
  static const std::unordered_map<std::string, OptionTypeInfo> info = {
      {"partition_size", Knob(offsetof(CraftRangeFilterOptions, partition_size),
                              "partition_size")},
      {"real_suffix_bits",
       Knob(offsetof(CraftRangeFilterOptions, real_suffix_bits),
            "real_suffix_bits")},
      {"hash_suffix_bits",
       Knob(offsetof(CraftRangeFilterOptions, hash_suffix_bits),
            "hash_suffix_bits")},
      {"range_hash_bits",
       Knob(offsetof(CraftRangeFilterOptions, range_hash_bits),
            "range_hash_bits")},
      {"min_level",
       Knob(offsetof(CraftRangeFilterOptions, min_level), "min_level")},
  };
  return info;
}

}  // namespace

CraftRangeFilterPolicy::CraftRangeFilterPolicy(
    const CraftRangeFilterOptions& options, bool writes_filters)
    : options_(options), writes_filters_(writes_filters) {
  assert(Check(options_).ok());  // Callers check (NewCraftRangeFilterPolicy).
  RegisterOptions("CraftRangeFilterOptions", &options_, &KnobTypeInfo());
}

Status CraftRangeFilterPolicy::PrepareOptions(const ConfigOptions& opts) {
  Status s = Check(options_);
  return s.ok() ? RangeFilterPolicy::PrepareOptions(opts) : s;
}

std::unique_ptr<RangeFilterBuilder> CraftRangeFilterPolicy::NewBuilder(
    const RangeFilterBuildContext& context) const {
  if (!writes_filters_) {
    return nullptr;
  }
  const Comparator* ucmp = context.user_comparator;
  if (ucmp == nullptr || ucmp->timestamp_size() != 0 ||
      strcmp(ucmp->Name(), BytewiseComparator()->Name()) != 0) {
    ROCKS_LOG_WARN(context.info_log,
                   "the CRaFT range filter needs the bytewise comparator "
                   "without timestamps; comparator %s: no filter written",
                   ucmp ? ucmp->Name() : "null");
    return nullptr;
  }
  if (context.level_at_creation >= 0 &&
      static_cast<uint32_t>(context.level_at_creation) < options_.min_level) {
    return nullptr;  // Not logged: every flush would say it.
  }
  CraftFilterOptions filter;
  filter.partition_size = options_.partition_size;
  filter.trie.real_suffix_bits = options_.real_suffix_bits;
  filter.trie.hash_suffix_bits = options_.hash_suffix_bits;
  filter.range_hash_bits = options_.range_hash_bits;
  return std::make_unique<CraftTableWriter>(builders_, filter);
}

const CraftRangeFilterPolicy* CraftRangeFilterPolicy::From(
    const RangeFilterPolicy* policy) {
  return policy == nullptr ? nullptr
                           : policy->CheckedCast<CraftRangeFilterPolicy>();
}

bool CraftRangeFilterPolicy::ReadsFilters(const RangeFilterPolicy* policy) {
  const CraftRangeFilterPolicy* craft = From(policy);
  return craft != nullptr && craft->writes_filters_;
}

Status CraftRangeFilterPolicy::CheckKnob(const std::string& name,
                                         uint32_t value) {
  const auto it = KnobRanges().find(name);
  if (it == KnobRanges().end()) {
    return Status::InvalidArgument("CRaFT has no option " + name);
  }
  const KnobRange& r = it->second;
  if ((r.zero_allowed && value == 0) || (value >= r.min && value <= r.max)) {
    return Status::OK();
  }
  return Status::InvalidArgument("CRaFT " + name + " must be " +
                                 (r.zero_allowed && r.min > 0 ? "0 or " : "") +
                                 "in [" + std::to_string(r.min) + ", " +
                                 std::to_string(r.max) + "], not " +
                                 std::to_string(value));
}

Status CraftRangeFilterPolicy::ParseKnob(const ConfigOptions& opts,
                                         const std::string& name,
                                         const std::string& value,
                                         uint32_t* knob) {
  uint32_t parsed = 0;
  Status s = kPlainUInt32.Parse(opts, name, value, &parsed);
  if (s.ok()) {
    s = CheckKnob(name, parsed);
  }
  if (s.ok()) {
    *knob = parsed;
  }
  return s;
}

std::string CraftRangeFilterPolicy::SerializeOptions(
    const ConfigOptions& opts, const std::string& prefix) const {
  return writes_filters_ ? RangeFilterPolicy::SerializeOptions(opts, prefix)
                         : std::string();
}

Status CraftRangeFilterPolicy::Check(const CraftRangeFilterOptions& options) {
  Status s = CheckKnob("real_suffix_bits", options.real_suffix_bits);
  if (s.ok()) {
    s = CheckKnob("hash_suffix_bits", options.hash_suffix_bits);
  }
  if (s.ok() && options.real_suffix_bits + options.hash_suffix_bits >
                    LoudsSparseOptions::kMaxSuffixBits) {
    s = Status::InvalidArgument(
        "real_suffix_bits + hash_suffix_bits must be at most " +
        std::to_string(LoudsSparseOptions::kMaxSuffixBits) + ", not " +
        std::to_string(options.real_suffix_bits) + " + " +
        std::to_string(options.hash_suffix_bits));
  }
  if (s.ok()) {
    s = CheckKnob("range_hash_bits", options.range_hash_bits);
  }
  if (s.ok()) {
    s = CheckKnob("min_level", options.min_level);
  }
  return s;
}

Status NewCraftRangeFilterPolicy(const CraftRangeFilterOptions& options,
                                 std::shared_ptr<RangeFilterPolicy>* policy) {
  Status s = CraftRangeFilterPolicy::Check(options);
  if (s.ok()) {
    *policy = std::make_shared<CraftRangeFilterPolicy>(options);
  }
  return s;
}

}  // namespace ROCKSDB_NAMESPACE
