#include "tests/differential/harness.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <shared_mutex>
#include <sstream>
#include <thread>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "rocksdb/utilities/options_util.h"
#include "tests/differential/model.h"
#include "utilities/merge_operators.h"

namespace lodestone_test {

using ROCKSDB_NAMESPACE::ColumnFamilyMetaData;
using ROCKSDB_NAMESPACE::CompactionOptions;
using ROCKSDB_NAMESPACE::CompactRangeOptions;
using ROCKSDB_NAMESPACE::DB;
using ROCKSDB_NAMESPACE::FlushOptions;
using ROCKSDB_NAMESPACE::Iterator;
using ROCKSDB_NAMESPACE::MergeOperators;
using ROCKSDB_NAMESPACE::Options;
using ROCKSDB_NAMESPACE::PinnableSlice;
using ROCKSDB_NAMESPACE::ReadOptions;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Snapshot;
using ROCKSDB_NAMESPACE::Status;
using ROCKSDB_NAMESPACE::WriteOptions;

namespace {

std::vector<std::string> MultiGetKeys(const Op& op) {
  std::vector<std::string> keys = {op.key};
  std::stringstream in(op.value);
  std::string key;
  while (std::getline(in, key, ',')) {
    keys.push_back(key);
  }
  return keys;
}

std::string FormatValue(const Status& s, const std::string& value) {
  if (s.ok()) return "=" + value;
  if (s.IsNotFound()) return "<none>";
  return "<error " + s.ToString() + ">";
}

// The model's answer to a read, in the same text form as DbUnderTest::Read.
std::string ModelRead(const Model& model, const Op& op, uint64_t seq) {
  auto get = [&](const std::string& key) {
    std::optional<std::string> v = model.Get(key, seq);
    return v ? "=" + *v : std::string("<none>");
  };
  switch (op.kind) {
    case OpKind::kGet:
      return get(op.key);
    case OpKind::kMultiGet: {
      std::string out;
      for (const std::string& key : MultiGetKeys(op))
        out += key + get(key) + " ";
      return out;
    }
    case OpKind::kScan: {
      std::vector<Model::KV> kvs;
      if (!op.reverse) {
        kvs = model.Scan(op.key, op.key2, seq);
        if (kvs.size() > static_cast<size_t>(op.count)) kvs.resize(op.count);
      } else {
        // SeekForPrev(key): entries <= key; lower bound key2 inclusive.
        std::vector<Model::KV> all = model.Scan(op.key2, "", seq);
        for (auto it = all.rbegin(); it != all.rend(); ++it) {
          if (!op.key.empty() && it->first > op.key) continue;
          kvs.push_back(*it);
          if (kvs.size() == static_cast<size_t>(op.count)) break;
        }
      }
      std::string out;
      for (const auto& kv : kvs) out += kv.first + "=" + kv.second + " ";
      return out;
    }
    default:
      return "";
  }
}

class DbUnderTest {
 public:
  DbUnderTest(const OptionSet& set, std::string path)
      : set_(set), path_(std::move(path)) {
    options_.create_if_missing = true;
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
    if (set_.apply) set_.apply(&options_);
  }

  ~DbUnderTest() {
    StopWriter();
    Close();
  }

