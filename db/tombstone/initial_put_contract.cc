#include "db/tombstone/initial_put_contract.h"

#include <map>
#include <string>
#include <utility>

#include "rocksdb/write_batch.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Tracks what the batch itself makes visible, and checks initial puts
// against that first and against the DB second.
class ContractChecker : public WriteBatch::Handler {
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
    // Keys put earlier in this batch inside the range are deleted again.
    for (auto& [id_key, visible] : batch_state_) {
      if (id_key.first == cf && Slice(id_key.second).compare(begin) >= 0 &&
          Slice(id_key.second).compare(end) < 0) {
        visible = false;
      }
    }
    return Status::OK();
  }
  Status PutBlobIndexCF(uint32_t cf, const Slice& key, const Slice&) override {
    return Set(cf, key, true);
  }
  Status MarkBeginPrepare(bool) override { return Status::OK(); }
  Status MarkEndPrepare(const Slice&) override { return Status::OK(); }
  Status MarkCommit(const Slice&) override { return Status::OK(); }
  Status MarkCommitWithTimestamp(const Slice&, const Slice&) override {
    return Status::OK();
  }
  Status MarkRollback(const Slice&) override { return Status::OK(); }
  Status MarkNoop(bool) override { return Status::OK(); }

 private:
  Status Set(uint32_t cf, const Slice& key, bool visible) {
    batch_state_[{cf, key.ToString()}] = visible;
    return Status::OK();
  }

  const VisibleValueLookup& lookup_;
  std::map<std::pair<uint32_t, std::string>, bool> batch_state_;
};

}  // namespace

Status VerifyInitialPutContract(const WriteBatch& batch,
                                const VisibleValueLookup& lookup) {
  ContractChecker checker(lookup);
  return batch.Iterate(&checker);
}

}  // namespace ROCKSDB_NAMESPACE
