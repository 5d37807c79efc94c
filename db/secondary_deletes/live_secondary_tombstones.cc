#include "db/secondary_deletes/live_secondary_tombstones.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "db/column_family.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/convenience.h"
#include "rocksdb/delete_key_extractor.h"

namespace ROCKSDB_NAMESPACE {

LiveSecondaryTombstones::LiveSecondaryTombstones(
    std::vector<SecondaryRangeTombstone> tombstones, SequenceNumber watermark)
    : tombstones_(std::move(tombstones)),
      set_(tombstones_),
      watermark_(watermark) {
  assert(std::is_sorted(
      tombstones_.begin(), tombstones_.end(),
      [](const SecondaryRangeTombstone& a, const SecondaryRangeTombstone& b) {
        return a.seq < b.seq;
      }));
  assert(tombstones_.empty() || tombstones_.back().seq <= watermark_);
}

bool LiveSecondaryTombstones::MayHoldCovered(
    const FileMetaData& file, const SecondaryRangeTombstone& tombstone) {
  return file.fd.smallest_seqno < tombstone.seq &&
         file.secondary_tombstones_applied < tombstone.seq;
}

namespace {

bool AnyFileMayHoldCovered(const VersionStorageInfo& vstorage,
                           const SecondaryRangeTombstone& tombstone) {
  for (int level = 0; level < vstorage.num_levels(); ++level) {
    for (const FileMetaData* file : vstorage.LevelFiles(level)) {
      if (LiveSecondaryTombstones::MayHoldCovered(*file, tombstone)) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

void SaveSecondaryTombstonesTo(
    const VersionStorageInfo& base,
    const std::vector<SecondaryRangeTombstone>& added, Statistics* stats,
    VersionStorageInfo* vstorage) {
  const std::shared_ptr<const LiveSecondaryTombstones>& before =
      base.secondary_tombstones();
  if (added.empty() && (before == nullptr || before->empty())) {
    vstorage->set_secondary_tombstones(before);
    return;
  }
  std::vector<SecondaryRangeTombstone> candidates;
  SequenceNumber watermark = 0;
  if (before != nullptr) {
    candidates = before->tombstones();
    watermark = before->watermark();
  }
  for (const SecondaryRangeTombstone& t : added) {
    candidates.push_back(t);
    watermark = std::max(watermark, t.seq);
  }
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const SecondaryRangeTombstone& a, const SecondaryRangeTombstone& b) {
        return a.seq < b.seq;
      });
  std::vector<SecondaryRangeTombstone> live;
  for (SecondaryRangeTombstone& t : candidates) {
    if (AnyFileMayHoldCovered(*vstorage, t)) {
      live.push_back(std::move(t));
    }
  }
  const size_t retired = candidates.size() - live.size();
  if (retired > 0) {
    RecordTick(stats, SECONDARY_DELETE_TOMBSTONES_RETIRED, retired);
  }
  if (added.empty() && retired == 0) {
    vstorage->set_secondary_tombstones(before);
    return;
  }
  vstorage->set_secondary_tombstones(
      std::make_shared<const LiveSecondaryTombstones>(std::move(live),
                                                      watermark));
}

void AddSecondaryTombstoneState(const VersionStorageInfo& vstorage,
                                VersionEdit* edit) {
  const std::shared_ptr<const LiveSecondaryTombstones>& live =
      vstorage.secondary_tombstones();
  if (live == nullptr) {
    return;
  }
  for (const SecondaryRangeTombstone& t : live->tombstones()) {
    edit->AddSecondaryRangeTombstone(t);
  }
  for (auto& level_and_file : edit->GetMutableNewFiles()) {
    FileMetaData& added = level_and_file.second;
    const FileMetaData* current =
        vstorage.GetFileMetaDataByNumber(added.fd.GetNumber());
    if (current != nullptr) {
      added.secondary_tombstones_applied =
          current->secondary_tombstones_applied;
    }
  }
}

std::string DescribeExtractor(const DeleteKeyExtractor& extractor) {
  ConfigOptions config;
  return extractor.ToString(config);
}

Status CheckSecondaryTombstoneExtractors(ColumnFamilySet& families) {
  for (ColumnFamilyData* cfd : families) {
    if (cfd->IsDropped() || cfd->current() == nullptr) {
      continue;
    }
    const std::shared_ptr<const LiveSecondaryTombstones>& live =
        cfd->current()->storage_info()->secondary_tombstones();
    if (live == nullptr || live->empty()) {
      continue;
    }
    const DeleteKeyExtractor* extractor =
        cfd->GetLatestMutableCFOptions()->delete_key_extractor.get();
    const std::string options =
        extractor == nullptr ? std::string() : DescribeExtractor(*extractor);
    for (const SecondaryRangeTombstone& t : live->tombstones()) {
      if (t.extractor != options) {
        return Status::InvalidArgument(
            "column family " + cfd->GetName() +
            " holds live secondary range tombstones issued with "
            "delete_key_extractor=" +
            t.extractor + "; open it with that extractor, not " +
            (options.empty() ? std::string("none") : options));
      }
    }
  }
  return Status::OK();
}

bool SecondaryTombstonesNeedSeqno(const SuperVersion& sv) {
  return sv.current->storage_info()->secondary_tombstones() != nullptr;
}

}  // namespace ROCKSDB_NAMESPACE
