// The reference model of the differential harness: an in-memory,
// multi-version map that answers every read at any sequence number the way a
// correct LSM must.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lodestone_test {

enum class WriteKind { kPut, kPutInitial, kMerge, kDelete, kSingleDelete };

// The delete key of every DB of a run with secondary deletes: the user
// key's last this many bytes (key_suffix).
constexpr size_t kSecondaryDeleteKeyLength = 2;

class Model {
 public:
  using KV = std::pair<std::string, std::string>;

  // Each write gets the next sequence number; returns it.
  uint64_t Write(WriteKind kind, const std::string& key,
                 const std::string& value);
  uint64_t DeleteRange(const std::string& begin, const std::string& end);
  // DeleteByDeleteKeyRange over the keys starting with `prefix` (a column
  // family's), the delete key being a key's last kSecondaryDeleteKeyLength
  // bytes: every Put, PutInitial and Merge written so far whose delete key
  // lies in [lo, hi) is as if never written, for reads at this sequence
  // number or later (a read at an older snapshot still sees it).
  uint64_t SecondaryDelete(const std::string& prefix, const std::string& lo,
                           const std::string& hi);

  // The newest sequence number written (0 before any write).
  uint64_t LastSequence() const { return last_seq_; }

  // The value of `key` visible at `seq`, if any.
  std::optional<std::string> Get(const std::string& key, uint64_t seq) const;

  // Visible entries with lower <= key < upper (empty bound = unbounded), in
  // key order.
  std::vector<KV> Scan(const std::string& lower, const std::string& upper,
                       uint64_t seq) const;

  // Merge: comma-joined operands over the base value (StringAppend with ',').
  static std::string MergeValues(const std::optional<std::string>& base,
                                 const std::vector<std::string>& operands);

 private:
  struct Version {
    uint64_t seq;
    WriteKind kind;
    std::string value;
  };
  struct RangeTombstone {
    std::string begin;
    std::string end;
    uint64_t seq;
  };
  struct SecondaryTombstone {
    std::string prefix;
    std::string lo;
    std::string hi;
    uint64_t seq;
  };

  // Newest range tombstone covering `key` visible at `seq`; 0 if none.
  uint64_t CoveringTombstone(const std::string& key, uint64_t seq) const;
  // Whether a secondary delete covers an entry of `key` written at `seq`
  // for a read at `read_seq` (it sees the deletes issued at or before it).
  bool SecondaryCovered(const std::string& key, uint64_t seq,
                        uint64_t read_seq) const;

  uint64_t last_seq_ = 0;
  std::map<std::string, std::vector<Version>> versions_;  // Oldest first.
  std::vector<RangeTombstone> range_tombstones_;
  std::vector<SecondaryTombstone> secondary_tombstones_;
};

}  // namespace lodestone_test
