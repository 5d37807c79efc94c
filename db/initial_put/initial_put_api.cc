// The public PutInitial entry points declared in patches/0005 that need no
// access to upstream internals. WriteBatch::PutInitial encodes the record in
// db/write_batch.cc (patches/0007).

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
