// Lodestone: JNI for org.rocksdb.InitialPutNatives, the native side of
// org.rocksdb.InitialPuts (on a RocksDB, WriteBatch, WriteBatchWithIndex or
// Transaction).
// Each call copies the Java arrays, makes one C++ PutInitial call and turns
// a failed status into a RocksDBException.

#include <jni.h>

#include <memory>

#include "include/org_rocksdb_InitialPutNatives.h"
#include "rocksdb/db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/write_batch_with_index.h"
#include "rocksdb/write_batch.h"
#include "rocksjni/portal.h"

namespace {

using ROCKSDB_NAMESPACE::ColumnFamilyHandle;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;

// A Java byte array region copied into native memory for one call. ok() is
// false (and a Java exception pending) when the region is out of bounds.
class ByteRegion {
 public:
  ByteRegion(JNIEnv* env, jbyteArray array, jint offset, jint length)
      : bytes_(length > 0 ? new jbyte[length] : nullptr), length_(length) {
    if (length > 0) {
      env->GetByteArrayRegion(array, offset, length, bytes_.get());
    }
    ok_ = !env->ExceptionCheck();
  }
  ByteRegion(JNIEnv* env, jbyteArray array)
      : ByteRegion(env, array, 0, env->GetArrayLength(array)) {}

  bool ok() const { return ok_; }
  Slice slice() const {
    return Slice(reinterpret_cast<const char*>(bytes_.get()),
                 static_cast<size_t>(length_));
  }

 private:
  std::unique_ptr<jbyte[]> bytes_;
  jint length_;
  bool ok_ = false;
};

ColumnFamilyHandle* ColumnFamily(jlong handle) {
  return reinterpret_cast<ColumnFamilyHandle*>(handle);
}

void ThrowOnError(JNIEnv* env, const Status& s) {
  if (!s.ok()) {
    ROCKSDB_NAMESPACE::RocksDBExceptionJni::ThrowNew(env, s);
  }
}

// WriteBatch and WriteBatchWithIndex alike: a column family handle of 0 is
// the batch's default column family.
template <typename Batch>
void BatchPutInitial(JNIEnv* env, jlong jbatch, jlong jcf, jbyteArray jkey,
                     jbyteArray jval) {
  auto* batch = reinterpret_cast<Batch*>(jbatch);
  ByteRegion key(env, jkey);
  if (!key.ok()) {
    return;
  }
  ByteRegion value(env, jval);
  if (!value.ok()) {
    return;
  }
  ThrowOnError(env, jcf == 0 ? batch->PutInitial(key.slice(), value.slice())
                             : batch->PutInitial(ColumnFamily(jcf), key.slice(),
                                                 value.slice()));
}

}  // namespace

void Java_org_rocksdb_InitialPutNatives_dbPutInitial(
    JNIEnv* env, jclass, jlong jdb, jlong jwrite_options, jlong jcf,
    jbyteArray jkey, jint jkey_off, jint jkey_len, jbyteArray jval,
    jint jvalue_off, jint jvalue_len) {
  auto* db = reinterpret_cast<ROCKSDB_NAMESPACE::DB*>(jdb);
  const ROCKSDB_NAMESPACE::WriteOptions default_write_options;
  const auto* write_options =
      jwrite_options == 0
          ? &default_write_options
          : reinterpret_cast<ROCKSDB_NAMESPACE::WriteOptions*>(jwrite_options);
  ColumnFamilyHandle* cf =
      jcf == 0 ? db->DefaultColumnFamily() : ColumnFamily(jcf);
  ByteRegion key(env, jkey, jkey_off, jkey_len);
  if (!key.ok()) {
    return;
  }
  ByteRegion value(env, jval, jvalue_off, jvalue_len);
  if (!value.ok()) {
    return;
  }
  ThrowOnError(env,
               db->PutInitial(*write_options, cf, key.slice(), value.slice()));
}

void Java_org_rocksdb_InitialPutNatives_writeBatchPutInitial(
    JNIEnv* env, jclass, jlong jbatch, jlong jcf, jbyteArray jkey,
    jbyteArray jval) {
  BatchPutInitial<ROCKSDB_NAMESPACE::WriteBatch>(env, jbatch, jcf, jkey, jval);
}

void Java_org_rocksdb_InitialPutNatives_writeBatchWithIndexPutInitial(
    JNIEnv* env, jclass, jlong jbatch, jlong jcf, jbyteArray jkey,
    jbyteArray jval) {
  BatchPutInitial<ROCKSDB_NAMESPACE::WriteBatchWithIndex>(env, jbatch, jcf,
                                                          jkey, jval);
}

void Java_org_rocksdb_InitialPutNatives_transactionPutInitial(
    JNIEnv* env, jclass, jlong jtxn, jlong jcf, jbyteArray jkey,
    jbyteArray jval, jboolean jassume_tracked) {
  auto* txn = reinterpret_cast<ROCKSDB_NAMESPACE::Transaction*>(jtxn);
  ByteRegion key(env, jkey);
  if (!key.ok()) {
    return;
  }
  ByteRegion value(env, jval);
  if (!value.ok()) {
    return;
  }
  // A null column family is the default one (Transaction::Put's rule).
  ThrowOnError(env, txn->PutInitial(ColumnFamily(jcf), key.slice(),
                                    value.slice(), jassume_tracked));
}