  // The concurrent writer (OptionSet::concurrent_writer).
  void StartWriter(int num_keys, uint64_t seed) {
    if (!set_.concurrent_writer) return;
    writer_ = std::thread([this, num_keys, seed] {
      std::mt19937_64 rng(seed);
      for (uint64_t n = 0; !stop_writer_.load(); ++n) {
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

  // Stops the writer; returns a description of the first acknowledged write
  // that is gone, or "" if none is.
  std::string StopWriter() {
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

  const std::string& name() const { return set_.name; }

  Status Open(bool destroy) {
    if (destroy) {
      Status s = ROCKSDB_NAMESPACE::DestroyDB(path_, options_);
      if (!s.ok()) return s;
    }
    DB* db = nullptr;
    Status s = DB::Open(options_, path_, &db);
    db_.reset(db);
    return s;
  }

  void Close() {
    for (auto& snap : snapshots_) {
      if (snap != nullptr && db_ != nullptr) db_->ReleaseSnapshot(snap);
      snap = nullptr;
    }
    db_.reset();
  }

  uint64_t ChainsPruned() const {
    return options_.statistics ? options_.statistics->getTickerCount(
                                     ROCKSDB_NAMESPACE::INITIAL_CHAINS_PRUNED)
                               : 0;
  }

  uint64_t RunsConverted() const {
    return options_.statistics
               ? options_.statistics->getTickerCount(
                     ROCKSDB_NAMESPACE::READ_PATH_RANGE_TOMBSTONES_INSERTED)
               : 0;
  }

  uint64_t LocationCacheHits() const {
    return options_.statistics ? options_.statistics->getTickerCount(
                                     ROCKSDB_NAMESPACE::LOCATION_CACHE_HIT)
                               : 0;
  }

  uint64_t TombstoneCompactions() const {
    return options_.statistics
               ? options_.statistics->getTickerCount(
                     ROCKSDB_NAMESPACE::COMPACTION_TOMBSTONE_DENSITY_PICKS) +
                     options_.statistics->getTickerCount(
                         ROCKSDB_NAMESPACE::COMPACTION_TOMBSTONE_DEADLINE_PICKS)
               : 0;
  }

  void Destroy() {
    Close();
    ROCKSDB_NAMESPACE::DestroyDB(path_, options_).PermitUncheckedError();
  }

  // Returns a non-OK status only for failures a correct DB must not have.
  Status Apply(const Op& op) {
    const WriteOptions wo;
    switch (op.kind) {
      case OpKind::kPut:
        return db_->Put(wo, op.key, op.value);
      case OpKind::kPutInitial:
        return set_.initial_puts ? db_->PutInitial(wo, op.key, op.value)
                                 : db_->Put(wo, op.key, op.value);
      case OpKind::kMerge:
        return db_->Merge(wo, op.key, op.value);
      case OpKind::kDelete:
        if (set_.drop_nth_delete > 0 &&
            ++deletes_seen_ % set_.drop_nth_delete == 0) {
          return Status::OK();  // Planted bug: the delete is lost.
        }
        return db_->Delete(wo, op.key);
      case OpKind::kSingleDelete:
        return db_->SingleDelete(wo, op.key);
      case OpKind::kDeleteRange: {
        Status s =
            db_->DeleteRange(wo, db_->DefaultColumnFamily(), op.key, op.key2);
        // Writer keys this may have covered are no longer expected.
        range_deletes_.emplace_back(op.key, op.key2);
        range_deletes_done_.store(range_deletes_.size());
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
        return db_->Flush(FlushOptions());
      case OpKind::kCompactRange: {
        Slice begin(op.key), end(op.key2);
        return db_->CompactRange(CompactRangeOptions(),
                                 op.key.empty() ? nullptr : &begin,
                                 op.key2.empty() ? nullptr : &end);
      }
      case OpKind::kCompactFile:
        return CompactOneFile(op.pick);
      case OpKind::kIngest:
        return Ingest(op);
      case OpKind::kReopen: {
        std::unique_lock<std::shared_mutex> l(db_mu_);
        Close();
        return Open(/*destroy=*/false);
      }
      default:
        return Status::OK();
    }
  }

  std::string Read(const Op& op) {
    ReadOptions ro;
    if (op.snapshot >= 0) ro.snapshot = snapshots_[op.snapshot];
    switch (op.kind) {
      case OpKind::kGet: {
        PinnableSlice value;
        Status s = db_->Get(ro, db_->DefaultColumnFamily(), op.key, &value);
        std::string first = FormatValue(s, value.ToString());
        if (set_.warm_point_reads) {
          value.Reset();
          s = db_->Get(ro, db_->DefaultColumnFamily(), op.key, &value);
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
            db_->Get(ro, db_->DefaultColumnFamily(), key, &ignored)
                .PermitUncheckedError();
          }
        }
        std::vector<Slice> slices(keys.begin(), keys.end());
        std::vector<PinnableSlice> values(keys.size());
        std::vector<Status> statuses(keys.size());
        db_->MultiGet(ro, db_->DefaultColumnFamily(), keys.size(),
                      slices.data(), values.data(), statuses.data());
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

 private:
  // Writes the op's entries to an SST file with this DB's options and
  // ingests it (a copy; the file is removed afterwards).
  Status Ingest(const Op& op) {
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
      s = db_->IngestExternalFile(
          {file}, ROCKSDB_NAMESPACE::IngestExternalFileOptions());
    }
    options_.env->DeleteFile(file).PermitUncheckedError();
    return s;
  }

  std::string Scan(ReadOptions ro, const Op& op) {
    Slice bound(op.key2);
    if (!op.key2.empty()) {
      (op.reverse ? ro.iterate_lower_bound : ro.iterate_upper_bound) = &bound;
    }
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
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

  Status CompactOneFile(uint32_t pick) {
    ColumnFamilyMetaData meta;
    db_->GetColumnFamilyMetaData(&meta);
    std::vector<std::pair<int, std::string>> files;
    for (const auto& level : meta.levels) {
      for (const auto& file : level.files) {
        files.emplace_back(level.level, file.name);
      }
    }
    if (files.empty()) return Status::OK();
    const auto& [level, name] = files[pick % files.size()];
    const int output = std::min(level + 1, options_.num_levels - 1);
    Status s = db_->CompactFiles(CompactionOptions(), {name}, output);
    // Losing a race with a background compaction is fine; damage is not.
    if (s.IsCorruption() || s.IsIOError()) return s;
    return Status::OK();
  }

  const OptionSet set_;
  const std::string path_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::array<const Snapshot*, kSnapshotSlots> snapshots_{};
  int deletes_seen_ = 0;
  struct WrittenKey {
    std::string key;
    size_t range_deletes_before;  // DeleteRange ops done when it started
  };
  std::thread writer_;
  std::atomic<bool> stop_writer_{false};
  std::shared_mutex db_mu_;          // the writer vs. reopen
  std::vector<WrittenKey> written_;  // the writer thread's only
  std::vector<std::pair<std::string, std::string>> range_deletes_;
  std::atomic<size_t> range_deletes_done_{0};
};

bool IsRead(OpKind kind) {
  return kind == OpKind::kGet || kind == OpKind::kMultiGet ||
         kind == OpKind::kScan;
}

void ApplyToModel(Model* model, const Op& op,
                  std::array<int64_t, kSnapshotSlots>* snapshots) {
  switch (op.kind) {
    case OpKind::kPut:
      model->Write(WriteKind::kPut, op.key, op.value);
      break;
    case OpKind::kPutInitial:
      model->Write(WriteKind::kPutInitial, op.key, op.value);
      break;
    case OpKind::kMerge:
      model->Write(WriteKind::kMerge, op.key, op.value);
      break;
    case OpKind::kDelete:
      model->Write(WriteKind::kDelete, op.key, "");
      break;
    case OpKind::kSingleDelete:
      model->Write(WriteKind::kSingleDelete, op.key, "");
      break;
    case OpKind::kDeleteRange:
      model->DeleteRange(op.key, op.key2);
      break;
    case OpKind::kIngest:
      for (const auto& [key, value] : IngestEntries(op)) {
        model->Write(value.empty() ? WriteKind::kDelete : WriteKind::kPut, key,
                     value);
      }
      break;
    case OpKind::kSnapshot:
      (*snapshots)[op.snapshot] = static_cast<int64_t>(model->LastSequence());
      break;
    case OpKind::kReleaseSnapshot:
      (*snapshots)[op.snapshot] = -1;
      break;
    case OpKind::kReopen:
      snapshots->fill(-1);
      break;
    default:
      break;
  }
}

std::string Clip(const std::string& s) {
  return s.size() <= 400 ? s : s.substr(0, 400) + "...";
}

}  // namespace

std::string Divergence::ToString() const {
  std::ostringstream out;
  out << "op #" << op_index << " on DB '" << db
      << "'\n  expected: " << Clip(expected)
      << "\n  actual:   " << Clip(actual);
  return out.str();
}

RunResult RunOps(const std::vector<Op>& ops,
                 const std::vector<OptionSet>& option_sets,
                 const std::string& dir) {
  RunResult result;
  Status dir_status =
      ROCKSDB_NAMESPACE::Env::Default()->CreateDirIfMissing(dir);
  if (!dir_status.ok()) {
    result.error = "cannot create " + dir + ": " + dir_status.ToString();
    return result;
  }
  std::vector<std::unique_ptr<DbUnderTest>> dbs;
  for (size_t i = 0; i < option_sets.size(); ++i) {
    dbs.emplace_back(
        new DbUnderTest(option_sets[i], dir + "/db" + std::to_string(i)));
    Status s = dbs.back()->Open(/*destroy=*/true);
    if (!s.ok()) {
      result.error = option_sets[i].name + ": open: " + s.ToString();
      return result;
    }
    dbs.back()->StartWriter(600, 0x5eed + i);
  }
  Model model;
  std::array<int64_t, kSnapshotSlots> snapshots;
  snapshots.fill(-1);
  for (size_t i = 0; i < ops.size() && result.ok(); ++i) {
    const Op& op = ops[i];
    if (IsRead(op.kind)) {
      Op read = op;
      uint64_t seq = model.LastSequence();
      if (read.snapshot >= 0 && snapshots[read.snapshot] >= 0) {
        seq = static_cast<uint64_t>(snapshots[read.snapshot]);
      } else {
        read.snapshot = -1;  // The slot is empty (e.g. in a shrunk log).
      }
      const std::string expected = ModelRead(model, read, seq);
      for (auto& db : dbs) {
        const std::string actual = db->Read(read);
        if (actual != expected) {
          result.diverged = true;
          result.divergence = {i, db->name(), expected, actual};
          break;
        }
      }
      continue;
    }
    ApplyToModel(&model, op, &snapshots);
    for (auto& db : dbs) {
      Status s = db->Apply(op);
      if (!s.ok()) {
        result.error = db->name() + ": op #" + std::to_string(i) + " (" +
                       FormatOp(op) + "): " + s.ToString();
        break;
      }
    }
  }
  for (auto& db : dbs) {
    const std::string lost = db->StopWriter();
    if (result.ok() && !lost.empty()) result.error = db->name() + ": " + lost;
    result.chains_pruned[db->name()] = db->ChainsPruned();
    result.runs_converted[db->name()] = db->RunsConverted();
    result.tombstone_compactions[db->name()] = db->TombstoneCompactions();
    result.location_cache_hits[db->name()] = db->LocationCacheHits();
    db->Destroy();
  }
  return result;
}

std::vector<Op> MinimizeOps(std::vector<Op> ops,
                            const std::vector<OptionSet>& option_sets,
                            const std::string& dir, int max_replays,
                            int max_seconds) {
  RunResult first = RunOps(ops, option_sets, dir);
  if (first.ok()) return ops;
  if (first.diverged) ops.resize(first.divergence.op_index + 1);
  // A candidate must fail the same way: removing ops can break a contract
  // (an initial put over a visible key) and fail a write instead.
  auto same_failure = [&first](const RunResult& r) {
    return first.diverged ? r.diverged : !r.error.empty();
  };
  int replays = 1;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(max_seconds);
  auto budget_left = [&] {
    return replays < max_replays && std::chrono::steady_clock::now() < deadline;
  };
  for (size_t chunk = ops.size() / 2; chunk >= 1 && budget_left(); chunk /= 2) {
    // Never drop the last op: it is the read (or write) that fails.
    for (size_t begin = 0; begin + chunk < ops.size() && budget_left();) {
      std::vector<Op> candidate(ops.begin(), ops.begin() + begin);
      candidate.insert(candidate.end(), ops.begin() + begin + chunk, ops.end());
      ++replays;
      if (same_failure(RunOps(candidate, option_sets, dir))) {
        ops.swap(candidate);
      } else {
        begin += chunk;
      }
    }
  }
  return ops;
}

RunResult RunSeed(const GeneratorOptions& generator,
                  const std::vector<OptionSet>& option_sets,
                  const std::string& dir, const std::string& log_path) {
  const std::vector<Op> ops = GenerateOps(generator);
  RunResult result = RunOps(ops, option_sets, dir);
  if (result.ok()) return result;

  std::string sets;
  for (const OptionSet& set : option_sets)
    sets += (sets.empty() ? "" : ",") + set.name;
  const std::vector<Op> shrunk = MinimizeOps(ops, option_sets, dir);
  std::ostringstream report;
  report << "# differential: seed " << generator.seed << ", " << ops.size()
         << " ops, option sets " << sets << "\n# "
         << (result.diverged ? "diverged at " + result.divergence.ToString()
                             : "failed: " + result.error)
         << "\n# minimal op log (" << shrunk.size()
         << " ops); replay with: differential_test --replay <this file> --sets "
         << sets << "\n";
  for (const Op& op : shrunk) report << FormatOp(op) << "\n";
  fprintf(stderr, "%s", report.str().c_str());
  if (!log_path.empty()) {
    std::ofstream(log_path) << report.str();
    fprintf(stderr, "# op log written to %s\n", log_path.c_str());
  }
  return result;
}

std::vector<Op> ReadOpLog(const std::string& path, std::string* error) {
  std::vector<Op> ops;
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read " + path;
    return ops;
  }
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    Op op;
    if (!ParseOp(line, &op)) {
      *error = path + ":" + std::to_string(n) + ": malformed op: " + line;
      return {};
    }
    ops.push_back(op);
  }
  return ops;
}

}  // namespace lodestone_test
