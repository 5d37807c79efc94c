// CRaFT micro-benchmark: bits per key, empty-range false positive rate and
// query latency, in the style of SuRF's evaluation (issue: range filter).
//
//   craft_bench [--keys N] [--queries Q] [--partition BYTES]
//               [--plain_labels 1]   (format 1: a byte per trie label)
//               [--key_coding 0]     (no order-preserving key code)
//               [--text_file PATH]   (also: half its lines as keys, the
//                                     other half as queries, e.g.
//                                     /usr/share/dict/words)
//               [--range_hash_bits 0,12,14]  (partition format 4: each
//                                     integer case also with a range hash
//                                     of these bits per key)
//               [--table_keys N]     (only build cost: the keys cut into
//                                     tables of N keys, one filter each,
//                                     as flushes and compactions build)
//
// Key sets: uniform 64-bit integers (big-endian) and generated email-like
// text keys (stored with the order-preserving key code unless
// --key_coding 0). Queries: [lo, lo + width) for widths 2^0, 2^5, 2^10
// (integers) and [p, p + "\xff") for random 4-13 letter prefixes p (text),
// random lo, only the empty ones counted; and the correlated cases, lo
// 1..64 past a stored integer key (widths 1, 32, 64), or a stored text key
// plus a letter. Bits per key count every partition and the metadata
// block; build time is per key.

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "table/craft/craft_filter.h"

using ROCKSDB_NAMESPACE::Cleanable;
using ROCKSDB_NAMESPACE::CraftFilterBuilder;
using ROCKSDB_NAMESPACE::CraftFilterOptions;
using ROCKSDB_NAMESPACE::CraftFilterReader;
using ROCKSDB_NAMESPACE::CraftMetadata;
using ROCKSDB_NAMESPACE::CraftPartition;
using ROCKSDB_NAMESPACE::CraftPartitionInfo;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;

namespace {

std::string BigEndian(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) s[i] = static_cast<char>(v & 0xff);
  return s;
}

struct Filter {
  CraftMetadata metadata;
  std::vector<CraftPartition> tries;
  double build_ns_per_key = 0;
  size_t bytes = 0;
};

bool plain_labels = false;
bool key_coding = true;
std::vector<uint32_t> range_hash_bits = {0};

CraftFilterOptions FilterOptions(uint32_t real_bits, uint32_t hash_bits,
                                 uint32_t partition_size) {
  CraftFilterOptions options;
  options.trie.compact_labels = !plain_labels;
  options.key_coding = key_coding;
  options.partition_size = partition_size;
  options.trie.real_suffix_bits = real_bits;
  options.range_hash_bits = hash_bits;
  return options;
}

// Ends the builder's table: its partitions and its encoded metadata.
void FinishTable(CraftFilterBuilder* builder,
                 std::vector<std::string>* partitions, std::string* metadata) {
  std::vector<CraftPartitionInfo> infos;
  std::string last_key;
  builder->Finish(partitions, &infos, &last_key);
  CraftMetadata::Encode(infos, last_key, metadata);
}

Filter Build(const std::vector<std::string>& keys, uint32_t real_bits,
             uint32_t hash_bits, uint32_t partition_size) {
  const auto start = std::chrono::steady_clock::now();
  CraftFilterBuilder builder(
      FilterOptions(real_bits, hash_bits, partition_size));
  for (const std::string& k : keys) builder.Add(k, 0);
  std::vector<std::string> partitions;
  std::string metadata;
  FinishTable(&builder, &partitions, &metadata);
  Filter f;
  f.build_ns_per_key = std::chrono::duration<double, std::nano>(
                           std::chrono::steady_clock::now() - start)
                           .count() /
                       static_cast<double>(keys.size());
  f.bytes = metadata.size();
  f.tries.resize(partitions.size());
  for (size_t i = 0; i < partitions.size(); ++i) {
    f.bytes += partitions[i].size();
    Status s = CraftPartition::Decode(partitions[i], &f.tries[i]);
    if (!s.ok()) {
      fprintf(stderr, "decode: %s\n", s.ToString().c_str());
      exit(1);
    }
  }
  Status s = CraftMetadata::Decode(metadata, &f.metadata);
  if (!s.ok()) exit(1);
  return f;
}

struct Query {
  std::string lo, hi;
};

