// Fuzz target craft_table_damage: tables written by Lodestone without checksums
// (checksum=kNoChecksum: nothing vouches for any byte) whose CRaFT filter
// blocks (partitions and metadata) are damaged by byte flips, and which may
// be truncated, read as a user would: opened, scanned whole both ways,
// scanned with short bounds (which ask the filter), verified, and opened as
// the only table of a DB whose Gets, scans and compaction read it. The
// tables hold initial puts, deletes and a range delete, with filters of
// partition format versions 2-4.
//
// Damage outside the filter is upstream's to survive, and with checksums
// off it does not promise to: upstream 9.10.0 decodes data block entries
// without bounds checks in release builds (table/block_based/block.cc,
// DecodeEntry: a debug assertion, "we should not pay the cost of checking
// for corruption on every single key decoding"), and stock reads such a
// table the same way. This target's first run, with flips anywhere, hit
// that assertion at once.
//
// Invariant: no crash and no sanitizer report; every failure is a Status.
// A damaged filter may hide a key where no structural check can tell (as a
// damaged bloom filter can in stock RocksDB; craft_damage_test.cc counts
// how often): that is not checked here.
//
// Input: byte 0 picks the table, byte 1 truncates it (0: not at all, else
// to byte1/256 of its size), then records of 5 bytes: a little-endian u32
// offset into the filter's bytes (modulo their size) and a byte to XOR
// there.

#include <functional>
#include <map>

#include "rocksdb/craft_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/table.h"
#include "table/craft/craft_file_inspection.h"
#include "table/craft/craft_test_filters.h"
#include "tests/fuzz/fuzz_target.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

Options TableOptions(Env* env, uint32_t range_hash_bits, bool craft) {
  Options options;
  options.env = env;
  options.create_if_missing = true;
  BlockBasedTableOptions table;
  table.checksum = kNoChecksum;
  table.block_size = 512;
  if (craft) {
    CraftRangeFilterOptions knobs;
    knobs.partition_size = 256;
    knobs.range_hash_bits = range_hash_bits;
    if (!NewCraftRangeFilterPolicy(knobs, &table.range_filter).ok()) {
      fuzz::FuzzFail("the fixture's options are valid", "");
    }
  }
  options.table_factory.reset(NewBlockBasedTableFactory(table));
  return options;
}

// A DB holding one flushed table: its files, and which one the table is.
struct SeedDb {
  std::map<std::string, std::string> files;
  std::string table;
  uint32_t range_hash_bits = 0;
  // Where the filter's blocks sit in the table: partitions, then the
  // metadata, each with its trailer.
  uint64_t filter_offset = 0;
  uint64_t filter_size = 0;
};

struct Fixture {
  std::unique_ptr<Env> env;
  std::vector<SeedDb> dbs;
  std::vector<std::string> keys;  // Probes: the keys the tables were fed.
};

// A flushed table of `key(i)` for i < 600: puts and initial puts, every
// 7th deleted, a range delete, as one memtable flush writes them.
SeedDb MakeDb(Env* env, uint32_t range_hash_bits, bool text_keys,
              std::vector<std::string>* keys) {
  const std::string dir = "/fuzz/table_seed";
  Options options = TableOptions(env, range_hash_bits, /*craft=*/true);
  DestroyDB(dir, options);
  DB* raw = nullptr;
  if (!DB::Open(options, dir, &raw).ok()) {
    fuzz::FuzzFail("the seed DB opens", "");
  }
  std::unique_ptr<DB> db(raw);
  for (int i = 0; i < 600; ++i) {
    std::string key;
    if (text_keys) {
      key = "user:" + std::to_string(100000 + i * 7) + "@example.com";
    } else {
      key = CraftTestFixedWidthKey(uint64_t{40503} * i);
    }
    keys->push_back(key);
    const std::string value = "value" + std::to_string(i);
    if (i % 3 == 0) {
      db->PutInitial(WriteOptions(), key, value).PermitUncheckedError();
    } else {
      db->Put(WriteOptions(), key, value).PermitUncheckedError();
    }
    if (i % 7 == 0) {
      db->Delete(WriteOptions(), key).PermitUncheckedError();
    }
  }
  db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), (*keys)[100],
                  (*keys)[110])
      .PermitUncheckedError();
  db->Flush(FlushOptions()).PermitUncheckedError();
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  if (files.size() != 1) {
    fuzz::FuzzFail("the seed DB holds one table", std::to_string(files.size()));
  }
  db.reset();  // Closed: the MANIFEST names the table.
  SeedDb seed;
  seed.table = files[0].name.substr(1);  // "/000009.sst"
  seed.range_hash_bits = range_hash_bits;
  std::vector<std::string> children;
  env->GetChildren(dir, &children).PermitUncheckedError();
  for (const std::string& name : children) {
    if (name.rfind("LOG", 0) != 0 && name != "LOCK") {
      ReadFileToString(env, dir + "/" + name, &seed.files[name])
          .PermitUncheckedError();
    }
  }
  const std::string path = "/fuzz/seed_table.sst";
  WriteStringToFile(env, seed.files[seed.table], path).PermitUncheckedError();
  CraftFileFilter filter;
  if (!ReadCraftFilterFromFile(path, options, &filter).ok() ||
      filter.metadata.partitions().empty()) {
    fuzz::FuzzFail("the seed table has a CRaFT filter", seed.table);
  }
  constexpr uint64_t kTrailer = 5;
  seed.filter_offset = filter.metadata.partitions()[0].offset;
  seed.filter_size =
      filter.bytes + kTrailer * (filter.metadata.partitions().size() + 1);
  DestroyDB(dir, options).PermitUncheckedError();
  return seed;
}

