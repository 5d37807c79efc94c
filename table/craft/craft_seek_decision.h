// The CRaFT (range filter) answer for one forward seek, handed from the
// level iterator that asked the filter before it built a file's table
// iterator to that iterator, so that the seek asks the filter once.
//
// Call grammar, on one thread:
//   LevelIterator: CraftLevelFileMayMatch(file, ..., target, &decision)
//                  InitFileIterator(file)
//                  table_iter->SetCraftSeekDecision(decision)
//                  table_iter->Seek(target)
// The table iterator's next Seek or SeekForPrev takes the decision as it
// starts, however that seek ends (a prefix filter's "no", an async read's
// first pass); only a forward Seek uses it. A decision is only ever "maybe": a
// file the filter proves empty gets no table iterator at all.

#pragma once

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

struct CraftSeekDecision {
  // Whether a decision was handed over at all.
  bool decided = false;
  // Whether the filter was asked (a "maybe" that may turn out a false
  // positive, counted when the seek finds nothing in range); false when the
  // check was sampled out.
  bool checked = false;
#ifndef NDEBUG
  // The internal key the decision was made for; only assertions compare it.
  Slice target;
#endif
};

#ifdef NDEBUG
// BlockBasedTableIterator holds one; two bytes fit in the padding before its
// next pointer, so the iterator stays at stock's size (craft_seek.cc pins
// why that matters).
static_assert(sizeof(CraftSeekDecision) == 2, "keep the decision two bytes");
#endif

}  // namespace ROCKSDB_NAMESPACE
