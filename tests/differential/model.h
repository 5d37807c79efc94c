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

class Model {
 public:
  using KV = std::pair<std::string, std::string>;

  // Each write gets the next sequence number; returns it.
  uint64_t Write(WriteKind kind, const std::string& key,
                 const std::string& value);
  uint64_t DeleteRange(const std::string& begin, const std::string& end);

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

  // Newest range tombstone covering `key` visible at `seq`; 0 if none.
  uint64_t CoveringTombstone(const std::string& key, uint64_t seq) const;

  uint64_t last_seq_ = 0;
  std::map<std::string, std::vector<Version>> versions_;  // Oldest first.
  std::vector<RangeTombstone> range_tombstones_;
};

}  // namespace lodestone_test
