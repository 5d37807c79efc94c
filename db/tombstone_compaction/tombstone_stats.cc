#include "db/tombstone_compaction/tombstone_stats.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "db/dbformat.h"
#include "db/seqno_to_time_mapping.h"
#include "db/table_properties_collector.h"
#include "db/version_edit.h"
#include "options/cf_options.h"
#include "rocksdb/table_properties.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

const char* const kTombstonePointProperty = "lodestone.tombstones.point";
const char* const kTombstoneRangeProperty = "lodestone.tombstones.range";
const char* const kTombstoneWindowProperty = "lodestone.tombstones.window";
const char* const kTombstoneWindowPeakProperty =
    "lodestone.tombstones.window.peak";
const char* const kTombstoneDenseBlocksProperty =
    "lodestone.tombstones.dense.blocks";
const char* const kTombstoneDataBlocksProperty =
    "lodestone.tombstones.data.blocks";
const char* const kTombstoneMinSeqnoProperty = "lodestone.tombstones.min.seqno";

namespace {

const char* const kTombstoneStatsFactoryName = "LodestoneTombstoneStatsFactory";

bool IsPointTombstone(ValueType type) {
  return type == kTypeDeletion || type == kTypeSingleDeletion ||
         type == kTypeDeletionWithTimestamp;
}

// Counts tombstones in one pass over the table's entries, in order.
class TombstoneStatsCollector : public InternalTblPropColl {
 public:
  // Created by the table builder on the thread that adds its entries.
  explicit TombstoneStatsCollector(uint32_t window)
      : window_(std::max<uint32_t>(window, 1)),
        recent_(window_, false),
        adding_thread_(std::this_thread::get_id()) {}

  // Runs for every entry of every flush and compaction while the feature is
  // on: only the key's 8-byte footer is decoded.
  Status InternalAdd(const Slice& key, const Slice& /*value*/,
                     uint64_t /*file_size*/) override {
    if (key.size() < kNumInternalBytes) {
      return Status::OK();  // The builder reports bad keys itself.
    }
    SequenceNumber seq;
    ValueType type;
    UnPackSequenceAndType(ExtractInternalKeyFooter(key), &seq, &type);
    if (type == kTypeRangeDeletion) {
      ++range_;
      min_seqno_ = std::min(min_seqno_, seq);
      return Status::OK();
    }
    const bool tombstone = IsPointTombstone(type);
    if (tombstone) {
      ++point_;
      ++in_block_;
      min_seqno_ = std::min(min_seqno_, seq);
    }
    ++entries_in_block_;
    // A sliding window over the last `window_` entries' tombstone flags: a
    // ring whose slot `next_` holds the flag leaving the window.
    in_window_ += (tombstone ? 1 : 0) - (recent_[next_] ? 1 : 0);
    recent_[next_] = tombstone;
    next_ = next_ + 1 == window_ ? 0 : next_ + 1;
    peak_ = std::max(peak_, in_window_);
    return Status::OK();
  }

  // Called when a data block is cut, on the adding thread: its entries were
  // the ones added since. With parallel compression the builder calls it
  // from its compression threads instead, later and concurrently with
  // InternalAdd: a block's entries are then unknown, and the per-block
  // counts are left out of the table's properties (touching no counter
  // the adding thread writes).
  void BlockAdd(uint64_t, uint64_t, uint64_t) override {
    if (std::this_thread::get_id() != adding_thread_) {
      blocks_unattributable_.store(true, std::memory_order_relaxed);
      return;
    }
    ++data_blocks_;
    if (entries_in_block_ > 0 && 2 * in_block_ >= entries_in_block_) {
      ++dense_blocks_;
    }
    in_block_ = 0;
    entries_in_block_ = 0;
  }

  Status Finish(UserCollectedProperties* properties) override {
    *properties = GetReadableProperties();
    return Status::OK();
  }

  UserCollectedProperties GetReadableProperties() const override {
    UserCollectedProperties props;
    props[kTombstonePointProperty] = std::to_string(point_);
    props[kTombstoneRangeProperty] = std::to_string(range_);
    props[kTombstoneWindowProperty] = std::to_string(window_);
    props[kTombstoneWindowPeakProperty] = std::to_string(peak_);
    if (!blocks_unattributable_.load(std::memory_order_relaxed)) {
      props[kTombstoneDenseBlocksProperty] = std::to_string(dense_blocks_);
      props[kTombstoneDataBlocksProperty] = std::to_string(data_blocks_);
    }
    props[kTombstoneMinSeqnoProperty] =
        std::to_string(point_ + range_ > 0 ? min_seqno_ : kMaxSequenceNumber);
    return props;
  }

  const char* Name() const override { return "LodestoneTombstoneStats"; }

 private:
  const uint32_t window_;
  std::vector<bool> recent_;
  uint32_t next_ = 0;
  uint32_t in_window_ = 0;
  uint32_t peak_ = 0;
  uint64_t point_ = 0;
  uint64_t range_ = 0;
  uint64_t in_block_ = 0;
  uint64_t entries_in_block_ = 0;
  uint64_t dense_blocks_ = 0;
  uint64_t data_blocks_ = 0;
  SequenceNumber min_seqno_ = kMaxSequenceNumber;
  const std::thread::id adding_thread_;
  // Read after the builder joined its compression threads (Finish).
  std::atomic<bool> blocks_unattributable_{false};
};

class TombstoneStatsCollectorFactory : public InternalTblPropCollFactory {
 public:
  explicit TombstoneStatsCollectorFactory(const MutableCFOptions& options) {
    Configure(options);
  }

