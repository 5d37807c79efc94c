// DataBlockIter::SeekToEntryByValueOffset, declared in
// table/block_based/block.h (patch 0026): how a location cache hit finds
// its remembered entry in a data block without comparing keys. Defined here,
// beside its one caller (location_lookup.cc), as a DataBlockIter member
// because it walks the block's restart array and entries directly.

#include "port/port.h"
#include "table/block_based/block.h"

namespace ROCKSDB_NAMESPACE {

bool DataBlockIter::SeekToEntryByValueOffset(uint32_t value_offset_words) {
  const uint64_t target = uint64_t{value_offset_words} << 2;
  if (data_ == nullptr || num_restarts_ == 0 || target >= restarts_) {
    return false;
  }
  // The entry's own line loads while the restart array is searched.
  PREFETCH(data_ + target, 0 /* rw */, 3 /* locality */);
  // An entry's header and key precede its value, so the interval holding
  // the entry starts at the last restart point below `target`.
  uint32_t left = 0;
  uint32_t right = num_restarts_ - 1;
  while (left < right) {
    const uint32_t mid = left + (right - left + 1) / 2;
    if (GetRestartPoint(mid) < target) {
      left = mid;
    } else {
      right = mid - 1;
    }
  }
  // The scan below walks forward through memory the CPU has likely not
  // seen; ask for it at once rather than one miss per entry (up to 2 KiB:
  // with large values most of those bytes are never read).
  const uint64_t first = GetRestartPoint(left);
  for (uint64_t line = first; line <= target && line < first + 2048;
       line += 64) {
    PREFETCH(data_ + line, 0 /* rw */, 3 /* locality */);
  }
  SeekToRestartPoint(left);
  cur_entry_idx_ = static_cast<int32_t>(left * block_restart_interval_) - 1;
  while (true) {
    NextImpl();
    if (!Valid()) {
      return false;
    }
    const uint32_t value_offset = ValueOffset();
    if (value_offset >= target) {
      if (value_offset - target >= 4) {
        return false;
      }
      UpdateKey();
      return status_.ok();
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE
