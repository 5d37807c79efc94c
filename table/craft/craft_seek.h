// The CRaFT (range filter) check on a table iterator's seek (patch 0014):
// BlockBasedTableIterator::Seek and SeekForPrev ask CraftSeekMayMatch
// before the index search and, when the filter let the seek through, report
// where it landed (NoteCraftSeekOutcome, from a CraftSeekOutcomeGuard) so
// that a seek that found nothing in range counts as a false positive.
//
// Call grammar, per seek of one iterator:
//   CraftSeekMayMatch(..., &checked, &decision)   false: iterator invalid
//   (index and data block search)
//   NoteCraftSeekOutcome(...)                      only if `checked`

#pragma once

#include <utility>

#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/table_reader_caller.h"
#include "table/block_based/block_based_table_reader.h"
#include "table/craft/craft_seek_decision.h"

namespace ROCKSDB_NAMESPACE {

// The check before an iterator's seek: false when the table provably holds
// no key in [target, iterate_upper_bound) (forward) or
// [iterate_lower_bound, target] (backward). Never for compaction reads.
// `*checked` (optional) says whether the filter was asked. `decision`
// (optional): the table iterator's handed-over answer
// (craft_seek_decision.h), consumed here; a forward seek it was made for
// takes it instead of asking the filter again.
bool CraftSeekMayMatchWithFilter(const BlockBasedTable::Rep* rep,
                                 const ReadOptions& read_options,
                                 TableReaderCaller caller,
                                 const Slice& internal_target, bool forward,
                                 bool* checked, CraftSeekDecision* decision);
// Inline, so that every seek of a table without a filter pays one load.
inline bool CraftSeekMayMatch(const BlockBasedTable::Rep* rep,
                              const ReadOptions& read_options,
                              TableReaderCaller caller,
                              const Slice& internal_target, bool forward,
                              bool* checked = nullptr,
                              CraftSeekDecision* decision = nullptr) {
  return rep->craft == nullptr ||
         CraftSeekMayMatchWithFilter(rep, read_options, caller, internal_target,
                                     forward, checked, decision);
}

// After a seek the filter let through: counts a false positive
// (rocksdb.craft.filter.false.positive) when the table held nothing in the
// bounded range after all. `valid`/`internal_key`: where the seek landed.
void NoteCraftSeekOutcome(const BlockBasedTable::Rep* rep,
                          const ReadOptions& read_options, bool forward,
                          bool valid, const Slice& internal_key);

// Runs a callable when the scope ends: the iterator's seeks have many exits,
// and the outcome is known only at the last one. (No std::function: this is
// on every seek, filter or not.)
template <typename Fn>
class CraftSeekOutcomeGuard {
 public:
  explicit CraftSeekOutcomeGuard(Fn fn) : fn_(std::move(fn)) {}
  ~CraftSeekOutcomeGuard() { fn_(); }
  CraftSeekOutcomeGuard(const CraftSeekOutcomeGuard&) = delete;
  CraftSeekOutcomeGuard& operator=(const CraftSeekOutcomeGuard&) = delete;

 private:
  Fn fn_;
};

}  // namespace ROCKSDB_NAMESPACE
