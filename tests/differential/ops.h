// Operations of the differential harness: what they are, how a seeded
// generator draws them, and a one-line text form for logs and replays.

#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tests/differential/model.h"

namespace lodestone_test {

enum class OpKind {
  // Writes.
  kPut,
  kPutInitial,  // Only where the contract holds: the key has no visible value.
  kMerge,
  kDelete,
  kSingleDelete,  // Only on single-delete keys, over exactly one Put.
  kDeleteRange,
  // Reads, checked against the model.
  kGet,
  kMultiGet,
  kScan,
  // Snapshots and structure.
  kSnapshot,
  kReleaseSnapshot,
  kFlush,
  kCompactRange,
  kCompactFile,
  kIngest,  // An external SST file of a few Puts and Deletes.
  // DeleteByDeleteKeyRange(key, key2): the delete key is a key's last two
  // characters (kSecondaryDeleteKeyLength), "00".."99" for the op stream's
  // keys; key2 may be "9:", past every one.
  kSecondaryDelete,
  kReopen,
  // Reopen from what a crash leaves: the files as they stand (the WAL
  // unflushed into tables), taken with background work paused.
  kCrashReopen,
};

constexpr int kSnapshotSlots = 4;

constexpr int kMaxColumnFamilies = 8;

struct Op {
  OpKind kind = OpKind::kGet;
  std::string key;    // The key, a range begin, or a scan start.
  std::string key2;   // A range end or a scan bound ("" = none).
  std::string value;  // A written value; MultiGet: the extra keys, spaced;
                      // Ingest: the entries (IngestEntries).
  int snapshot = -1;  // Reads: snapshot slot (-1 = latest). kSnapshot: slot.
  int count = 0;      // Scans: entries to read at most.
  bool reverse = false;
  uint32_t pick = 0;  // kCompactFile: which file.
  // The column family a write, read, flush, compaction or ingestion goes
  // to (0 = default). Snapshots and reopens are the whole DB's.
  int cf = 0;
};

// The model's key for `key` in column family `cf`: every column family's
// keys live in one model (sequence numbers and snapshots are the DB's),
// under a prefix of their own ("0/k000123").
std::string ModelKey(int cf, const std::string& key);
// The first model key past every key of `cf`.
std::string ModelKeysEnd(int cf);

// An ingest op's entries in key order: (key, value), an empty value being a
// Delete. Stored in Op::value as "key:value,key:,...".
std::vector<std::pair<std::string, std::string>> IngestEntries(const Op& op);

// MultiGet: the keys to read, the op's key first (the rest travel in its
// value, comma-separated).
std::vector<std::string> MultiGetKeys(const Op& op);

// Space-separated fields; the column family last, and only when not 0 (so
// logs written before there were several parse as they did).
std::string FormatOp(const Op& op);
// Returns false on a malformed line.
bool ParseOp(const std::string& line, Op* op);

// Relative weights of the operations a generator draws.
struct OpMix {
  int put = 30;
  int put_initial = 0;  // Off until the initial-put feature is on.
  int merge = 6;
  int del = 10;
  int single_delete = 4;
  int delete_range = 2;
  int get = 20;
  int multi_get = 4;
  int scan = 8;
  int snapshot = 2;
  int release = 2;
  int flush = 2;
  int compact_range = 1;
  int compact_file = 1;
  int ingest = 1;
  int secondary_delete = 0;  // Off unless a set asks for it.
  int reopen = 1;        // Per mille of ops, not a weight (reopens are slow).
  int crash_reopen = 2;  // Per mille too.
};

struct GeneratorOptions {
  uint64_t seed = 1;
  int num_ops = 2000;
  int num_keys = 600;         // Ordinary keys "k%06d".
  int num_single_keys = 100;  // Single-delete keys "s%06d".
  int max_value_size = 300;
  // Column families the ops spread over ("default", "cf1", ...). With one,
  // the generator draws none, so a seed's stream is what it always was.
  int num_column_families = 1;
  OpMix mix;
};

// Draws a valid op stream: contracts (SingleDelete, PutInitial) are checked
// against a model of the writes so far.
std::vector<Op> GenerateOps(const GeneratorOptions& options);

}  // namespace lodestone_test
