#include "tests/differential/db_under_test.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include "rocksdb/delete_key_extractor.h"
#include "rocksdb/env.h"
#include "rocksdb/secondary_delete.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "utilities/merge_operators.h"

namespace lodestone_test {

using ROCKSDB_NAMESPACE::ColumnFamilyDescriptor;
using ROCKSDB_NAMESPACE::ColumnFamilyHandle;
using ROCKSDB_NAMESPACE::ColumnFamilyMetaData;
using ROCKSDB_NAMESPACE::ColumnFamilyOptions;
using ROCKSDB_NAMESPACE::CompactionOptions;
using ROCKSDB_NAMESPACE::CompactRangeOptions;
using ROCKSDB_NAMESPACE::DB;
using ROCKSDB_NAMESPACE::DBOptions;
using ROCKSDB_NAMESPACE::FlushOptions;
using ROCKSDB_NAMESPACE::Iterator;
using ROCKSDB_NAMESPACE::MergeOperators;
using ROCKSDB_NAMESPACE::PinnableSlice;
using ROCKSDB_NAMESPACE::ReadOptions;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;
using ROCKSDB_NAMESPACE::WriteOptions;

namespace {

std::string FormatValue(const Status& s, const std::string& value) {
  if (s.ok()) return "=" + value;
  if (s.IsNotFound()) return "<none>";
  return "<error " + s.ToString() + ">";
}

}  // namespace

DbUnderTest::DbUnderTest(const OptionSet& set, std::string path,
                         int num_column_families, bool secondary_deletes)
    : set_(set),
      path_(std::move(path)),
      num_column_families_(num_column_families) {
  options_.create_if_missing = true;
  options_.create_missing_column_families = true;
  options_.write_buffer_size = 64 << 10;
  options_.target_file_size_base = 64 << 10;
  options_.max_bytes_for_level_base = 256 << 10;
  options_.max_bytes_for_level_multiplier = 4;
  options_.level0_file_num_compaction_trigger = 2;
  options_.level_compaction_dynamic_level_bytes = false;
  options_.num_levels = 5;
  options_.max_background_jobs = 2;
  options_.merge_operator = MergeOperators::CreateStringAppendOperator(',');
  options_.statistics = ROCKSDB_NAMESPACE::CreateDBStatistics();
  if (secondary_deletes) {
    options_.delete_key_extractor =
        ROCKSDB_NAMESPACE::NewKeySuffixDeleteKeyExtractor(
            kSecondaryDeleteKeyLength);
  }
  if (set_.apply) set_.apply(&options_);
}

DbUnderTest::~DbUnderTest() {
  StopWriter();
  Close();
}

void DbUnderTest::StartWriter(int num_keys, uint64_t seed) {
  if (!set_.concurrent_writer) return;
  writer_ = std::thread([this, num_keys, seed] {
    std::mt19937_64 rng(seed);
    for (uint64_t n = 0; !stop_writer_.load(); ++n) {
      while (n >= ops_applied_.load(std::memory_order_relaxed) /
                      kOpsPerWriterKey &&
             !stop_writer_.load()) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
      char key[48];
      snprintf(key, sizeof(key), "k%06d~w%llu",
               static_cast<int>(rng() % static_cast<uint64_t>(num_keys)),
               static_cast<unsigned long long>(n));
      const uint64_t started = range_deletes_done_.load();
      Status s;
      {
        std::shared_lock<std::shared_mutex> l(db_mu_);
        if (db_ == nullptr) continue;
        s = db_->Put(WriteOptions(), key, "w");
      }
      if (s.ok()) written_.push_back({key, started});
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
}

std::string DbUnderTest::StopWriter() {
  if (!writer_.joinable()) return "";
  stop_writer_.store(true);
  writer_.join();
  if (db_ == nullptr) return "";
  for (const WrittenKey& w : written_) {
    bool deleted_later = false;
    for (size_t i = w.range_deletes_before; i < range_deletes_.size(); ++i) {
      deleted_later = deleted_later || (range_deletes_[i].first <= w.key &&
                                        w.key < range_deletes_[i].second);
    }
    if (deleted_later) continue;
    PinnableSlice value;
    Status s =
        db_->Get(ReadOptions(), db_->DefaultColumnFamily(), w.key, &value);
    if (!s.ok()) {
      return "concurrent writer's key " + w.key + " lost: " + s.ToString();
    }
  }
  return "";
}

Status DbUnderTest::Open(bool destroy) {
  if (destroy) {
    Status s = ROCKSDB_NAMESPACE::DestroyDB(path_, options_);
    if (!s.ok()) return s;
  }
  std::vector<ColumnFamilyDescriptor> families;
  for (int cf = 0; cf < num_column_families_; ++cf) {
    families.emplace_back(cf == 0 ? ROCKSDB_NAMESPACE::kDefaultColumnFamilyName
                                  : "cf" + std::to_string(cf),
                          ColumnFamilyOptions(options_));
  }
  DB* db = nullptr;
  handles_.clear();
  Status s = DB::Open(DBOptions(options_), path_, families, &handles_, &db);
  db_.reset(db);
  return s;
}

Status DbUnderTest::CrashReopen() {
  // Paused, no flush or compaction is half way through a file, and none
  // runs while the files are copied; writes, initial-put chains and
  // conversions already in the memtables stay there.
  Status s = db_->PauseBackgroundWork();
  if (!s.ok()) return s;
  const std::string image = path_ + ".crash";
  std::error_code ec;
  std::filesystem::remove_all(image, ec);
  std::filesystem::copy(path_, image, ec);
  s = db_->ContinueBackgroundWork();
  Close();  // The copy is the DB now; what Close writes is lost.
  if (ec) return Status::IOError("crash image", ec.message());
  std::filesystem::remove_all(path_, ec);
  std::filesystem::rename(image, path_, ec);
  if (ec) return Status::IOError("crash image", ec.message());
  if (!s.ok()) return s;
  return Open(/*destroy=*/false);
}

void DbUnderTest::Close() {
  for (auto& snap : snapshots_) {
    if (snap != nullptr && db_ != nullptr) db_->ReleaseSnapshot(snap);
    snap = nullptr;
  }
  for (ColumnFamilyHandle* handle : handles_) {
    if (db_ != nullptr)
      db_->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
  }
  handles_.clear();
  db_.reset();
}

uint64_t DbUnderTest::Ticker(uint32_t ticker) const {
  return options_.statistics ? options_.statistics->getTickerCount(ticker) : 0;
}

uint64_t DbUnderTest::ChainsPruned() const {
  return Ticker(ROCKSDB_NAMESPACE::INITIAL_CHAINS_PRUNED);
}

uint64_t DbUnderTest::RunsConverted() const {
  return Ticker(ROCKSDB_NAMESPACE::READ_PATH_RANGE_TOMBSTONES_INSERTED);
}

uint64_t DbUnderTest::LocationCacheHits() const {
  return Ticker(ROCKSDB_NAMESPACE::LOCATION_CACHE_HIT);
}

uint64_t DbUnderTest::CraftEmptyAnswers() const {
  return Ticker(ROCKSDB_NAMESPACE::CRAFT_FILTER_EMPTY);
}

uint64_t DbUnderTest::OverlapsCountedByKeys() const {
  return Ticker(ROCKSDB_NAMESPACE::COMPACTION_OVERLAP_BY_KEYS_FROM_FILTER);
}

uint64_t DbUnderTest::SecondaryDeleteEntriesSkipped() const {
  return Ticker(ROCKSDB_NAMESPACE::SECONDARY_DELETE_ENTRIES_HIDDEN) +
         Ticker(ROCKSDB_NAMESPACE::SECONDARY_DELETE_ENTRIES_DROPPED) +
         Ticker(ROCKSDB_NAMESPACE::SECONDARY_DELETE_BLOCKS_SKIPPED) +
         Ticker(ROCKSDB_NAMESPACE::SECONDARY_DELETE_BLOCKS_DROPPED_FULL);
}

uint64_t DbUnderTest::TombstoneCompactions() const {
  return Ticker(ROCKSDB_NAMESPACE::COMPACTION_TOMBSTONE_DENSITY_PICKS) +
         Ticker(ROCKSDB_NAMESPACE::COMPACTION_TOMBSTONE_DEADLINE_PICKS);
}

void DbUnderTest::Destroy() {
  Close();
  ROCKSDB_NAMESPACE::DestroyDB(path_, options_).PermitUncheckedError();
}

Status DbUnderTest::Apply(const Op& op) {
  const WriteOptions wo;
  ColumnFamilyHandle* cf = Cf(op.cf);
  switch (op.kind) {
    case OpKind::kPut:
      return db_->Put(wo, cf, op.key, op.value);
    case OpKind::kPutInitial:
      return set_.initial_puts ? db_->PutInitial(wo, cf, op.key, op.value)
                               : db_->Put(wo, cf, op.key, op.value);
    case OpKind::kMerge:
      return db_->Merge(wo, cf, op.key, op.value);
    case OpKind::kDelete:
      if (set_.drop_nth_delete > 0 &&
          ++deletes_seen_ % set_.drop_nth_delete == 0) {
        return Status::OK();  // Planted bug: the delete is lost.
      }
      return db_->Delete(wo, cf, op.key);
    case OpKind::kSingleDelete:
      return db_->SingleDelete(wo, cf, op.key);
    case OpKind::kDeleteRange: {
      Status s = db_->DeleteRange(wo, cf, op.key, op.key2);
      if (op.cf == 0) {
        // Writer keys this may have covered are no longer expected.
        range_deletes_.emplace_back(op.key, op.key2);
        range_deletes_done_.store(range_deletes_.size());
      }
      return s;
    }
    case OpKind::kSnapshot:
      if (snapshots_[op.snapshot])
        db_->ReleaseSnapshot(snapshots_[op.snapshot]);
      snapshots_[op.snapshot] = db_->GetSnapshot();
      return Status::OK();
    case OpKind::kReleaseSnapshot:
      if (snapshots_[op.snapshot])
        db_->ReleaseSnapshot(snapshots_[op.snapshot]);
      snapshots_[op.snapshot] = nullptr;
      return Status::OK();
    case OpKind::kFlush:
      return db_->Flush(FlushOptions(), cf);
    case OpKind::kCompactRange: {
      Slice begin(op.key), end(op.key2);
      return db_->CompactRange(CompactRangeOptions(), cf,
                               op.key.empty() ? nullptr : &begin,
                               op.key2.empty() ? nullptr : &end);
    }
    case OpKind::kCompactFile:
      return CompactOneFile(op.cf, op.pick);
    case OpKind::kIngest:
      return Ingest(op);
    case OpKind::kSecondaryDelete:
      return ROCKSDB_NAMESPACE::DeleteByDeleteKeyRange(db_.get(), cf, op.key,
                                                       op.key2);
    case OpKind::kReopen: {
      std::unique_lock<std::shared_mutex> l(db_mu_);
      Close();
      return Open(/*destroy=*/false);
    }
    case OpKind::kCrashReopen: {
      std::unique_lock<std::shared_mutex> l(db_mu_);
      return CrashReopen();
    }
    default:
      return Status::OK();
  }
}

std::string DbUnderTest::Read(const Op& op) {
  ReadOptions ro;
  if (op.snapshot >= 0) ro.snapshot = snapshots_[op.snapshot];
  ColumnFamilyHandle* cf = Cf(op.cf);
  switch (op.kind) {
    case OpKind::kGet: {
      PinnableSlice value;
      Status s = db_->Get(ro, cf, op.key, &value);
      std::string first = FormatValue(s, value.ToString());
      if (set_.warm_point_reads) {
        value.Reset();
        s = db_->Get(ro, cf, op.key, &value);
        std::string second = FormatValue(s, value.ToString());
        if (second != first) {
          return first + " then " + second;
        }
      }
      return first;
    }
    case OpKind::kMultiGet: {
      std::vector<std::string> keys = MultiGetKeys(op);
      if (set_.warm_point_reads) {
        for (const std::string& key : keys) {
          PinnableSlice ignored;
          db_->Get(ro, cf, key, &ignored).PermitUncheckedError();
        }
      }
      std::vector<Slice> slices(keys.begin(), keys.end());
      std::vector<PinnableSlice> values(keys.size());
      std::vector<Status> statuses(keys.size());
      db_->MultiGet(ro, cf, keys.size(), slices.data(), values.data(),
                    statuses.data());
      std::string out;
      for (size_t i = 0; i < keys.size(); ++i) {
        out += keys[i] + FormatValue(statuses[i], values[i].ToString()) + " ";
      }
      return out;
    }
    case OpKind::kScan:
      return Scan(ro, op);
    default:
      return "";
  }
}

Status DbUnderTest::Ingest(const Op& op) {
  const std::string file = path_ + ".ingest.sst";
  ROCKSDB_NAMESPACE::SstFileWriter writer(ROCKSDB_NAMESPACE::EnvOptions(),
                                          options_);
  Status s = writer.Open(file);
  for (const auto& [key, value] : IngestEntries(op)) {
    if (!s.ok()) break;
    s = value.empty() ? writer.Delete(key) : writer.Put(key, value);
  }
  if (s.ok()) s = writer.Finish();
  if (s.ok()) {
    s = db_->IngestExternalFile(Cf(op.cf), {file},
                                ROCKSDB_NAMESPACE::IngestExternalFileOptions());
  }
  options_.env->DeleteFile(file).PermitUncheckedError();
  return s;
}

std::string DbUnderTest::Scan(ReadOptions ro, const Op& op) {
  Slice bound(op.key2);
  if (!op.key2.empty()) {
    (op.reverse ? ro.iterate_lower_bound : ro.iterate_upper_bound) = &bound;
  }
  std::unique_ptr<Iterator> it(db_->NewIterator(ro, Cf(op.cf)));
  if (!op.reverse) {
    op.key.empty() ? it->SeekToFirst() : it->Seek(op.key);
  } else {
    op.key.empty() ? it->SeekToLast() : it->SeekForPrev(op.key);
  }
  std::string out;
  for (int n = 0; it->Valid() && n < op.count;
       op.reverse ? it->Prev() : it->Next()) {
    if (it->key().ToString().find("~w") != std::string::npos) {
      continue;  // The concurrent writer's key: not in the model.
    }
    out += it->key().ToString() + "=" + it->value().ToString() + " ";
    ++n;
  }
  if (!it->status().ok()) out += "<error " + it->status().ToString() + ">";
  return out;
}

Status DbUnderTest::CompactOneFile(int cf, uint32_t pick) {
  ColumnFamilyMetaData meta;
  db_->GetColumnFamilyMetaData(Cf(cf), &meta);
  std::vector<std::pair<int, std::string>> files;
  for (const auto& level : meta.levels) {
    for (const auto& file : level.files) {
      files.emplace_back(level.level, file.name);
    }
  }
  if (files.empty()) return Status::OK();
  const auto& [level, name] = files[pick % files.size()];
  const int output = std::min(level + 1, options_.num_levels - 1);
  Status s = db_->CompactFiles(CompactionOptions(), Cf(cf), {name}, output);
  // Losing a race with a background compaction is fine; damage is not.
  if (s.IsCorruption() || s.IsIOError()) return s;
  return Status::OK();
}

}  // namespace lodestone_test
