// An outside program that uses Lodestone exactly as it would use stock
// RocksDB: only installed headers and the installed library.

#include <cstdio>
#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/location_cache.h"
#include "rocksdb/options.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <db path>\n", argv[0]);
    return 2;
  }
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DestroyDB(argv[1], options);
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, argv[1], &raw);
  if (!s.ok()) {
    fprintf(stderr, "open: %s\n", s.ToString().c_str());
    return 1;
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  for (int i = 0; i < 100; ++i) {
    s = db->Put(rocksdb::WriteOptions(), "key" + std::to_string(i),
                "value" + std::to_string(i));
    if (!s.ok()) return 1;
  }
  std::string value;
  s = db->Get(rocksdb::ReadOptions(), "key42", &value);
  if (!s.ok() || value != "value42") {
    fprintf(stderr, "get: %s %s\n", s.ToString().c_str(), value.c_str());
    return 1;
  }
  int n = 0;
  std::unique_ptr<rocksdb::Iterator> it(
      db->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  if (!it->status().ok() || n != 100) {
    fprintf(stderr, "iterate: %d entries, %s\n", n,
            it->status().ToString().c_str());
    return 1;
  }
  it.reset();
  // Lodestone's public header is installed alongside upstream's.
  auto cache = rocksdb::LocationCache::Create({1 << 16, 0.0});
  printf("consumer: ok (%d keys, location cache %s)\n", n,
         cache->ToString().c_str());
  db.reset();
  return rocksdb::DestroyDB(argv[1], options).ok() ? 0 : 1;
}
