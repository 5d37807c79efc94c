// Fuzz target location_descriptor: location-cache slots holding descriptors
// that pass their check but point anywhere: another live file (one that
// holds an older version of the key, or none), a file that does not exist,
// a wrong block offset or size, a value offset inside or past the block.
// Whatever a slot says, Get and MultiGet return what the DB holds.
//
// Not planted: a location in a table that holds an older version of the
// key (HoldsOlderVersion says why). Table readers and blocks the reads
// brought into memory stay between inputs; they change no answer.
//
// Input: records of 16 bytes, each planted in the slot of one key:
//   u16 key index, u8 file (below 0xF0: the n-th live file, else a number
//   no file has), u8 tag, u32 block offset, u32 block size, u32 value offset
// (little-endian; fields masked to what a descriptor holds). Seeds are the
// descriptors the cache itself remembered.
//
// One DB, made once in an in-memory file system: 4000 keys in 64 KiB
// tables in L1, a quarter of them overwritten in an L0 table. Each input
// starts from empty slots.

#include <algorithm>

#include "cache/location/location_cache_impl.h"
#include "cache/location/location_descriptor.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "tests/fuzz/fuzz_target.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

constexpr uint32_t kKeys = 4000;
constexpr size_t kRecord = 16;
constexpr size_t kMaxRecords = 64;

std::string Key(uint32_t i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%06u", i);
  return buf;
}

std::string Value(uint32_t i, bool overwritten) {
  return (overwritten ? "new" : "old") + std::to_string(i) +
         std::string(i % 97, static_cast<char>('a' + i % 26));
}

bool Overwritten(uint32_t i) { return i % 4 == 0; }

struct Fixture {
  std::unique_ptr<Env> env;
  std::unique_ptr<DB> db;
  std::shared_ptr<Statistics> statistics;
  LocationCacheBinding* binding = nullptr;
  std::vector<uint64_t> files;  // Live table numbers.
  // The L1 tables' numbers and key ranges (overwritten keys' old versions).
  std::vector<std::pair<uint64_t, std::pair<std::string, std::string>>>
      older_versions;
};

Fixture MakeFixture() {
  Fixture f;
  f.env.reset(NewMemEnv(Env::Default()));
  Options options;
  options.env = f.env.get();
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  options.write_buffer_size = 64 << 10;
  options.target_file_size_base = 64 << 10;
  options.level_compaction_dynamic_level_bytes = false;  // L1, 64 KiB files.
  options.compression = kNoCompression;
  options.statistics = f.statistics = CreateDBStatistics();
  options.location_cache = LocationCache::Create({1 << 20});
  BlockBasedTableOptions table;
  table.block_size = 1024;
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  DB* db = nullptr;
  if (!DB::Open(options, "/fuzz/location", &db).ok()) {
    fuzz::FuzzFail("the fixture's DB opens", "");
  }
  f.db.reset(db);
  for (uint32_t i = 0; i < kKeys; ++i) {
    db->Put(WriteOptions(), Key(i), Value(i, false)).PermitUncheckedError();
  }
  db->Flush(FlushOptions()).PermitUncheckedError();
  db->CompactRange(CompactRangeOptions(), nullptr, nullptr)
      .PermitUncheckedError();
  for (uint32_t i = 0; i < kKeys; ++i) {
    if (Overwritten(i)) {
      db->Put(WriteOptions(), Key(i), Value(i, true)).PermitUncheckedError();
    }
  }
  db->Flush(FlushOptions()).PermitUncheckedError();
  std::vector<LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  for (const LiveFileMetaData& file : live) {
    f.files.push_back(file.file_number);
    if (file.level > 0) {
      f.older_versions.push_back(
          {file.file_number, {file.smallestkey, file.largestkey}});
    }
  }
  std::sort(f.files.begin(), f.files.end());
  f.binding = db->GetDBOptions().location_cache->binding();
  if (f.files.size() < 3 || f.binding == nullptr || !f.binding->enabled()) {
    fuzz::FuzzFail("the fixture has tables in two levels and a cache",
                   std::to_string(f.files.size()) + " tables");
  }
  return f;
}

Fixture& TheFixture() {
  static Fixture fixture = MakeFixture();
  return fixture;
}

