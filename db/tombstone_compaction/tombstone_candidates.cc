// Tombstone-aware compaction candidates (tombstone_candidates.h) and the
// stage deadlines they are judged by (tombstone_deadlines.h).

#include "db/tombstone_compaction/tombstone_candidates.h"

#include <algorithm>

#include "db/compaction/compaction.h"
#include "db/secondary_deletes/live_secondary_tombstones.h"
#include "db/tombstone_compaction/tombstone_deadlines.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/system_clock.h"

namespace ROCKSDB_NAMESPACE {

std::vector<double> TombstoneStageWeights(const VersionStorageInfo& vstorage,
                                          int base_level, int last_level,
                                          const MutableCFOptions& options) {
  const double memtable = static_cast<double>(options.write_buffer_size);
  std::vector<double> weights = {
      memtable,
      memtable * std::max(options.level0_file_num_compaction_trigger, 1)};
  for (int level = base_level; level < last_level; level++) {
    weights.push_back(static_cast<double>(vstorage.MaxBytesForLevel(level)));
  }
  return weights;
}

std::vector<uint64_t> TombstoneStageDeadlines(
    uint64_t threshold_seconds, const std::vector<double>& weights) {
  double total = 0;
  for (double w : weights) total += std::max(w, 0.0);
  const double budget = 0.9 * static_cast<double>(threshold_seconds);
  std::vector<uint64_t> deadlines;
  double cumulative = 0;
  for (double w : weights) {
    cumulative += total > 0 ? budget * std::max(w, 0.0) / total
                            : budget / static_cast<double>(weights.size());
    deadlines.push_back(static_cast<uint64_t>(cumulative));
  }
  return deadlines;
}

void ComputeTombstoneCompactionCandidates(
    const VersionStorageInfo& vstorage, const ImmutableOptions& ioptions,
    const MutableCFOptions& mutable_cf_options, int num_non_empty_levels,
    std::vector<VersionStorageInfo::TombstoneCompactionCandidate>* candidates,
    uint64_t* next_deadline) {
  candidates->clear();
  *next_deadline = 0;
  const uint64_t threshold = mutable_cf_options.delete_persistence_threshold;
  const double density_trigger = mutable_cf_options.tombstone_density_trigger;
  if (ioptions.compaction_style != kCompactionStyleLevel ||
      (threshold == 0 && density_trigger <= 0)) {
    return;
  }
  int64_t now_signed = 0;
  if (!ioptions.clock->GetCurrentTime(&now_signed).ok()) {
    now_signed = 0;
  }
  const uint64_t now = static_cast<uint64_t>(std::max<int64_t>(now_signed, 0));

  // Stages: the memtable (flushed by the timer), L0, then base_level up to
  // the level above the last non-empty one.
  const int base_level = vstorage.base_level();
  const int last_level = TombstoneLastLevel(num_non_empty_levels, base_level);
  std::vector<uint64_t> deadlines;
  if (threshold > 0) {
    deadlines = TombstoneStageDeadlines(
        threshold, TombstoneStageWeights(vstorage, base_level, last_level,
                                         mutable_cf_options));
  }

  // Secondary range tombstones (docs/kiwi.md) under a deadline: what one
  // covers is persisted once every file that may hold it was compacted.
  const LiveSecondaryTombstones* secondary =
      threshold > 0 ? vstorage.secondary_tombstones().get() : nullptr;
  if (secondary != nullptr && secondary->empty()) {
    secondary = nullptr;
  }

  for (int level = 0; level < vstorage.num_levels(); level++) {
    const bool last = level >= last_level;
    int stage = -1;
    if (level == 0) {
      stage = 1;
    } else if (level >= base_level && !last) {
      stage = 2 + (level - base_level);
    }
    for (FileMetaData* f : vstorage.LevelFiles(level)) {
      if (f->being_compacted || f->tombstone_stats.written_in_place) {
        continue;
      }
      // Deadline of the secondary tombstones the file may hold covered
      // entries of, at any level: the earliest due one decides.
      bool holds_covered = false;
      uint64_t secondary_issued = 0;
      uint64_t secondary_due = 0;
      if (secondary != nullptr) {
        for (const SecondaryRangeTombstone& t : secondary->tombstones()) {
          const uint64_t t_due = LiveSecondaryTombstones::DueAt(t, threshold);
          if ((!holds_covered || t_due < secondary_due) &&
              LiveSecondaryTombstones::MayHoldCovered(*f, t)) {
            holds_covered = true;
            secondary_issued = t.issued_at;
            secondary_due = t_due;
          }
        }
      }
      if (holds_covered) {
        if (now >= secondary_due) {
          const double age =
              static_cast<double>(now - std::min(secondary_issued, now));
          const double allowed = static_cast<double>(
              std::max<uint64_t>(secondary_due - secondary_issued, 1));
          candidates->push_back({level, f,
                                 CompactionReason::kDeletePersistenceDeadline,
                                 age / allowed});
          continue;
        }
        if (*next_deadline == 0 || secondary_due < *next_deadline) {
          *next_deadline = secondary_due;
        }
      }
      if (!f->tombstone_stats.known) {
        continue;
      }
      // Deadline: tombstones in the last level are persisted.
      if (stage >= 0 && f->tombstone_stats.oldest_time > 0 &&
          !deadlines.empty()) {
        const uint64_t due =
            f->tombstone_stats.oldest_time +
            deadlines[std::min<size_t>(stage, deadlines.size() - 1)];
        if (now >= due) {
          const double age =
              static_cast<double>(now - f->tombstone_stats.oldest_time);
          const double allowed = static_cast<double>(
              std::max<uint64_t>(due - f->tombstone_stats.oldest_time, 1));
          candidates->push_back({level, f,
                                 CompactionReason::kDeletePersistenceDeadline,
                                 age / allowed});
          continue;
        }
        if (*next_deadline == 0 || due < *next_deadline) {
          *next_deadline = due;
        }
      }
      // Density.
      if (density_trigger > 0 && f->tombstone_stats.window > 0 &&
          f->tombstone_stats.count > 0) {
        const double density =
            static_cast<double>(f->tombstone_stats.window_peak) /
            static_cast<double>(f->tombstone_stats.window);
        if (density >= density_trigger) {
          candidates->push_back(
              {level, f, CompactionReason::kTombstoneDensity, density});
        }
      }
    }
  }

  using Candidate = VersionStorageInfo::TombstoneCompactionCandidate;
  std::sort(
      candidates->begin(), candidates->end(),
      [](const Candidate& a, const Candidate& b) {
        if (a.rank != b.rank) {
          return a.rank > b.rank;
        }
        // Upper levels first: compacting a file down also rewrites the
        // files it overlaps below (all of one secondary tombstone's
        // candidates share a rank).
        if (a.level != b.level) {
          return a.level < b.level;
        }
        if (a.file->tombstone_stats.count != b.file->tombstone_stats.count) {
          return a.file->tombstone_stats.count > b.file->tombstone_stats.count;
        }
        return a.file->tombstone_stats.oldest_time <
               b.file->tombstone_stats.oldest_time;
      });
}

bool TombstoneCandidateRunnable(
    const VersionStorageInfo& vstorage,
    const VersionStorageInfo::TombstoneCompactionCandidate& candidate,
    SequenceNumber earliest_snapshot) {
  if (candidate.reason != CompactionReason::kTombstoneDensity ||
      candidate.level < TombstoneLastLevel(vstorage.num_non_empty_levels(),
                                           vstorage.base_level())) {
    return true;
  }
  return candidate.file->fd.largest_seqno < earliest_snapshot;
}

bool IsTombstoneCompactionReason(CompactionReason reason) {
  return reason == CompactionReason::kTombstoneDensity ||
         reason == CompactionReason::kDeletePersistenceDeadline;
}

void RecordTombstoneCompactionPick(Statistics* stats, CompactionReason reason) {
  if (reason == CompactionReason::kTombstoneDensity) {
    RecordTick(stats, COMPACTION_TOMBSTONE_DENSITY_PICKS);
  } else if (reason == CompactionReason::kDeletePersistenceDeadline) {
    RecordTick(stats, COMPACTION_TOMBSTONE_DEADLINE_PICKS);
  }
}

void MarkTombstoneCompactionOutputs(const Compaction& compaction,
                                    VersionEdit* edit) {
  if (!IsTombstoneCompactionReason(compaction.compaction_reason())) {
    return;
  }
  for (auto& [level, meta] : edit->GetMutableNewFiles()) {
    if (level == compaction.start_level()) {
      meta.tombstone_stats.written_in_place = true;
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE
