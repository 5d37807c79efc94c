#include "db/initial_put/initial_put_contract.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/db_impl/db_impl.h"
#include "monitoring/statistics_impl.h"
#include "rocksdb/write_batch.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Accepts every record of a batch (any column family) and does nothing;
// subclasses override what they look at.
class AcceptAllHandler : public WriteBatch::Handler {
 public:
  Status PutCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status TimedPutCF(uint32_t, const Slice&, const Slice&, uint64_t) override {
    return Status::OK();
  }
  Status PutEntityCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status DeleteCF(uint32_t, const Slice&) override { return Status::OK(); }
  Status SingleDeleteCF(uint32_t, const Slice&) override {
    return Status::OK();
  }
  Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status MergeCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status PutBlobIndexCF(uint32_t, const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status MarkBeginPrepare(bool) override { return Status::OK(); }
  Status MarkEndPrepare(const Slice&) override { return Status::OK(); }
  Status MarkCommit(const Slice&) override { return Status::OK(); }
  Status MarkCommitWithTimestamp(const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status MarkRollback(const Slice&) override { return Status::OK(); }
  Status MarkNoop(bool) override { return Status::OK(); }
};

// Tracks what the batch itself makes visible, and checks initial puts
// against that first and against the DB second.
class ContractChecker : public AcceptAllHandler {
 public:
  explicit ContractChecker(const VisibleValueLookup& lookup)
      : lookup_(lookup) {}

  Status PutCF(uint32_t cf, const Slice& key, const Slice&) override {
    return Set(cf, key, true);
  }
  Status PutInitialCF(uint32_t cf, const Slice& key, const Slice&) override {
    bool visible = false;
    auto it = batch_state_.find({cf, key.ToString()});
    if (it != batch_state_.end()) {
      visible = it->second;
    } else if (CoveredByBatchRangeDeletion(cf, key)) {
      visible = false;
    } else {
      Status s = lookup_(cf, key, &visible);
      if (!s.ok()) {
        return s;
      }
    }
    if (visible) {
      return Status::InvalidArgument(
          "PutInitial over a key with a visible value (contract violation)",
          key.ToString(/*hex=*/true));
    }
    return Set(cf, key, true);
  }
  Status TimedPutCF(uint32_t cf, const Slice& key, const Slice&,
                    uint64_t) override {
    return Set(cf, key, true);
  }
  Status PutEntityCF(uint32_t cf, const Slice& key, const Slice&) override {
    return Set(cf, key, true);
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice&) override {
    return Set(cf, key, true);
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    return Set(cf, key, false);
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    return Set(cf, key, false);
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin,
                       const Slice& end) override {
    // Keys put earlier in this batch inside the range are deleted again;
    // keys the batch has not touched yet have no visible value after it.
    for (auto& [id_key, visible] : batch_state_) {
      if (id_key.first == cf && Slice(id_key.second).compare(begin) >= 0 &&
          Slice(id_key.second).compare(end) < 0) {
        visible = false;
      }
    }
    range_deletions_.push_back({cf, begin.ToString(), end.ToString()});
    return Status::OK();
  }
  Status PutBlobIndexCF(uint32_t cf, const Slice& key, const Slice&) override {
    return Set(cf, key, true);
  }

 private:
  Status Set(uint32_t cf, const Slice& key, bool visible) {
    batch_state_[{cf, key.ToString()}] = visible;
    return Status::OK();
  }

  // Whether a range deletion earlier in the batch covers `key`. Keys the
  // batch wrote after such a deletion are in batch_state_ and never get
  // here.
  bool CoveredByBatchRangeDeletion(uint32_t cf, const Slice& key) const {
    for (const RangeDeletion& r : range_deletions_) {
      if (r.cf == cf && key.compare(r.begin) >= 0 && key.compare(r.end) < 0) {
        return true;
      }
    }
    return false;
  }

  struct RangeDeletion {
    uint32_t cf;
    std::string begin;
    std::string end;
  };

  const VisibleValueLookup& lookup_;
  std::map<std::pair<uint32_t, std::string>, bool> batch_state_;
  std::vector<RangeDeletion> range_deletions_;
};

// Finds the first initial put and stops.
class InitialPutFinder : public AcceptAllHandler {
 public:
  bool found() const { return found_; }
  Status PutInitialCF(uint32_t, const Slice&, const Slice&) override {
    found_ = true;
    return Status::OK();
  }
  bool Continue() override { return !found_; }

 private:
  bool found_ = false;
};

}  // namespace

Status VerifyInitialPutContract(const WriteBatch& batch,
                                const VisibleValueLookup& lookup) {
  ContractChecker checker(lookup);
  return batch.Iterate(&checker);
}

bool HasInitialPuts(const WriteBatch& batch) {
  InitialPutFinder finder;
  // A batch that does not parse is the write path's to reject.
  batch.Iterate(&finder).PermitUncheckedError();
  return finder.found();
}

Status CheckInitialPutVerificationSupported(const DBOptions& db_options,
                                            bool seq_per_batch) {
  if (!db_options.verify_initial_puts) {
    return Status::OK();
  }
  if (db_options.unordered_write || db_options.two_write_queues ||
      seq_per_batch) {
    return Status::InvalidArgument(
        "verify_initial_puts needs writes that reach the memtable in order: "
        "it is not supported with unordered_write, two_write_queues or a "
        "WritePrepared/WriteUnprepared TransactionDB");
  }
  return Status::OK();
}

Status InitialPutContractCallback::Callback(DB* db) {
  if (inner_ != nullptr) {
    Status s = inner_->Callback(db);
    if (!s.ok()) {
      return s;
    }
  }
  bool lookup_failed = false;
  Status s = VerifyInitialPutContract(
      *batch_, [&](uint32_t cf_id, const Slice& key, bool* visible) {
        *visible = false;
        std::unique_ptr<ColumnFamilyHandle> cf =
            db_->GetColumnFamilyHandleUnlocked(cf_id);
        if (cf == nullptr) {
          return Status::OK();
        }
        PinnableSlice value;
        Status get = db_->Get(ReadOptions(), cf.get(), key, &value);
        *visible = get.ok();
        if (get.ok() || get.IsNotFound()) {
          return Status::OK();
        }
        lookup_failed = true;
        return get;
      });
  if (s.IsInvalidArgument() && !lookup_failed) {
    RecordTick(db_->immutable_db_options().statistics.get(),
               INITIAL_PUT_CONTRACT_VIOLATIONS);
  }
  return s;
}

}  // namespace ROCKSDB_NAMESPACE