  void Configure(const MutableCFOptions& options) {
    window_.store(options.tombstone_density_window, std::memory_order_relaxed);
    enabled_.store(TombstoneStatsEnabled(options), std::memory_order_relaxed);
  }

  InternalTblPropColl* CreateInternalTblPropColl(
      uint32_t /*column_family_id*/, int /*level_at_creation*/,
      int /*num_levels*/,
      SequenceNumber /*last_level_inclusive_max_seqno_threshold*/) override {
    // Upstream drops null collectors: with the feature off, tables are
    // written exactly as by stock RocksDB.
    if (!enabled_.load(std::memory_order_relaxed)) {
      return nullptr;
    }
    return new TombstoneStatsCollector(window_.load(std::memory_order_relaxed));
  }

  const char* Name() const override { return kTombstoneStatsFactoryName; }

 private:
  std::atomic<bool> enabled_{false};
  std::atomic<uint32_t> window_{128};
};

bool ParseU64(const UserCollectedProperties& props, const char* name,
              uint64_t* value) {
  auto it = props.find(name);
  if (it == props.end() || it->second.empty()) {
    return false;
  }
  uint64_t v = 0;
  for (char c : it->second) {
    if (c < '0' || c > '9' ||
        v > (std::numeric_limits<uint64_t>::max() - 9) / 10) {
      return false;
    }
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *value = v;
  return true;
}

}  // namespace

bool TombstoneStatsEnabled(const MutableCFOptions& options) {
  return options.tombstone_density_trigger > 0 ||
         options.delete_persistence_threshold > 0;
}

InternalTblPropCollFactory* NewTombstoneStatsCollectorFactory(
    const MutableCFOptions& options) {
  return new TombstoneStatsCollectorFactory(options);
}

void ConfigureTombstoneStats(InternalTblPropCollFactory* factory,
                             const MutableCFOptions& options) {
  // Release builds have no RTTI: recognize ours by name.
  if (factory != nullptr &&
      std::strcmp(factory->Name(), kTombstoneStatsFactoryName) == 0) {
    static_cast<TombstoneStatsCollectorFactory*>(factory)->Configure(options);
  }
}

void SetTombstoneStats(const TableProperties& props, uint64_t fallback_time,
                       FileMetaData* meta) {
  const UserCollectedProperties& user = props.user_collected_properties;
  uint64_t point = 0, window = 0, peak = 0, min_seqno = 0;
  if (!ParseU64(user, kTombstonePointProperty, &point) ||
      !ParseU64(user, kTombstoneWindowProperty, &window) ||
      !ParseU64(user, kTombstoneWindowPeakProperty, &peak) ||
      !ParseU64(user, kTombstoneMinSeqnoProperty, &min_seqno)) {
    return;  // Written with the feature off, or by stock RocksDB.
  }
  meta->tombstone_stats.known = true;
  meta->tombstone_stats.count = point;
  meta->tombstone_stats.window =
      static_cast<uint32_t>(std::min<uint64_t>(window, UINT32_MAX));
  meta->tombstone_stats.window_peak =
      static_cast<uint32_t>(std::min<uint64_t>(peak, UINT32_MAX));
  meta->tombstone_stats.oldest_time = 0;
  if (min_seqno == kMaxSequenceNumber) {
    return;  // No tombstones.
  }
  uint64_t time = kUnknownTimeBeforeAll;
  if (!props.seqno_to_time_mapping.empty()) {
    SeqnoToTimeMapping mapping;
    if (mapping.DecodeFrom(props.seqno_to_time_mapping).ok()) {
      time = mapping.GetProximalTimeBeforeSeqno(min_seqno);
    }
  }
  // Unknown: the oldest ancestor time bounds every entry's write time from
  // below, so a deadline computed from it is never late. (1 = "some time
  // long ago" when even that is unknown.)
  meta->tombstone_stats.oldest_time =
      time != kUnknownTimeBeforeAll ? time
                                    : std::max<uint64_t>(fallback_time, 1);
}

void AddTombstoneStatsToNewFile(const FileMetaData& from, VersionEdit* edit) {
  if (!from.tombstone_stats.known || edit->GetNewFiles().empty()) {
    return;
  }
  // The edit exposes its new files read-only; it is ours to modify here.
  auto& files = const_cast<VersionEdit::NewFiles&>(edit->GetNewFiles());
  FileMetaData& to = files.back().second;
  assert(to.fd.GetNumber() == from.fd.GetNumber());
  to.tombstone_stats = from.tombstone_stats;
}

void EncodeTombstoneStats(const FileMetaData& meta, std::string* dst) {
  PutVarint64(dst, meta.tombstone_stats.count);
  PutVarint32(dst, meta.tombstone_stats.window);
  PutVarint32(dst, meta.tombstone_stats.window_peak);
  PutVarint64(dst, meta.tombstone_stats.oldest_time);
}

bool DecodeTombstoneStats(const std::string& field, FileMetaData* meta) {
  Slice in(field);
  uint64_t count = 0, time = 0;
  uint32_t window = 0, peak = 0;
  if (!GetVarint64(&in, &count) || !GetVarint32(&in, &window) ||
      !GetVarint32(&in, &peak) || !GetVarint64(&in, &time)) {
    return false;
  }
  meta->tombstone_stats.known = true;
  meta->tombstone_stats.count = count;
  meta->tombstone_stats.window = window;
  meta->tombstone_stats.window_peak = peak;
  meta->tombstone_stats.oldest_time = time;
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
