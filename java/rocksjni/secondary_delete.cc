// Lodestone: JNI for org.rocksdb.SecondaryDeletes: one C++
// DeleteByDeleteKeyRange call, a failed status thrown as a RocksDBException.

#include "rocksdb/secondary_delete.h"

#include <jni.h>

#include <string>

#include "include/org_rocksdb_SecondaryDeletes.h"
#include "rocksjni/portal.h"

namespace {

// The bytes of a Java array; false (and a Java exception pending) when the
// copy failed.
bool CopyBytes(JNIEnv* env, jbyteArray array, std::string* out) {
  const jsize length = env->GetArrayLength(array);
  out->resize(static_cast<size_t>(length));
  if (length > 0) {
    env->GetByteArrayRegion(array, 0, length,
                            reinterpret_cast<jbyte*>(out->data()));
  }
  return !env->ExceptionCheck();
}

}  // namespace

void Java_org_rocksdb_SecondaryDeletes_deleteByDeleteKeyRange(
    JNIEnv* env, jclass, jlong jdb, jlong jcf, jbyteArray jlo, jbyteArray jhi) {
  auto* db = reinterpret_cast<ROCKSDB_NAMESPACE::DB*>(jdb);
  auto* cf =
      jcf == 0 ? db->DefaultColumnFamily()
               : reinterpret_cast<ROCKSDB_NAMESPACE::ColumnFamilyHandle*>(jcf);
  std::string lo;
  std::string hi;
  if (!CopyBytes(env, jlo, &lo) || !CopyBytes(env, jhi, &hi)) {
    return;
  }
  const ROCKSDB_NAMESPACE::Status s =
      ROCKSDB_NAMESPACE::DeleteByDeleteKeyRange(db, cf, lo, hi);
  if (!s.ok()) {
    ROCKSDB_NAMESPACE::RocksDBExceptionJni::ThrowNew(env, s);
  }
}
