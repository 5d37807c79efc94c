#include "tools/workloads/workload.h"

#include <map>
#include <mutex>

#include "rocksdb/statistics.h"

namespace ROCKSDB_NAMESPACE {

namespace {
std::map<std::string, WorkloadFunction>& Registry() {
  static std::map<std::string, WorkloadFunction> registry;
  return registry;
}
}  // namespace

bool RegisterWorkload(const std::string& name, WorkloadFunction function) {
  return Registry().emplace(name, function).second;
}

bool FindWorkload(const std::string& name, WorkloadFunction* function) {
  auto it = Registry().find(name);
  if (it == Registry().end()) {
    return false;
  }
  *function = it->second;
  return true;
}

double WorkloadWriteAmp(DB* db, uint64_t user_bytes) {
  auto stats = db->GetDBOptions().statistics;
  if (!stats || user_bytes == 0) {
    return 0;
  }
  return static_cast<double>(stats->getTickerCount(FLUSH_WRITE_BYTES) +
                             stats->getTickerCount(COMPACT_WRITE_BYTES)) /
         static_cast<double>(user_bytes);
}

Status WorkloadPutInitial(DB* db, const WriteOptions& options, const Slice& key,
                          const Slice& value) {
#ifdef LODESTONE_STOCK_BASELINE
  (void)db;
  (void)options;
  (void)key;
  (void)value;
  return Status::NotSupported(
      "initial puts need Lodestone; this db_bench links stock RocksDB");
#else
  return db->PutInitial(options, key, value);
#endif
}

}  // namespace ROCKSDB_NAMESPACE
