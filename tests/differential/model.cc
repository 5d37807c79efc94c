#include "tests/differential/model.h"

namespace lodestone_test {

uint64_t Model::Write(WriteKind kind, const std::string& key,
                      const std::string& value) {
  versions_[key].push_back({++last_seq_, kind, value});
  return last_seq_;
}

uint64_t Model::DeleteRange(const std::string& begin, const std::string& end) {
  range_tombstones_.push_back({begin, end, ++last_seq_});
  return last_seq_;
}

uint64_t Model::SecondaryDelete(const std::string& prefix,
                                const std::string& lo, const std::string& hi) {
  secondary_tombstones_.push_back({prefix, lo, hi, ++last_seq_});
  return last_seq_;
}

bool Model::SecondaryCovered(const std::string& key, uint64_t seq,
                             uint64_t read_seq) const {
  const size_t n = kSecondaryDeleteKeyLength;
  if (key.size() < n) {
    return false;
  }
  const std::string d = key.substr(key.size() - n);
  for (const SecondaryTombstone& t : secondary_tombstones_) {
    if (seq < t.seq && t.seq <= read_seq &&
        key.compare(0, t.prefix.size(), t.prefix) == 0 && t.lo <= d &&
        d < t.hi) {
      return true;
    }
  }
  return false;
}

uint64_t Model::CoveringTombstone(const std::string& key, uint64_t seq) const {
  uint64_t newest = 0;
  for (const RangeTombstone& t : range_tombstones_) {
    if (t.seq <= seq && t.seq > newest && t.begin <= key && key < t.end) {
      newest = t.seq;
    }
  }
  return newest;
}

std::string Model::MergeValues(const std::optional<std::string>& base,
                               const std::vector<std::string>& operands) {
  std::optional<std::string> result = base;
  for (const std::string& operand : operands) {
    result = result ? *result + "," + operand : operand;
  }
  return result.value_or("");
}

std::optional<std::string> Model::Get(const std::string& key,
                                      uint64_t seq) const {
  const uint64_t tombstone = CoveringTombstone(key, seq);
  std::vector<std::string> operands;  // Newest first while collecting.
  std::optional<std::string> base;
  auto it = versions_.find(key);
  if (it != versions_.end()) {
    for (auto v = it->second.rbegin(); v != it->second.rend(); ++v) {
      if (v->seq > seq) {
        continue;
      }
      if (v->seq < tombstone) {
        break;  // Everything from here down is range-deleted.
      }
      if (v->kind != WriteKind::kDelete &&
          v->kind != WriteKind::kSingleDelete &&
          SecondaryCovered(key, v->seq, seq)) {
        continue;  // As if never written: older versions decide.
      }
      if (v->kind == WriteKind::kMerge) {
        operands.push_back(v->value);
        continue;
      }
      if (v->kind == WriteKind::kPut || v->kind == WriteKind::kPutInitial) {
        base = v->value;
      }
      break;
    }
  }
  if (operands.empty()) {
    return base;
  }
  return MergeValues(base, {operands.rbegin(), operands.rend()});
}

std::vector<Model::KV> Model::Scan(const std::string& lower,
                                   const std::string& upper,
                                   uint64_t seq) const {
  std::vector<KV> result;
  auto it = lower.empty() ? versions_.begin() : versions_.lower_bound(lower);
  for (; it != versions_.end(); ++it) {
    if (!upper.empty() && it->first >= upper) {
      break;
    }
    std::optional<std::string> value = Get(it->first, seq);
    if (value) {
      result.emplace_back(it->first, *value);
    }
  }
  return result;
}

}  // namespace lodestone_test
