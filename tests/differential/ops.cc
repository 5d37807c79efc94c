#include "tests/differential/ops.h"

#include <array>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>

namespace lodestone_test {

namespace {

struct KindName {
  OpKind kind;
  const char* name;
};

constexpr std::array<KindName, 18> kKindNames = {{
    {OpKind::kPut, "put"},
    {OpKind::kPutInitial, "put_initial"},
    {OpKind::kMerge, "merge"},
    {OpKind::kDelete, "delete"},
    {OpKind::kSingleDelete, "single_delete"},
    {OpKind::kDeleteRange, "delete_range"},
    {OpKind::kGet, "get"},
    {OpKind::kMultiGet, "multi_get"},
    {OpKind::kScan, "scan"},
    {OpKind::kSnapshot, "snapshot"},
    {OpKind::kReleaseSnapshot, "release"},
    {OpKind::kFlush, "flush"},
    {OpKind::kCompactRange, "compact_range"},
    {OpKind::kCompactFile, "compact_file"},
    {OpKind::kIngest, "ingest"},
    {OpKind::kSecondaryDelete, "secondary_delete"},
    {OpKind::kReopen, "reopen"},
    {OpKind::kCrashReopen, "crash_reopen"},
}};

// Fields are space-separated; "~" stands for an empty string. Keys and
// values never contain spaces or '~'; MultiGet key lists use ','.
std::string Field(const std::string& s) { return s.empty() ? "~" : s; }
std::string Unfield(const std::string& s) { return s == "~" ? "" : s; }

std::string KeyName(char prefix, int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "%c%06d", prefix, i);
  return buf;
}

class Generator {
 public:
  explicit Generator(const GeneratorOptions& options)
      : options_(options), rng_(options.seed) {}

  std::vector<Op> Run() {
    std::vector<Op> ops;
    ops.reserve(options_.num_ops);
    while (static_cast<int>(ops.size()) < options_.num_ops) {
      Op op;
      if (Next(&op)) {
        ops.push_back(op);
      }
    }
    return ops;
  }

 private:
  uint32_t Uniform(uint32_t n) {
    return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng_);
  }

  // Mostly a hot tenth of the key space, so versions pile up on few keys.
  std::string OrdinaryKey() {
    const int n = options_.num_keys;
    const int i = Uniform(4) == 0 ? static_cast<int>(Uniform(n))
                                  : static_cast<int>(Uniform(n / 10 + 1));
    return KeyName('k', i);
  }
  std::string SingleKey() {
    return KeyName('s', Uniform(options_.num_single_keys));
  }
  std::string AnyKey() { return Uniform(5) == 0 ? SingleKey() : OrdinaryKey(); }

  std::string Value() {
    static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    const uint32_t size =
        1 + Uniform(Uniform(8) == 0 ? options_.max_value_size : 24);
    std::string v;
    v.reserve(size + 8);
    v += std::to_string(++value_counter_) + "_";
    for (uint32_t i = 0; i < size; ++i) {
      v += kChars[Uniform(sizeof(kChars) - 1)];
    }
    return v;
  }

  bool Visible(int cf, const std::string& key) {
    return model_.Get(ModelKey(cf, key), model_.LastSequence()).has_value();
  }

  // Snapshots and reopens are the whole DB's; every other op goes to one
  // column family.
  static bool TargetsColumnFamily(OpKind kind) {
    return kind != OpKind::kSnapshot && kind != OpKind::kReleaseSnapshot &&
           kind != OpKind::kReopen && kind != OpKind::kCrashReopen;
  }

  int RandomSnapshot() {
    std::vector<int> live;
    for (int i = 0; i < kSnapshotSlots; ++i) {
      if (snapshot_live_[i]) {
        live.push_back(i);
      }
    }
    if (live.empty() || Uniform(2) == 0) {
      return -1;
    }
    return live[Uniform(static_cast<uint32_t>(live.size()))];
  }

