// db_bench --benchmarks=lethe: the experiment of Lethe (SIGMOD 2020, §5): a
// YCSB-A-like mix of updates and point lookups over a loaded key space, with
// a share of the writes being deletes of existing keys, then an idle phase.
// It measures what FADE promises: how old the tombstones still waiting above
// the last level are, against the deadline --lethe_deadline.
//
// A tombstone is persisted once it reaches the last non-empty level (where
// compaction drops it with what it deletes). Every --lethe_sample_seconds
// the workload reads the tombstones of every file above that level (through
// SstFileReader, with file deletions paused) and dates them with its own
// record of (sequence number, time) pairs: a sequence number is dated by the
// last record before it, so ages are never understated. Memtable tombstones
// are dated by the oldest sequence number a memtable can hold. It also
// reports space amplification (SST bytes / live bytes) and write
// amplification (flushed + compacted bytes / written bytes).
//
// Single-threaded (thread 0); other threads return at once.

#ifdef GFLAGS
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "rocksdb/sst_file_reader.h"
#include "rocksdb/system_clock.h"
#include "rocksdb/utilities/types_util.h"
#include "tools/workloads/workload.h"
#include "util/gflags_compat.h"

DEFINE_uint64(lethe_keys, 100000, "lethe: keys loaded before the run");
DEFINE_uint64(lethe_value_size, 1024, "lethe: value size");
DEFINE_uint64(lethe_seconds, 60, "lethe: length of the update/lookup phase");
DEFINE_uint64(lethe_idle_seconds, 20, "lethe: idle phase at the end");
DEFINE_uint32(lethe_delete_pct, 5,
              "lethe: percent of operations that delete an existing key");
DEFINE_uint32(lethe_write_pct, 50,
              "lethe: percent of operations that write (updates and deletes)");
DEFINE_uint64(lethe_deadline, 0,
              "lethe: the delete-persistence deadline reported against "
              "(seconds; 0 = --delete_persistence_threshold)");
DEFINE_uint64(lethe_sample_seconds, 5, "lethe: seconds between samples");
DEFINE_string(lethe_report_file, "", "lethe: CSV of samples");

DECLARE_uint64(delete_persistence_threshold);

namespace ROCKSDB_NAMESPACE {
namespace {

std::string LetheKey(uint64_t id) {
  std::string key;
  AppendBigEndian64(&key, 0x4c45544845ULL);  // "LETHE"
  AppendBigEndian64(&key, id);
  return key;
}

// Tombstone ages at one moment.
struct TombstoneAges {
  uint64_t count = 0;
  uint64_t over_deadline = 0;
  double max_age = 0;
  double p50 = 0, p90 = 0, p99 = 0;
};

class Lethe {
 public:
  explicit Lethe(WorkloadThread* t)
      : t_(t),
        clock_(SystemClock::Default()),
        value_(FLAGS_lethe_value_size, 'v'),
        deadline_(FLAGS_lethe_deadline > 0
                      ? FLAGS_lethe_deadline
                      : FLAGS_delete_persistence_threshold),
        rng_(t->seed),
        live_(FLAGS_lethe_keys, false) {}

  Status Run() {
    if (!FLAGS_lethe_report_file.empty()) {
      report_ = fopen(FLAGS_lethe_report_file.c_str(), "w");
      if (report_ == nullptr) {
        return Status::IOError("lethe: cannot write " +
                               FLAGS_lethe_report_file);
      }
      fprintf(report_,
              "secs_elapsed,phase,tombstones,over_deadline,over_deadline_pct,"
              "max_tombstone_age,p50_tombstone_age,p90_tombstone_age,"
              "p99_tombstone_age,sst_bytes,space_amp,write_amp,gets_per_sec\n");
    }
    start_ = Now();
    Status s = Load();
    if (s.ok()) s = Steady();
    if (s.ok()) s = Idle();
    if (report_ != nullptr) fclose(report_);
    if (!s.ok()) return s;

    char msg[256];
    snprintf(msg, sizeof(msg),
             "lethe: deadline %" PRIu64
             "s, worst over-deadline %.3f%%, "
             "final %.3f%% (max age %.0fs), space_amp %.3f, write_amp %.3f, "
             "gets/s %.0f",
             deadline_, worst_over_pct_, last_over_pct_, last_max_age_,
             last_space_amp_, last_write_amp_, gets_per_sec_);
    t_->add_message(msg);
    return s;
  }

 private:
  double Now() { return static_cast<double>(clock_->NowMicros()) / 1e6; }