Fixture MakeFixture() {
  Fixture f;
  f.env.reset(NewMemEnv(Env::Default()));
  f.dbs.push_back(MakeDb(f.env.get(), 0, /*text_keys=*/false, &f.keys));
  f.dbs.push_back(MakeDb(f.env.get(), 0, /*text_keys=*/true, &f.keys));
  f.dbs.push_back(MakeDb(f.env.get(), 14, /*text_keys=*/false, &f.keys));
  return f;
}

Fixture& TheFixture() {
  static Fixture fixture = MakeFixture();
  return fixture;
}

std::vector<std::string> Seeds() {
  std::vector<std::string> seeds;
  for (char table = 0; table < 3; ++table) {
    seeds.push_back(std::string{table, 0});
    // A flip in the middle, one near the end (the filter and the footer's
    // neighbours).
    std::string seed{table, 0};
    PutFixed32(&seed, 2000);
    seed.push_back(4);
    PutFixed32(&seed, 0xFFFFFFF0u);
    seed.push_back(1);
    seeds.push_back(seed);
  }
  return seeds;
}

void Scan(Iterator* it) {
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
  }
}

// Short bounded scans from every 25th probe: the filter answers them.
void BoundedScans(const std::function<Iterator*(const ReadOptions&)>& open,
                  const std::vector<std::string>& keys) {
  for (size_t i = 0; i + 3 < keys.size(); i += 25) {
    const Slice upper(keys[i + 3]);
    ReadOptions ro;
    ro.iterate_upper_bound = &upper;
    std::unique_ptr<Iterator> it(open(ro));
    for (it->Seek(keys[i]); it->Valid(); it->Next()) {
    }
    it->status().PermitUncheckedError();
  }
}

bool Run(const Slice& input) {
  Fixture& f = TheFixture();
  if (input.size() < 2) {
    return false;
  }
  const SeedDb& seed = f.dbs[static_cast<uint8_t>(input[0]) % f.dbs.size()];
  std::string table = seed.files.at(seed.table);
  for (size_t at = 2; at + 5 <= input.size(); at += 5) {
    table[seed.filter_offset +
          DecodeFixed32(input.data() + at) % seed.filter_size] ^= input[at + 4];
  }
  if (input[1] != 0) {
    table.resize(table.size() * static_cast<uint8_t>(input[1]) / 256);
  }
  const Options options =
      TableOptions(f.env.get(), seed.range_hash_bits, /*craft=*/true);

  // The table alone.
  const std::string path = "/fuzz/damaged.sst";
  WriteStringToFile(f.env.get(), table, path).PermitUncheckedError();
  SstFileReader reader(options);
  if (!reader.Open(path).ok()) {
    return false;
  }
  {
    std::unique_ptr<Iterator> it(reader.NewIterator(ReadOptions()));
    Scan(it.get());
    it->status().PermitUncheckedError();
  }
  BoundedScans([&](const ReadOptions& ro) { return reader.NewIterator(ro); },
               f.keys);
  reader.VerifyChecksum().PermitUncheckedError();
  reader.VerifyNumEntries(ReadOptions()).PermitUncheckedError();

  // The table in its DB.
  const std::string dir = "/fuzz/damage_db";
  DestroyDB(dir, options).PermitUncheckedError();
  f.env->CreateDirIfMissing(dir).PermitUncheckedError();
  for (const auto& [name, contents] : seed.files) {
    WriteStringToFile(f.env.get(), name == seed.table ? table : contents,
                      dir + "/" + name)
        .PermitUncheckedError();
  }
  DB* raw = nullptr;
  if (DB::Open(options, dir, &raw).ok()) {
    std::unique_ptr<DB> db(raw);
    std::string value;
    for (size_t i = 0; i < f.keys.size(); i += 5) {
      db->Get(ReadOptions(), f.keys[i], &value).PermitUncheckedError();
    }
    BoundedScans([&](const ReadOptions& ro) { return db->NewIterator(ro); },
                 f.keys);
    db->VerifyChecksum().PermitUncheckedError();
    db->CompactRange(CompactRangeOptions(), nullptr, nullptr)
        .PermitUncheckedError();
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    Scan(it.get());
    it->status().PermitUncheckedError();
  }
  DestroyDB(dir, options).PermitUncheckedError();
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(craft_table_damage, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