  bool Next(Op* op) {
    const OpMix& m = options_.mix;
    const int reopen = static_cast<int>(Uniform(1000));
    if (reopen < m.reopen + m.crash_reopen) {
      op->kind = reopen < m.reopen ? OpKind::kReopen : OpKind::kCrashReopen;
      snapshot_live_.fill(false);
      return true;
    }
    // In OpKind's order.
    const std::array<int, 16> weights = {
        m.put,           m.put_initial,  m.merge,   m.del,
        m.single_delete, m.delete_range, m.get,     m.multi_get,
        m.scan,          m.snapshot,     m.release, m.flush,
        m.compact_range, m.compact_file, m.ingest,  m.secondary_delete};
    int total = 0;
    for (int w : weights) total += w;
    int r = static_cast<int>(Uniform(total));
    size_t choice = 0;
    while (r >= weights[choice]) {
      r -= weights[choice++];
    }
    op->kind = static_cast<OpKind>(choice);
    if (options_.num_column_families > 1 && TargetsColumnFamily(op->kind)) {
      op->cf = static_cast<int>(Uniform(options_.num_column_families));
    }
    const int cf = op->cf;
    switch (op->kind) {
      case OpKind::kPut: {
        op->key = AnyKey();
        if (op->key[0] == 's' && Visible(cf, op->key)) {
          return false;  // A single-delete key takes one Put at a time.
        }
        op->value = Value();
        model_.Write(WriteKind::kPut, ModelKey(cf, op->key), op->value);
        return true;
      }
      case OpKind::kPutInitial: {
        op->key = OrdinaryKey();
        if (Visible(cf, op->key)) {
          return false;  // The contract: no visible value.
        }
        op->value = Value();
        model_.Write(WriteKind::kPutInitial, ModelKey(cf, op->key), op->value);
        return true;
      }
      case OpKind::kMerge:
        op->key = OrdinaryKey();
        op->value = "m" + std::to_string(++value_counter_);
        model_.Write(WriteKind::kMerge, ModelKey(cf, op->key), op->value);
        return true;
      case OpKind::kDelete:
        op->key = OrdinaryKey();
        model_.Write(WriteKind::kDelete, ModelKey(cf, op->key), "");
        return true;
      case OpKind::kSingleDelete:
        op->key = SingleKey();
        if (!Visible(cf, op->key)) {
          return false;
        }
        model_.Write(WriteKind::kSingleDelete, ModelKey(cf, op->key), "");
        return true;
      case OpKind::kDeleteRange: {
        // Ordinary keys only: single-delete keys stay out of range deletes.
        const int begin = static_cast<int>(Uniform(options_.num_keys));
        op->key = KeyName('k', begin);
        op->key2 = KeyName('k', begin + 1 + static_cast<int>(Uniform(20)));
        model_.DeleteRange(ModelKey(cf, op->key), ModelKey(cf, op->key2));
        return true;
      }
      case OpKind::kGet:
        op->key = AnyKey();
        op->snapshot = RandomSnapshot();
        return true;
      case OpKind::kMultiGet: {
        op->key = AnyKey();
        const int extra = 1 + static_cast<int>(Uniform(8));
        for (int i = 0; i < extra; ++i) {
          op->value += (i ? "," : "") + AnyKey();
        }
        op->snapshot = RandomSnapshot();
        return true;
      }
      case OpKind::kScan: {
        op->key = Uniform(10) == 0 ? "" : AnyKey();
        op->reverse = Uniform(3) == 0;
        if (Uniform(2) == 0) {
          // A bound: upper for forward scans, lower for reverse ones.
          const std::string other = AnyKey();
          op->key2 = other;
        }
        op->count = 1 + static_cast<int>(Uniform(Uniform(4) == 0 ? 200 : 12));
        op->snapshot = RandomSnapshot();
        return true;
      }
      case OpKind::kSnapshot:
        op->snapshot = static_cast<int>(Uniform(kSnapshotSlots));
        snapshot_live_[op->snapshot] = true;
        return true;
      case OpKind::kReleaseSnapshot:
        op->snapshot = static_cast<int>(Uniform(kSnapshotSlots));
        if (!snapshot_live_[op->snapshot]) {
          return false;
        }
        snapshot_live_[op->snapshot] = false;
        return true;
      case OpKind::kFlush:
        return true;
      case OpKind::kCompactRange:
        if (Uniform(3) != 0) {
          op->key = OrdinaryKey();
          op->key2 = OrdinaryKey();
          if (op->key2 < op->key) std::swap(op->key, op->key2);
        }
        return true;
      case OpKind::kCompactFile:
        op->pick = static_cast<uint32_t>(rng_());
        return true;
      case OpKind::kIngest: {
        // Ordinary keys only, like range deletes.
        std::set<std::string> keys;
        const int n = 1 + static_cast<int>(Uniform(6));
        for (int i = 0; i < n; ++i) {
          keys.insert(OrdinaryKey());
        }
        for (const std::string& key : keys) {
          const bool del = Uniform(4) == 0;
          const std::string value = del ? "" : Value();
          op->value += (op->value.empty() ? "" : ",") + key + ":" + value;
          model_.Write(del ? WriteKind::kDelete : WriteKind::kPut,
                       ModelKey(cf, key), value);
        }
        return true;
      }
      case OpKind::kSecondaryDelete: {
        // A run of one to ten delete keys ("00".."99", "9:" past them).
        auto delete_key = [](int n) {
          if (n >= 100) {
            return std::string("9:");
          }
          return std::string{static_cast<char>('0' + n / 10),
                             static_cast<char>('0' + n % 10)};
        };
        const int lo = static_cast<int>(Uniform(100));
        op->key = delete_key(lo);
        op->key2 =
            delete_key(std::min(100, lo + 1 + static_cast<int>(Uniform(10))));
        model_.SecondaryDelete(ModelKey(cf, ""), op->key, op->key2);
        return true;
      }
      case OpKind::kReopen:
      case OpKind::kCrashReopen:
        return false;  // Drawn above.
    }
    return false;
  }