void Measure(const char* name, const std::vector<std::string>& keys,
             const std::vector<Query>& queries, uint32_t real_bits,
             uint32_t partition_size, uint32_t hash_bits = 0) {
  Filter f = Build(keys, real_bits, hash_bits, partition_size);
  CraftFilterReader reader(f.metadata);
  auto loader = [&f](size_t i, const CraftPartition** t, Cleanable*) {
    *t = &f.tries[i];
    return Status::OK();
  };
  // The truth first, so that the timing covers the filter alone.
  std::vector<bool> truth(queries.size()), answers(queries.size());
  for (size_t i = 0; i < queries.size(); ++i) {
    auto it = std::lower_bound(keys.begin(), keys.end(), queries[i].lo);
    truth[i] = it != keys.end() && *it < queries[i].hi;
  }
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < queries.size(); ++i) {
    answers[i] = reader.RangeMayExist(queries[i].lo, queries[i].hi, loader);
  }
  const double ns = std::chrono::duration<double, std::nano>(
                        std::chrono::steady_clock::now() - start)
                        .count() /
                    static_cast<double>(queries.size());
  size_t empty = 0, fp = 0, false_negative = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    if (!truth[i]) {
      ++empty;
      fp += answers[i];
    } else if (!answers[i]) {
      ++false_negative;
    }
  }
  printf(
      "%-30s real=%-2u rh=%-2u bits/key=%6.2f  empty=%7zu  FPR=%7.4f%%  "
      "query=%6.0f ns  build=%5.0f ns/key%s\n",
      name, real_bits, hash_bits, 8.0 * f.bytes / keys.size(), empty,
      empty ? 100.0 * fp / empty : 0.0, ns, f.build_ns_per_key,
      false_negative ? "  FALSE NEGATIVES!" : "");
}

// Build cost when every table builds its own filter, as flushes and
// compactions do: one builder reused table after table (table writers take
// theirs from the policy's pool), the keys packed in one buffer as a table
// builder hands them over, best of three rounds. A table's fixed costs
// (choosing the key code, cutting its last partition) weigh on few keys.
void MeasureTableBuilds(const char* name, const std::vector<std::string>& keys,
                        size_t table_keys, uint32_t partition_size,
                        uint32_t hash_bits) {
  std::string packed;
  std::vector<size_t> ends;
  for (const std::string& k : keys) {
    packed += k;
    ends.push_back(packed.size());
  }
  // The policy's default 8 real suffix bits.
  CraftFilterBuilder builder(FilterOptions(8, hash_bits, partition_size));
  double best_ns = 0;
  size_t bytes = 0;
  for (int round = 0; round < 3; ++round) {
    bytes = 0;
    const auto start = std::chrono::steady_clock::now();
    size_t begin = 0;
    for (size_t first = 0; first < keys.size(); first += table_keys) {
      const size_t last = std::min(keys.size(), first + table_keys);
      for (size_t i = first; i < last; ++i) {
        builder.Add(Slice(packed.data() + begin, ends[i] - begin), 0);
        begin = ends[i];
      }
      std::vector<std::string> partitions;
      std::string metadata;
      FinishTable(&builder, &partitions, &metadata);
      bytes += metadata.size();
      for (const std::string& p : partitions) bytes += p.size();
    }
    const double ns = std::chrono::duration<double, std::nano>(
                          std::chrono::steady_clock::now() - start)
                          .count() /
                      static_cast<double>(keys.size());
    best_ns = round == 0 ? ns : std::min(best_ns, ns);
  }
  printf(
      "%-30s tables of %zu keys  rh=%-2u bits/key=%6.2f  "
      "build=%5.1f ns/key\n",
      name, table_keys, hash_bits, 8.0 * bytes / keys.size(), best_ns);
}

}  // namespace

int main(int argc, char** argv) {
  size_t n = 1000000, q = 200000;
  uint32_t partition = 16384;
  const char* text_file = nullptr;
  size_t table_keys = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--keys")) n = strtoull(argv[i + 1], nullptr, 10);
    if (!strcmp(argv[i], "--queries")) q = strtoull(argv[i + 1], nullptr, 10);
    if (!strcmp(argv[i], "--plain_labels"))
      plain_labels = strtoul(argv[i + 1], nullptr, 10) != 0;
    if (!strcmp(argv[i], "--key_coding"))
      key_coding = strtoul(argv[i + 1], nullptr, 10) != 0;
    if (!strcmp(argv[i], "--text_file")) text_file = argv[i + 1];
    if (!strcmp(argv[i], "--table_keys"))
      table_keys = strtoull(argv[i + 1], nullptr, 10);
    if (!strcmp(argv[i], "--partition"))
      partition = static_cast<uint32_t>(strtoul(argv[i + 1], nullptr, 10));
    if (!strcmp(argv[i], "--range_hash_bits")) {
      range_hash_bits.clear();
      for (const char* p = argv[i + 1]; *p != '\0';) {
        char* end = nullptr;
        range_hash_bits.push_back(static_cast<uint32_t>(strtoul(p, &end, 10)));
        p = *end == ',' ? end + 1 : end;
      }
    }
  }
  std::mt19937_64 rng(2026);

  if (table_keys > 0) {
    // db_bench's keys (--key_size 16): the index big-endian, then '0's.
    std::vector<std::string> db_bench_keys;
    for (uint64_t i = 0; i < n; ++i) {
      db_bench_keys.push_back(BigEndian(i) + std::string(8, '0'));
    }
    std::vector<uint64_t> uniform(n);
    for (auto& v : uniform) v = rng();
    std::sort(uniform.begin(), uniform.end());
    std::vector<std::string> uniform_keys;
    for (uint64_t v : uniform) uniform_keys.push_back(BigEndian(v));
    std::vector<std::string> email;
    for (size_t i = 0; i < n; ++i) {
      std::string user;
      const size_t len = 4 + rng() % 10;
      for (size_t c = 0; c < len; ++c) user.push_back('a' + rng() % 26);
      email.push_back(user + std::to_string(rng() % 1000) + "@example.com");
    }
    std::sort(email.begin(), email.end());
    for (uint32_t rh : range_hash_bits) {
      MeasureTableBuilds("db_bench keys (16 bytes)", db_bench_keys, table_keys,
                         partition, rh);
      MeasureTableBuilds("uint64 uniform", uniform_keys, table_keys, partition,
                         rh);
    }
    MeasureTableBuilds("email-like text", email, table_keys, partition, 0);
    return 0;
  }

  // Uniform 64-bit integers.
  std::vector<uint64_t> ints(n);
  for (auto& v : ints) v = rng();
  std::sort(ints.begin(), ints.end());
  ints.erase(std::unique(ints.begin(), ints.end()), ints.end());
  std::vector<std::string> int_keys;
  for (uint64_t v : ints) int_keys.push_back(BigEndian(v));
  for (uint64_t width : {uint64_t{1}, uint64_t{32}, uint64_t{1024}}) {
    std::vector<Query> queries;
    for (size_t i = 0; i < q; ++i) {
      const uint64_t lo = rng();
      queries.push_back({BigEndian(lo), BigEndian(lo + width)});
    }
    for (uint32_t rh : range_hash_bits) {
      for (uint32_t real : {0u, 1u, 2u, 3u, 4u, 8u}) {
        char name[64];
        snprintf(name, sizeof(name), "uint64 width 2^%d",
                 width == 1 ? 0 : (width == 32 ? 5 : 10));
        Measure(name, int_keys, queries, real, partition, rh);
      }
    }
  }
  // Correlated: [lo, lo + width) with lo 1..64 past a stored key.
  for (uint64_t width : {uint64_t{1}, uint64_t{32}, uint64_t{64}}) {
    std::vector<Query> queries;
    for (size_t i = 0; i < q; ++i) {
      const uint64_t base = ints[rng() % ints.size()];
      const uint64_t lo = base + 1 + rng() % 64;
      queries.push_back({BigEndian(lo), BigEndian(lo + width)});
    }
    for (uint32_t rh : range_hash_bits) {
      for (uint32_t real : {0u, 4u, 8u}) {
        char name[64];
        snprintf(name, sizeof(name), "uint64 correlated w=%d",
                 static_cast<int>(width));
        Measure(name, int_keys, queries, real, partition, rh);
      }
    }
  }

  // Email-like text keys.
  static const char* kDomains[] = {"example.com", "mail.example.org",
                                   "corp.example.net", "x.example.io"};
  std::vector<std::string> text;
  for (size_t i = 0; i < n; ++i) {
    std::string user;
    const size_t len = 4 + rng() % 10;
    for (size_t c = 0; c < len; ++c) user.push_back('a' + rng() % 26);
    text.push_back(user + std::to_string(rng() % 1000) + "@" +
                   kDomains[rng() % 4]);
  }
  std::sort(text.begin(), text.end());
  text.erase(std::unique(text.begin(), text.end()), text.end());
  std::vector<Query> text_queries;
  for (size_t i = 0; i < q; ++i) {
    std::string lo;
    const size_t len = 4 + rng() % 10;
    for (size_t c = 0; c < len; ++c) lo.push_back('a' + rng() % 26);
    text_queries.push_back({lo, lo + "\xff"});  // Keys with prefix lo.
  }
  for (uint32_t real : {0u, 2u, 3u, 4u, 8u, 12u}) {
    Measure("text prefix ranges", text, text_queries, real, partition);
  }
  // Correlated: keys that extend a stored key by a letter (mostly none).
  std::vector<Query> text_correlated;
  for (size_t i = 0; i < q; ++i) {
    const std::string lo =
        text[rng() % text.size()] + static_cast<char>('a' + rng() % 26);
    text_correlated.push_back({lo, lo + "\xff"});
  }
  for (uint32_t real : {0u, 4u, 8u}) {
    Measure("text correlated (key+letter)", text, text_correlated, real,
            partition);
  }

  // A real word list, held out in halves as SuRF's evaluation does: the
  // queries are points and [w, w with its last byte + 128) ranges.
  if (text_file != nullptr) {
    std::ifstream in(text_file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) lines.push_back(line);
    }
    std::shuffle(lines.begin(), lines.end(), rng);
    std::vector<std::string> keys(lines.begin(),
                                  lines.begin() + lines.size() / 2);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<Query> points, ranges;
    for (size_t i = lines.size() / 2; i < lines.size(); ++i) {
      const std::string& w = lines[i];
      points.push_back({w, w + std::string(1, '\0')});
      std::string hi = w;
      hi.back() = static_cast<char>(
          std::min(0xff, static_cast<unsigned char>(hi.back()) + 128));
      ranges.push_back({w, hi});
    }
    for (uint32_t real : {0u, 4u, 8u}) {
      Measure("file held-out points", keys, points, real, partition);
      Measure("file held-out last+128", keys, ranges, real, partition);
    }
  }
  return 0;
}