  void RecordSeqno() {
    seqno_times_.emplace_back(t_->db->GetLatestSequenceNumber(), Now());
  }

  // The time of the last record before `seqno`: no later than its write.
  double TimeOf(SequenceNumber seqno) const {
    auto it = std::lower_bound(seqno_times_.begin(), seqno_times_.end(), seqno,
                               [](const std::pair<SequenceNumber, double>& r,
                                  SequenceNumber s) { return r.first < s; });
    if (it == seqno_times_.begin()) return start_;
    return std::prev(it)->second;
  }

  Status Write(uint64_t id) {
    user_bytes_ += 16 + value_.size();
    if (!live_[id]) {
      live_[id] = true;
      live_count_++;
    }
    return t_->db->Put(WriteOptions(), LetheKey(id), value_);
  }

  Status Load() {
    std::vector<uint64_t> ids(FLAGS_lethe_keys);
    for (uint64_t i = 0; i < ids.size(); i++) ids[i] = i;
    std::shuffle(ids.begin(), ids.end(), rng_);
    Status s;
    for (size_t i = 0; s.ok() && i < ids.size(); i++) {
      s = Write(ids[i]);
      if (i % 1000 == 0) RecordSeqno();
    }
    t_->finished_ops(static_cast<int64_t>(ids.size()), WorkloadOp::kWrite);
    RecordSeqno();
    return s;
  }

  Status Steady() {
    const double end = Now() + static_cast<double>(FLAGS_lethe_seconds);
    double next_sample =
        Now() + static_cast<double>(FLAGS_lethe_sample_seconds);
    double next_record = Now();
    uint64_t gets = 0;
    const double steady_start = Now();
    std::uniform_int_distribution<uint64_t> key(0, FLAGS_lethe_keys - 1);
    std::uniform_int_distribution<uint32_t> pct(0, 99);
    std::string value;
    Status s;
    while (s.ok() && Now() < end) {
      for (int batch = 0; s.ok() && batch < 100; batch++) {
        const uint32_t r = pct(rng_);
        if (r < FLAGS_lethe_delete_pct) {
          // Delete an existing key (a few tries; the key space stays full).
          uint64_t id = key(rng_);
          for (int tries = 0; tries < 8 && !live_[id]; tries++) id = key(rng_);
          if (!live_[id]) continue;
          live_[id] = false;
          live_count_--;
          user_bytes_ += 16;
          s = t_->db->Delete(WriteOptions(), LetheKey(id));
          t_->finished_ops(1, WorkloadOp::kDelete);
        } else if (r < FLAGS_lethe_write_pct) {
          s = Write(key(rng_));
          t_->finished_ops(1, WorkloadOp::kUpdate);
        } else {
          Status g = t_->db->Get(ReadOptions(), LetheKey(key(rng_)), &value);
          if (!g.ok() && !g.IsNotFound()) s = g;
          gets++;
          t_->finished_ops(1, WorkloadOp::kRead);
        }
      }
      const double now = Now();
      if (now >= next_record) {
        RecordSeqno();
        next_record = now + 0.1;
      }
      if (s.ok() && now >= next_sample) {
        gets_per_sec_ = static_cast<double>(gets) / (now - steady_start);
        s = Sample("steady");
        next_sample = Now() + static_cast<double>(FLAGS_lethe_sample_seconds);
      }
    }
    gets_per_sec_ = static_cast<double>(gets) / (Now() - steady_start);
    return s.ok() ? Sample("steady") : s;
  }

  Status Idle() {
    const double end = Now() + static_cast<double>(FLAGS_lethe_idle_seconds);
    Status s;
    while (s.ok() && Now() < end) {
      const double wait = std::min(
          static_cast<double>(FLAGS_lethe_sample_seconds), end - Now());
      clock_->SleepForMicroseconds(static_cast<int>(wait * 1e6));
      RecordSeqno();
      s = Sample("idle");
    }
    return s;
  }