  const GeneratorOptions options_;
  std::mt19937_64 rng_;
  Model model_;
  std::array<bool, kSnapshotSlots> snapshot_live_{};
  uint64_t value_counter_ = 0;
};

}  // namespace

std::string ModelKey(int cf, const std::string& key) {
  return std::to_string(cf) + "/" + key;
}

std::string ModelKeysEnd(int cf) {
  return std::to_string(cf) + "0";  // '0' follows '/'.
}

std::vector<std::string> MultiGetKeys(const Op& op) {
  std::vector<std::string> keys = {op.key};
  std::stringstream in(op.value);
  std::string key;
  while (std::getline(in, key, ',')) {
    keys.push_back(key);
  }
  return keys;
}

std::vector<std::pair<std::string, std::string>> IngestEntries(const Op& op) {
  std::vector<std::pair<std::string, std::string>> entries;
  std::stringstream in(op.value);
  std::string entry;
  while (std::getline(in, entry, ',')) {
    const size_t colon = entry.find(':');
    if (colon != std::string::npos) {
      entries.emplace_back(entry.substr(0, colon), entry.substr(colon + 1));
    }
  }
  return entries;
}

std::string FormatOp(const Op& op) {
  const char* name = "?";
  for (const KindName& k : kKindNames) {
    if (k.kind == op.kind) name = k.name;
  }
  std::ostringstream out;
  out << name << ' ' << Field(op.key) << ' ' << Field(op.key2) << ' '
      << Field(op.value) << ' ' << op.snapshot << ' ' << op.count << ' '
      << (op.reverse ? 1 : 0) << ' ' << op.pick;
  if (op.cf != 0) out << ' ' << op.cf;
  return out.str();
}

bool ParseOp(const std::string& line, Op* op) {
  std::istringstream in(line);
  std::string name, key, key2, value;
  int reverse = 0;
  if (!(in >> name >> key >> key2 >> value >> op->snapshot >> op->count >>
        reverse >> op->pick)) {
    return false;
  }
  op->cf = 0;
  if (!(in >> op->cf)) {
    op->cf = 0;  // A log from before column families: the default one.
  }
  bool known = false;
  for (const KindName& k : kKindNames) {
    if (name == k.name) {
      op->kind = k.kind;
      known = true;
    }
  }
  op->key = Unfield(key);
  op->key2 = Unfield(key2);
  op->value = Unfield(value);
  op->reverse = reverse != 0;
  return known && op->snapshot >= -1 && op->snapshot < kSnapshotSlots &&
         op->cf >= 0 && op->cf < kMaxColumnFamilies;
}

std::vector<Op> GenerateOps(const GeneratorOptions& options) {
  return Generator(options).Run();
}

}  // namespace lodestone_test