std::vector<std::string> Seeds() {
  Fixture& f = TheFixture();
  f.binding->InvalidateAll();
  std::vector<std::string> seeds;
  std::string value;
  for (uint32_t i = 0; i < kKeys; i += 37) {
    f.db->Get(ReadOptions(), Key(i), &value).PermitUncheckedError();
    uint32_t fingerprint = 0;
    const LocationSlot* slot = f.binding->Slot(0, Key(i), &fingerprint);
    LocationDescriptor d;
    if (!LocationDescriptor::Decode({slot->head.load(), slot->tail.load()},
                                    fingerprint, &d)) {
      continue;  // Its slot was taken since.
    }
    const auto file = std::find(f.files.begin(), f.files.end(), d.file_number);
    std::string record;
    PutFixed16(&record, static_cast<uint16_t>(i));
    record.push_back(static_cast<char>(file - f.files.begin()));
    record.push_back(static_cast<char>(d.tag));
    PutFixed32(&record, static_cast<uint32_t>(d.block_offset));
    PutFixed32(&record, static_cast<uint32_t>(d.block_size));
    PutFixed32(&record, d.value_offset_words << 2);
    if (seeds.empty() || seeds.back().size() >= 4 * kRecord) {
      seeds.emplace_back();
    }
    seeds.back() += record;
  }
  return seeds;
}

// Whether `file_number` holds an older version of `key`: a location there
// is stale, not wrong. Nothing in a slot can tell a stale location (its
// file and block are real); the cache never holds one because a flush
// clears the slots of the keys it writes before the newer version becomes
// visible (location_invalidation.h), which the crash test and the location
// cache's planted bugs check.
bool HoldsOlderVersion(const Fixture& f, uint64_t file_number,
                       const std::string& key) {
  for (const auto& [number, range] : f.older_versions) {
    if (number == file_number && range.first <= key && key <= range.second) {
      return true;
    }
  }
  return false;
}

// Plants the input's records; returns the keys planted for.
std::vector<uint32_t> Plant(Fixture& f, const Slice& input) {
  std::vector<uint32_t> planted;
  for (size_t at = 0;
       at + kRecord <= input.size() && planted.size() < kMaxRecords;
       at += kRecord) {
    const char* r = input.data() + at;
    const uint32_t key = DecodeFixed16(r) % kKeys;
    const uint8_t file = static_cast<uint8_t>(r[2]);
    const uint64_t file_number =
        file < 0xF0 ? f.files[file % f.files.size()] : 1000 + file;
    if (Overwritten(key) && HoldsOlderVersion(f, file_number, Key(key))) {
      continue;
    }
    uint32_t fingerprint = 0;
    LocationSlot* slot = f.binding->Slot(0, Key(key), &fingerprint);
    LocationSlotWords words;
    if (!LocationDescriptor::Encode(
            f.binding->owner(), file_number,
            DecodeFixed32(r + 4) & ((uint64_t{1} << 30) - 1),
            DecodeFixed32(r + 8) & ((uint64_t{1} << 20) - 1),
            DecodeFixed32(r + 12) & ((uint64_t{1} << 16) - 1),
            static_cast<uint8_t>(r[3]) & LocationDescriptor::kTagMask,
            fingerprint, &words)) {
      continue;
    }
    slot->tail.store(words.tail);
    slot->head.store(words.head);
    planted.push_back(key);
  }
  return planted;
}

bool Run(const Slice& input) {
  Fixture& f = TheFixture();
  f.binding->InvalidateAll();
  const uint64_t hits_before = f.statistics->getTickerCount(LOCATION_CACHE_HIT);
  const std::vector<uint32_t> planted = Plant(f, input);
  // MultiGet, then (planted again: reads repopulate the slots they read
  // through) Get.
  std::vector<std::string> keys;
  for (uint32_t k : planted) {
    keys.push_back(Key(k));
  }
  std::vector<Slice> key_slices(keys.begin(), keys.end());
  std::vector<std::string> values;
  const std::vector<Status> statuses =
      f.db->MultiGet(ReadOptions(), key_slices, &values);
  for (size_t i = 0; i < planted.size(); ++i) {
    const std::string expected = Value(planted[i], Overwritten(planted[i]));
    if (!statuses[i].ok() || values[i] != expected) {
      fuzz::FuzzFail("a planted location never changes what MultiGet returns",
                     keys[i] + ": " + statuses[i].ToString() + ", " +
                         values[i].substr(0, 12) + " for " +
                         expected.substr(0, 12));
    }
  }
  Plant(f, input);
  for (size_t i = 0; i < planted.size(); ++i) {
    const std::string expected = Value(planted[i], Overwritten(planted[i]));
    std::string value;
    const Status s = f.db->Get(ReadOptions(), keys[i], &value);
    if (!s.ok() || value != expected) {
      fuzz::FuzzFail("a planted location never changes what Get returns",
                     keys[i] + ": " + s.ToString() + ", " +
                         value.substr(0, 12) + " for " +
                         expected.substr(0, 12));
    }
  }
  return f.statistics->getTickerCount(LOCATION_CACHE_HIT) > hits_before;
}

}  // namespace

LODESTONE_FUZZ_TARGET(location_descriptor, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