  // Dates every tombstone above the last non-empty level.
  Status MeasureTombstones(TombstoneAges* ages) {
    const double now = Now();
    std::vector<double> all;
    Status s = t_->db->DisableFileDeletions();
    if (!s.ok()) return s;
    std::vector<LiveFileMetaData> files;
    t_->db->GetLiveFilesMetaData(&files);
    int last_level = 0;
    SequenceNumber newest_in_files = 0;
    for (const auto& f : files) {
      last_level = std::max(last_level, f.level);
      newest_in_files = std::max(newest_in_files, f.largest_seqno);
    }
    const Options options = t_->db->GetOptions();
    for (const auto& f : files) {
      if (f.level >= last_level || f.num_deletions == 0) continue;
      SstFileReader reader(options);
      s = reader.Open(f.directory + "/" + f.relative_filename);
      if (!s.ok()) break;
      std::unique_ptr<Iterator> it = reader.NewTableIterator();
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        ParsedEntryInfo entry;
        s = ParseEntry(it->key(), options.comparator, &entry);
        if (!s.ok()) break;
        if (entry.type == kEntryDelete || entry.type == kEntrySingleDelete ||
            entry.type == kEntryDeleteWithTimestamp) {
          all.push_back(now - TimeOf(entry.sequence));
        }
      }
      if (s.ok()) s = it->status();
      if (!s.ok()) break;
    }
    Status enable = t_->db->EnableFileDeletions();
    if (s.ok()) s = enable;
    if (!s.ok()) return s;
    // Memtable tombstones are newer than anything flushed.
    uint64_t active = 0, immutable = 0;
    t_->db->GetIntProperty("rocksdb.num-deletes-active-mem-table", &active);
    t_->db->GetIntProperty("rocksdb.num-deletes-imm-mem-tables", &immutable);
    const double memtable_age = now - TimeOf(newest_in_files + 1);
    all.insert(all.end(), active + immutable, memtable_age);

    std::sort(all.begin(), all.end());
    ages->count = all.size();
    if (all.empty()) return Status::OK();
    auto pct = [&](double p) {
      return all[std::min(
          all.size() - 1,
          static_cast<size_t>(p * static_cast<double>(all.size())))];
    };
    ages->p50 = pct(0.50);
    ages->p90 = pct(0.90);
    ages->p99 = pct(0.99);
    ages->max_age = all.back();
    if (deadline_ > 0) {
      ages->over_deadline = static_cast<uint64_t>(
          all.end() - std::upper_bound(all.begin(), all.end(),
                                       static_cast<double>(deadline_)));
    }
    return Status::OK();
  }

  Status Sample(const char* phase) {
    TombstoneAges ages;
    Status s = MeasureTombstones(&ages);
    if (!s.ok()) return s;
    uint64_t sst_bytes = 0;
    t_->db->GetIntProperty("rocksdb.total-sst-files-size", &sst_bytes);
    const double live_bytes = static_cast<double>(live_count_) *
                              static_cast<double>(16 + value_.size());
    last_space_amp_ =
        live_bytes > 0 ? static_cast<double>(sst_bytes) / live_bytes : 0;
    last_write_amp_ = WorkloadWriteAmp(t_->db, user_bytes_);
    // Over-deadline share of all deletes issued so far is what FADE bounds;
    // as a share of tombstones still waiting it is easier to read.
    last_over_pct_ = ages.count > 0
                         ? 100.0 * static_cast<double>(ages.over_deadline) /
                               static_cast<double>(ages.count)
                         : 0;
    last_max_age_ = ages.max_age;
    worst_over_pct_ = std::max(worst_over_pct_, last_over_pct_);
    if (report_ != nullptr) {
      fprintf(report_,
              "%.1f,%s,%" PRIu64 ",%" PRIu64
              ",%.3f,%.1f,%.1f,%.1f,%.1f,%" PRIu64 ",%.3f,%.3f,%.0f\n",
              Now() - start_, phase, ages.count, ages.over_deadline,
              last_over_pct_, ages.max_age, ages.p50, ages.p90, ages.p99,
              sst_bytes, last_space_amp_, last_write_amp_, gets_per_sec_);
      fflush(report_);
    }
    return Status::OK();
  }

  WorkloadThread* t_;
  std::shared_ptr<SystemClock> clock_;
  const std::string value_;
  const uint64_t deadline_;
  std::mt19937_64 rng_;
  std::vector<bool> live_;
  uint64_t live_count_ = 0;
  uint64_t user_bytes_ = 0;
  std::vector<std::pair<SequenceNumber, double>> seqno_times_;
  double start_ = 0;
  FILE* report_ = nullptr;
  double worst_over_pct_ = 0, last_over_pct_ = 0, last_max_age_ = 0;
  double last_space_amp_ = 0, last_write_amp_ = 0, gets_per_sec_ = 0;
};

void RunLethe(WorkloadThread* thread) {
  if (thread->tid != 0) return;
  Lethe lethe(thread);
  Status s = lethe.Run();
  if (!s.ok()) {
    fprintf(stderr, "lethe: %s\n", s.ToString().c_str());
    exit(1);
  }
}

const bool kRegistered = RegisterWorkload("lethe", RunLethe);

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
#endif  // GFLAGS
