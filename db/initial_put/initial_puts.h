// Initial puts (WriteBatch::PutInitial): which tables and memtables may hold
// them, so that flushes and compactions look for initial-version chains only
// where there can be one. A DB that never writes an initial put therefore
// flushes and compacts exactly as stock RocksDB.

#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/types.h"

namespace ROCKSDB_NAMESPACE {

class Compaction;
class CompactionIterator;
class Logger;
class InternalTblPropCollFactory;
class Statistics;
class VersionEdit;
struct TableProperties;

// Called when an initial put enters a memtable in this process (a write or
// WAL replay) or a compaction reads a table holding them. Process-wide:
// memtables and new tables may only hold initial puts after it.
void NoteInitialPutWritten();
bool InitialPutsWritten();

// The table property counting a table's initial puts. Written only when the
// count is non-zero, so tables without initial puts are stock's bytes.
extern const char* const kInitialPutsProperty;

// The internal property collector that writes kInitialPutsProperty; added to
// every column family's internal collectors (patch 0009). It creates no
// collector until InitialPutsWritten(), so stock workloads pay nothing.
InternalTblPropCollFactory* NewInitialPutCounterFactory();

// The number of initial puts a table's properties record (0 when absent).
uint64_t InitialPutsInTable(const TableProperties& props);

// Whether a compaction's inputs may hold initial puts.
bool CompactionInputMayHoldInitialPuts(const Compaction* compaction);

// Records a finished flush's or compaction's chain statistics as tickers,
// and logs chains pruned with the output level they were pruned above.
void RecordInitialChainStats(const CompactionIterator& c_iter,
                             Statistics* stats, Logger* logger,
                             const std::string& column_family, int output_level,
                             bool bottommost);

// A flush (or a recovery's flush of a replayed WAL) that pruned chains may
// have dropped its memtables' newest writes, and the MANIFEST's last
// sequence number only follows the files it adds. Raises `edit`'s last
// sequence number to `largest_pruned_seqno` (InitialChains), so that after a
// reopen, or a crash that loses the WAL's unsynced tail, the DB's last
// sequence number still covers every write whose effect it holds, as when
// stock's flush keeps a key's newest version. No change for 0 (nothing
// pruned), so DBs without initial puts write stock's MANIFEST.
void CoverPrunedWrites(SequenceNumber largest_pruned_seqno, VersionEdit* edit);

}  // namespace ROCKSDB_NAMESPACE
