#include "db/initial_put/initial_puts.h"

#include <atomic>
#include <string>

#include "db/compaction/compaction.h"
#include "db/dbformat.h"
#include "db/table_properties_collector.h"
#include "rocksdb/table_properties.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::atomic<bool> initial_puts_written{false};

class InitialPutCounter : public InternalTblPropColl {
 public:
  Status InternalAdd(const Slice& key, const Slice& /*value*/,
                     uint64_t /*file_size*/) override {
    if (key.size() >= kNumInternalBytes &&
        ExtractValueType(key) == kTypeValueInitial) {
      ++count_;
    }
    return Status::OK();
  }

  void BlockAdd(uint64_t, uint64_t, uint64_t) override {}

  Status Finish(UserCollectedProperties* properties) override {
    if (count_ > 0) {
      std::string encoded;
      PutVarint64(&encoded, count_);
      properties->emplace(kInitialPutsProperty, encoded);
    }
    return Status::OK();
  }

  UserCollectedProperties GetReadableProperties() const override {
    if (count_ == 0) {
      return {};
    }
    return {{kInitialPutsProperty, std::to_string(count_)}};
  }

  const char* Name() const override { return "InitialPutCounter"; }

 private:
  uint64_t count_ = 0;
};

class InitialPutCounterFactory : public InternalTblPropCollFactory {
 public:
  InternalTblPropColl* CreateInternalTblPropColl(
      uint32_t /*column_family_id*/, int /*level_at_creation*/,
      int /*num_levels*/,
      SequenceNumber /*last_level_inclusive_max_seqno_threshold*/) override {
    // Until this process has seen an initial put no table can gain one, and
    // flushes and compactions skip the per-key check (upstream drops null
    // collectors).
    return InitialPutsWritten() ? new InitialPutCounter() : nullptr;
  }
  const char* Name() const override { return "InitialPutCounterFactory"; }
};

}  // namespace

const char* const kInitialPutsProperty = "rocksdb.lodestone.num.initial.puts";

void NoteInitialPutWritten() {
  if (!initial_puts_written.load(std::memory_order_relaxed)) {
    initial_puts_written.store(true, std::memory_order_relaxed);
  }
}

bool InitialPutsWritten() {
  return initial_puts_written.load(std::memory_order_relaxed);
}

InternalTblPropCollFactory* NewInitialPutCounterFactory() {
  return new InitialPutCounterFactory();
}

uint64_t InitialPutsInTable(const TableProperties& props) {
  auto it = props.user_collected_properties.find(kInitialPutsProperty);
  if (it == props.user_collected_properties.end()) {
    return 0;
  }
  Slice encoded(it->second);
  uint64_t count = 0;
  return GetVarint64(&encoded, &count) ? count : 0;
}

bool CompactionInputMayHoldInitialPuts(const Compaction* compaction) {
  if (InitialPutsWritten()) {
    return true;
  }
  if (compaction == nullptr) {
    return false;
  }
  for (size_t i = 0; i < compaction->num_input_levels(); ++i) {
    for (const FileMetaData* file : *compaction->inputs(i)) {
      std::shared_ptr<const TableProperties> props =
          file->fd.table_reader != nullptr
              ? file->fd.table_reader->GetTableProperties()
              : nullptr;
      // A table whose properties are not at hand may hold initial puts.
      if (props == nullptr || InitialPutsInTable(*props) > 0) {
        // Its outputs carry them on and must be counted (after a reopen no
        // write may have set the flag yet).
        NoteInitialPutWritten();
        return true;
      }
    }
  }
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
