// The public PutInitial entry points declared in patches/0005.
// WriteBatchInternal::PutInitial, which encodes the record, lives in
// db/write_batch.cc (patches/0007) beside the other records' encoders.

#include <tuple>

#include "db/write_batch_internal.h"
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

Status WriteBatch::PutInitial(ColumnFamilyHandle* column_family,
                              const Slice& key, const Slice& value) {
  size_t ts_sz = 0;
  uint32_t cf_id = 0;
  Status s;
  std::tie(s, cf_id, ts_sz) =
      WriteBatchInternal::GetColumnFamilyIdAndTimestampSize(this,
                                                            column_family);
  if (!s.ok()) {
    return s;
  }
  if (ts_sz != 0) {
    return Status::NotSupported(
        "PutInitial is not supported with user-defined timestamps");
  }
  return WriteBatchInternal::PutInitial(this, cf_id, key, value);
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
