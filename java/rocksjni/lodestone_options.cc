// Lodestone: JNI for org.rocksdb.LodestoneOptions: an options string applied
// to an existing DBOptions, ColumnFamilyOptions or Options object (which
// changes only when the whole string parses), or to an open DB's column
// family through DB::SetOptions; and the column family's options as a string.

#include <jni.h>

#include <string>
#include <unordered_map>

#include "include/org_rocksdb_LodestoneOptions.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksjni/portal.h"

namespace {

using ROCKSDB_NAMESPACE::ConfigOptions;
using ROCKSDB_NAMESPACE::Status;

// Parses `joptions` over a copy of *target and assigns the result back.
// `parse` is one of the Get*OptionsFromString functions.
template <typename OptionsT, typename ParseFn>
void Apply(JNIEnv* env, OptionsT* target, jstring joptions, ParseFn parse) {
  jboolean has_exception = JNI_FALSE;
  const std::string options_string =
      ROCKSDB_NAMESPACE::JniUtil::copyStdString(env, joptions, &has_exception);
  if (has_exception == JNI_TRUE) {
    return;  // OutOfMemoryError pending
  }
  ConfigOptions config;
  config.ignore_unknown_options = false;
  OptionsT parsed;
  const Status s = parse(config, *target, options_string, &parsed);
  if (!s.ok()) {
    ROCKSDB_NAMESPACE::RocksDBExceptionJni::ThrowNew(env, s);
    return;
  }
  *target = parsed;
}

}  // namespace

void Java_org_rocksdb_LodestoneOptions_applyToDBOptions(JNIEnv* env, jclass,
                                                        jlong handle,
                                                        jstring joptions) {
  Apply(env, reinterpret_cast<ROCKSDB_NAMESPACE::DBOptions*>(handle), joptions,
        [](const ConfigOptions& c, const ROCKSDB_NAMESPACE::DBOptions& base,
           const std::string& s, ROCKSDB_NAMESPACE::DBOptions* out) {
          return ROCKSDB_NAMESPACE::GetDBOptionsFromString(c, base, s, out);
        });
}

void Java_org_rocksdb_LodestoneOptions_applyToColumnFamilyOptions(
    JNIEnv* env, jclass, jlong handle, jstring joptions) {
  Apply(env, reinterpret_cast<ROCKSDB_NAMESPACE::ColumnFamilyOptions*>(handle),
        joptions,
        [](const ConfigOptions& c,
           const ROCKSDB_NAMESPACE::ColumnFamilyOptions& base,
           const std::string& s, ROCKSDB_NAMESPACE::ColumnFamilyOptions* out) {
          return ROCKSDB_NAMESPACE::GetColumnFamilyOptionsFromString(c, base, s,
                                                                     out);
        });
}

void Java_org_rocksdb_LodestoneOptions_applyToOptions(JNIEnv* env, jclass,
                                                      jlong handle,
                                                      jstring joptions) {
  Apply(env, reinterpret_cast<ROCKSDB_NAMESPACE::Options*>(handle), joptions,
        [](const ConfigOptions& c, const ROCKSDB_NAMESPACE::Options& base,
           const std::string& s, ROCKSDB_NAMESPACE::Options* out) {
          return ROCKSDB_NAMESPACE::GetOptionsFromString(c, base, s, out);
        });
}

void Java_org_rocksdb_LodestoneOptions_applyToOptionsPair(JNIEnv* env, jclass,
                                                          jlong jdb_options,
                                                          jlong jcf_options,
                                                          jstring joptions) {
  auto* db_options =
      reinterpret_cast<ROCKSDB_NAMESPACE::DBOptions*>(jdb_options);
  auto* cf_options =
      reinterpret_cast<ROCKSDB_NAMESPACE::ColumnFamilyOptions*>(jcf_options);
  ROCKSDB_NAMESPACE::Options both(*db_options, *cf_options);
  Apply(env, &both, joptions,
        [](const ConfigOptions& c, const ROCKSDB_NAMESPACE::Options& base,
           const std::string& s, ROCKSDB_NAMESPACE::Options* out) {
          return ROCKSDB_NAMESPACE::GetOptionsFromString(c, base, s, out);
        });
  if (!env->ExceptionCheck()) {
    *db_options = ROCKSDB_NAMESPACE::DBOptions(both);
    *cf_options = ROCKSDB_NAMESPACE::ColumnFamilyOptions(both);
  }
}

void Java_org_rocksdb_LodestoneOptions_setColumnFamilyOptions(
    JNIEnv* env, jclass, jlong jdb, jlong jcf, jstring joptions) {
  jboolean has_exception = JNI_FALSE;
  const std::string options_string =
      ROCKSDB_NAMESPACE::JniUtil::copyStdString(env, joptions, &has_exception);
  if (has_exception == JNI_TRUE) {
    return;  // OutOfMemoryError pending
  }
  std::unordered_map<std::string, std::string> options_map;
  Status s = ROCKSDB_NAMESPACE::StringToMap(options_string, &options_map);
  if (s.ok()) {
    s = reinterpret_cast<ROCKSDB_NAMESPACE::DB*>(jdb)->SetOptions(
        reinterpret_cast<ROCKSDB_NAMESPACE::ColumnFamilyHandle*>(jcf),
        options_map);
  }
  if (!s.ok()) {
    ROCKSDB_NAMESPACE::RocksDBExceptionJni::ThrowNew(env, s);
  }
}

jstring Java_org_rocksdb_LodestoneOptions_getColumnFamilyOptions(JNIEnv* env,
                                                                 jclass,
                                                                 jlong jdb,
                                                                 jlong jcf) {
  const ROCKSDB_NAMESPACE::ColumnFamilyOptions options =
      reinterpret_cast<ROCKSDB_NAMESPACE::DB*>(jdb)->GetOptions(
          reinterpret_cast<ROCKSDB_NAMESPACE::ColumnFamilyHandle*>(jcf));
  std::string options_string;
  const Status s = ROCKSDB_NAMESPACE::GetStringFromColumnFamilyOptions(
      &options_string, options);
  if (!s.ok()) {
    ROCKSDB_NAMESPACE::RocksDBExceptionJni::ThrowNew(env, s);
    return nullptr;
  }
  return env->NewStringUTF(options_string.c_str());
}
