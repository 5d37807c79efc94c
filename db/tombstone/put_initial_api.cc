// The public PutInitial entry points (declared in patches/0005). The record
// format and its handling live with the write batch and compaction hooks.

#include "rocksdb/db.h"
#include "rocksdb/write_batch.h"
#include "rocksdb/write_batch_base.h"

namespace ROCKSDB_NAMESPACE {

Status WriteBatchBase::PutInitial(ColumnFamilyHandle* /*column_family*/,
                                  const Slice& /*key*/,
                                  const Slice& /*value*/) {
  return Status::NotSupported("PutInitial is not supported by this batch");
}

Status WriteBatchBase::PutInitial(const Slice& key, const Slice& value) {
  return PutInitial(nullptr, key, value);
}

Status WriteBatch::PutInitial(ColumnFamilyHandle* /*column_family*/,
                              const Slice& /*key*/, const Slice& /*value*/) {
  return Status::NotSupported("PutInitial: not implemented yet");
}

Status DB::PutInitial(const WriteOptions& options,
                      ColumnFamilyHandle* column_family, const Slice& key,
                      const Slice& value) {
  WriteBatch batch;
  Status s = batch.PutInitial(column_family, key, value);
  if (!s.ok()) {
    return s;
  }
  return Write(options, &batch);
}

}  // namespace ROCKSDB_NAMESPACE
