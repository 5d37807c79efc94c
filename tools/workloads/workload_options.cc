// Options that our workloads' flags set, applied by db_bench before it opens
// the DB (patches/0021): stock RocksDB's CompactOnDeletionCollector in both
// builds, Lodestone's tombstone-aware compaction in Lodestone's.

#ifdef GFLAGS
#include <cstdio>
#include <cstdlib>

#include "rocksdb/options.h"
#include "rocksdb/utilities/table_properties_collectors.h"
#include "tools/workloads/workload.h"
#include "util/gflags_compat.h"

DEFINE_uint64(compact_on_deletion_window, 0,
              "Stock CompactOnDeletionCollector: sliding window of entries "
              "(0 = no collector).");
DEFINE_uint64(compact_on_deletion_trigger, 0,
              "Stock CompactOnDeletionCollector: deletions in the window that "
              "mark the file for compaction.");
DEFINE_double(compact_on_deletion_ratio, 0,
              "Stock CompactOnDeletionCollector: whole-file deletion ratio "
              "that marks the file (0 = off).");
DEFINE_uint64(delete_persistence_threshold, 0,
              "Lodestone: seconds within which every tombstone must reach the "
              "last level (FADE; 0 = off).");
DEFINE_double(tombstone_density_trigger, 0,
              "Lodestone: tombstone share of a window that makes a file a "
              "compaction candidate (0 = off).");
DEFINE_uint32(tombstone_density_window, 128,
              "Lodestone: entries per tombstone density window.");

namespace ROCKSDB_NAMESPACE {

void ConfigureWorkloadOptions(Options* options) {
  if (FLAGS_compact_on_deletion_window > 0) {
    const std::string name = "CompactOnDeletionCollector";
    bool present = false;  // Open() runs again for every fresh DB.
    for (const auto& f : options->table_properties_collector_factories) {
      present = present || std::string(f->Name()) == name;
    }
    if (!present) {
      options->table_properties_collector_factories.emplace_back(
          NewCompactOnDeletionCollectorFactory(
              FLAGS_compact_on_deletion_window,
              FLAGS_compact_on_deletion_trigger,
              FLAGS_compact_on_deletion_ratio));
    }
  }
#ifdef LODESTONE_STOCK_BASELINE
  if (FLAGS_delete_persistence_threshold > 0 ||
      FLAGS_tombstone_density_trigger > 0) {
    fprintf(stderr,
            "--delete_persistence_threshold and --tombstone_density_trigger "
            "need Lodestone; this db_bench links stock RocksDB\n");
    exit(1);
  }
#else
  options->delete_persistence_threshold = FLAGS_delete_persistence_threshold;
  options->tombstone_density_trigger = FLAGS_tombstone_density_trigger;
  options->tombstone_density_window = FLAGS_tombstone_density_window;
#endif
}

}  // namespace ROCKSDB_NAMESPACE
#endif  // GFLAGS
