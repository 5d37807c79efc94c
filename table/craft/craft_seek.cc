#include "table/craft/craft_seek.h"

#include <string>

#include "db/dbformat.h"
#include "memory/arena.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/comparator.h"
#include "table/block_based/block_based_table_iterator.h"
#include "table/craft/craft_table_reader.h"

namespace ROCKSDB_NAMESPACE {

#ifdef NDEBUG
// A DB iterator builds its table iterators in its arena, which gives an
// object over a quarter of its block a heap block of its own: a table
// iterator grown past that by a Lodestone member would cost a seek one
// malloc and free per table, with every feature off.
static_assert(sizeof(BlockBasedTableIterator) <= Arena::kMinBlockSize / 4,
              "Lodestone's members must not push the table iterator out of "
              "the arena's quarter block");
#endif

bool CraftSeekMayMatchWithFilter(const BlockBasedTable::Rep* rep,
                                 const ReadOptions& read_options,
                                 TableReaderCaller caller,
                                 const Slice& internal_target, bool forward,
                                 bool* checked, CraftSeekDecision* decision) {
  if (decision != nullptr && decision->decided) {
    const CraftSeekDecision handed = *decision;
    *decision = CraftSeekDecision();
    if (forward) {
      assert(handed.target == internal_target);
      if (checked != nullptr) {
        *checked = handed.checked;  // Its outcome still counts.
      }
      return true;
    }
  }
  const CraftTableReader* craft = rep->craft.get();
  if (craft == nullptr || caller == TableReaderCaller::kCompaction ||
      internal_target.size() < kNumInternalBytes) {
    return true;
  }
  const Slice* bound = forward ? read_options.iterate_upper_bound
                               : read_options.iterate_lower_bound;
  if (bound == nullptr) {
    return true;
  }
  const Slice target = ExtractUserKey(internal_target);
  std::string through;  // Backward: [lower, target] as a half-open range.
  if (!forward) {
    through.reserve(target.size() + 1);
    through.assign(target.data(), target.size());
    through.push_back('\0');
  }
  const Slice lo = forward ? target : *bound;
  const Slice hi = forward ? *bound : Slice(through);
  const CraftFilterReader* filter = craft->Filter(read_options);
  if (filter == nullptr) {
    return true;  // Its metadata cannot be read now.
  }
  const CraftCheckPolicy& policy = craft->check_policy();
  const uint32_t weight = policy.ShouldCheck(filter->ExpectedKeys(lo, hi));
  if (weight == 0) {
    return true;  // Likely keys in range, or mostly non-empty here lately.
  }
  const bool may_match = craft->RangeMayExist(lo, hi, read_options);
  Statistics* stats = rep->ioptions.stats;
  RecordTick(stats, CRAFT_FILTER_CHECKED);
  if (!may_match) {
    RecordTick(stats, CRAFT_FILTER_EMPTY);
  }
  policy.CountCheck(/*empty=*/!may_match, weight);
  if (checked != nullptr) {
    *checked = true;
  }
  return may_match;
}

void NoteCraftSeekOutcome(const BlockBasedTable::Rep* rep,
                          const ReadOptions& read_options, bool forward,
                          bool valid, const Slice& internal_key) {
  bool in_range = false;
  if (valid && internal_key.size() >= kNumInternalBytes) {
    const Comparator* ucmp = rep->internal_comparator.user_comparator();
    const Slice user_key = ExtractUserKey(internal_key);
    in_range =
        forward
            ? ucmp->Compare(user_key, *read_options.iterate_upper_bound) < 0
            : ucmp->Compare(user_key, *read_options.iterate_lower_bound) >= 0;
  }
  if (!in_range) {
    RecordTick(rep->ioptions.stats, CRAFT_FILTER_FALSE_POSITIVE);
    if (rep->craft != nullptr) {
      rep->craft->check_policy().CountFalsePositive();
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE
