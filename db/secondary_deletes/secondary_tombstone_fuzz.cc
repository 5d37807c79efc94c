// Fuzz target secondary_tombstone: the secondary range tombstone records a
// MANIFEST carries (VersionEdit tag 4800's payload), as recovery meets
// them, and the tombstone set built from what it accepts. The input is a
// run of records. Every accepted record must encode back to a record that
// decodes to itself, and the set must answer as the tombstones do one by
// one: an entry is covered at a read exactly when some tombstone holds its
// delete key with a sequence number above the entry's, at or below the
// read's; a range the set calls covered holds no uncovered probe, and one
// it calls overlapped holds a key of some tombstone the read sees.

#include <string>
#include <vector>

#include "db/secondary_deletes/secondary_tombstones.h"
#include "tests/fuzz/fuzz_target.h"

namespace ROCKSDB_NAMESPACE {

namespace {

constexpr size_t kMaxTombstones = 8;

std::string Records(const std::vector<SecondaryRangeTombstone>& tombstones) {
  std::string bytes;
  for (const SecondaryRangeTombstone& t : tombstones) {
    t.EncodeTo(&bytes);
  }
  return bytes;
}

std::vector<std::string> Seeds() {
  const std::string extractor = "{id=key_suffix;length=1}";
  return {
      Records({{"a", "c", 10, extractor}}),
      Records({{"a", "m", 10, extractor}, {"f", "z", 20, extractor}}),
      Records({{std::string(1, '\0'), std::string(1, '\x10'), 5, extractor},
               {std::string(1, '\x08'), std::string(1, '\xff'), 7, extractor},
               {"\x20\x20", "\x20\x21", kMaxSequenceNumber, extractor}}),
      Records({{"b", "c", 3, "{id=value_prefix;length=8}"},
               {"b", "c", 9, "{id=value_prefix;length=8}", 1800000000}}),
      // Version 1 (no issue time): "a", "b", 5, "x".
      std::string("\x01\x01"
                  "a\x01"
                  "b\x05\x01"
                  "x"),
  };
}

// Keys at and around each tombstone's ends: where answers change.
std::vector<std::string> Probes(
    const std::vector<SecondaryRangeTombstone>& tombstones) {
  std::vector<std::string> probes = {std::string()};
  for (const SecondaryRangeTombstone& t : tombstones) {
    for (const std::string& end : {t.lo, t.hi}) {
      probes.push_back(end);
      probes.push_back(end + '\0');
      if (!end.empty()) {
        probes.push_back(end.substr(0, end.size() - 1));
      }
    }
  }
  return probes;
}

bool CoveredByOne(const std::vector<SecondaryRangeTombstone>& tombstones,
                  const Slice& key, SequenceNumber entry_seq,
                  SequenceNumber read_seq) {
  for (const SecondaryRangeTombstone& t : tombstones) {
    if (key.compare(t.lo) >= 0 && key.compare(t.hi) < 0 && entry_seq < t.seq &&
        t.seq <= read_seq) {
      return true;
    }
  }
  return false;
}

bool Run(const Slice& input) {
  Slice rest = input;
  std::vector<SecondaryRangeTombstone> tombstones;
  while (!rest.empty()) {
    if (tombstones.size() == kMaxTombstones) {
      return false;
    }
    SecondaryRangeTombstone t;
    if (!t.DecodeFrom(&rest).ok()) {
      return false;
    }
    std::string encoded;
    t.EncodeTo(&encoded);
    Slice again_input(encoded);
    SecondaryRangeTombstone again;
    if (!again.DecodeFrom(&again_input).ok() || !again_input.empty() ||
        !(again == t)) {
      fuzz::FuzzFail("an accepted record encodes to itself",
                     t.lo + ".." + t.hi);
    }
    tombstones.push_back(std::move(t));
  }
  if (tombstones.empty()) {
    return false;
  }
  const SecondaryTombstoneSet set(tombstones);
  std::vector<SequenceNumber> seqs = {0, 1, kMaxSequenceNumber};
  for (const SecondaryRangeTombstone& t : tombstones) {
    seqs.push_back(t.seq - 1);
    seqs.push_back(t.seq);
  }
  const std::vector<std::string> probes = Probes(tombstones);
  for (const std::string& key : probes) {
    for (SequenceNumber entry_seq : seqs) {
      for (SequenceNumber read_seq : seqs) {
        if (set.Covers(key, entry_seq, read_seq) !=
            CoveredByOne(tombstones, key, entry_seq, read_seq)) {
          fuzz::FuzzFail("the set covers what its tombstones cover", key);
        }
      }
    }
  }
  for (const std::string& smallest : probes) {
    for (const std::string& largest : probes) {
      if (Slice(smallest).compare(largest) > 0) {
        continue;
      }
      for (SequenceNumber read_seq : seqs) {
        const bool overlaps = set.Overlaps(smallest, largest, read_seq);
        bool covered_probe = false;
        for (const std::string& key : probes) {
          if (Slice(key).compare(smallest) < 0 ||
              Slice(key).compare(largest) > 0) {
            continue;
          }
          if (set.CoversRange(smallest, largest, /*largest_seq=*/0, read_seq) &&
              !CoveredByOne(tombstones, key, 0, read_seq)) {
            fuzz::FuzzFail("a covered range holds no uncovered key", key);
          }
          covered_probe |= CoveredByOne(tombstones, key, 0, read_seq);
        }
        if (covered_probe && !overlaps) {
          fuzz::FuzzFail("a range holding a covered key overlaps", smallest);
        }
      }
    }
  }
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(secondary_tombstone, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
