#include "tests/differential/harness.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "rocksdb/env.h"
#include "tests/differential/db_under_test.h"
#include "tests/differential/model.h"

namespace lodestone_test {

using ROCKSDB_NAMESPACE::Status;

namespace {

// Model::Scan over one column family's keys, bounds and results in the
// op's keys (not the model's).
std::vector<Model::KV> ScanColumnFamily(const Model& model, int cf,
                                        const std::string& lower,
                                        const std::string& upper,
                                        uint64_t seq) {
  const std::string prefix = ModelKey(cf, "");
  std::vector<Model::KV> kvs = model.Scan(
      prefix + lower, upper.empty() ? ModelKeysEnd(cf) : prefix + upper, seq);
  for (Model::KV& kv : kvs) kv.first.erase(0, prefix.size());
  return kvs;
}

// The model's answer to a read, in the same text form as DbUnderTest::Read.
std::string ModelRead(const Model& model, const Op& op, uint64_t seq) {
  auto get = [&](const std::string& key) {
    std::optional<std::string> v = model.Get(ModelKey(op.cf, key), seq);
    return v ? "=" + *v : std::string("<none>");
  };
  switch (op.kind) {
    case OpKind::kGet:
      return get(op.key);
    case OpKind::kMultiGet: {
      std::string out;
      for (const std::string& key : MultiGetKeys(op))
        out += key + get(key) + " ";
      return out;
    }
    case OpKind::kScan: {
      std::vector<Model::KV> kvs;
      if (!op.reverse) {
        kvs = ScanColumnFamily(model, op.cf, op.key, op.key2, seq);
        if (kvs.size() > static_cast<size_t>(op.count)) kvs.resize(op.count);
      } else {
        // SeekForPrev(key): entries <= key; lower bound key2 inclusive.
        std::vector<Model::KV> all =
            ScanColumnFamily(model, op.cf, op.key2, "", seq);
        for (auto it = all.rbegin(); it != all.rend(); ++it) {
          if (!op.key.empty() && it->first > op.key) continue;
          kvs.push_back(*it);
          if (kvs.size() == static_cast<size_t>(op.count)) break;
        }
      }
      std::string out;
      for (const auto& kv : kvs) out += kv.first + "=" + kv.second + " ";
      return out;
    }
    default:
      return "";
  }
}

bool IsRead(OpKind kind) {
  return kind == OpKind::kGet || kind == OpKind::kMultiGet ||
         kind == OpKind::kScan;
}

void ApplyToModel(Model* model, const Op& op,
                  std::array<int64_t, kSnapshotSlots>* snapshots) {
  const std::string key = ModelKey(op.cf, op.key);
  switch (op.kind) {
    case OpKind::kPut:
      model->Write(WriteKind::kPut, key, op.value);
      break;
    case OpKind::kPutInitial:
      model->Write(WriteKind::kPutInitial, key, op.value);
      break;
    case OpKind::kMerge:
      model->Write(WriteKind::kMerge, key, op.value);
      break;
    case OpKind::kDelete:
      model->Write(WriteKind::kDelete, key, "");
      break;
    case OpKind::kSingleDelete:
      model->Write(WriteKind::kSingleDelete, key, "");
      break;
    case OpKind::kDeleteRange:
      model->DeleteRange(key, ModelKey(op.cf, op.key2));
      break;
    case OpKind::kIngest:
      for (const auto& [entry_key, value] : IngestEntries(op)) {
        model->Write(value.empty() ? WriteKind::kDelete : WriteKind::kPut,
                     ModelKey(op.cf, entry_key), value);
      }
      break;
    case OpKind::kSecondaryDelete:
      model->SecondaryDelete(ModelKey(op.cf, ""), op.key, op.key2);
      break;
    case OpKind::kSnapshot:
      (*snapshots)[op.snapshot] = static_cast<int64_t>(model->LastSequence());
      break;
    case OpKind::kReleaseSnapshot:
      (*snapshots)[op.snapshot] = -1;
      break;
    case OpKind::kReopen:
    case OpKind::kCrashReopen:  // Every write was acknowledged into the WAL.
      snapshots->fill(-1);
      break;
    default:
      break;
  }
}

std::string Clip(const std::string& s) {
  return s.size() <= 400 ? s : s.substr(0, 400) + "...";
}

}  // namespace

std::string Divergence::ToString() const {
  std::ostringstream out;
  out << "op #" << op_index << " on DB '" << db
      << "'\n  expected: " << Clip(expected)
      << "\n  actual:   " << Clip(actual);
  return out.str();
}

RunResult RunOps(const std::vector<Op>& ops,
                 const std::vector<OptionSet>& option_sets,
                 const std::string& dir) {
  RunResult result;
  Status dir_status =
      ROCKSDB_NAMESPACE::Env::Default()->CreateDirIfMissing(dir);
  if (!dir_status.ok()) {
    result.error = "cannot create " + dir + ": " + dir_status.ToString();
    return result;
  }
  int num_column_families = 1;
  bool secondary_deletes = false;
  for (const Op& op : ops) {
    num_column_families = std::max(num_column_families, op.cf + 1);
    secondary_deletes |= op.kind == OpKind::kSecondaryDelete;
  }
  for (const OptionSet& set : option_sets) {
    // Its options may need the extractor (delete tiles), ops or none.
    secondary_deletes |= set.secondary_deletes;
  }
  std::vector<std::unique_ptr<DbUnderTest>> dbs;
  for (size_t i = 0; i < option_sets.size(); ++i) {
    dbs.emplace_back(new DbUnderTest(option_sets[i],
                                     dir + "/db" + std::to_string(i),
                                     num_column_families, secondary_deletes));
    Status s = dbs.back()->Open(/*destroy=*/true);
    if (!s.ok()) {
      result.error = option_sets[i].name + ": open: " + s.ToString();
      return result;
    }
    dbs.back()->StartWriter(600, 0x5eed + i);
  }
  Model model;
  std::array<int64_t, kSnapshotSlots> snapshots;
  snapshots.fill(-1);
  for (size_t i = 0; i < ops.size() && result.ok(); ++i) {
    const Op& op = ops[i];
    for (auto& db : dbs) db->OpApplied();
    if (IsRead(op.kind)) {
      Op read = op;
      uint64_t seq = model.LastSequence();
      if (read.snapshot >= 0 && snapshots[read.snapshot] >= 0) {
        seq = static_cast<uint64_t>(snapshots[read.snapshot]);
      } else {
        read.snapshot = -1;  // The slot is empty (e.g. in a shrunk log).
      }
      const std::string expected = ModelRead(model, read, seq);
      for (auto& db : dbs) {
        const std::string actual = db->Read(read);
        if (actual != expected) {
          result.diverged = true;
          result.divergence = {i, db->name(), expected, actual};
          break;
        }
      }
      continue;
    }
    ApplyToModel(&model, op, &snapshots);
    for (auto& db : dbs) {
      Status s = db->Apply(op);
      if (!s.ok()) {
        result.error = db->name() + ": op #" + std::to_string(i) + " (" +
                       FormatOp(op) + "): " + s.ToString();
        break;
      }
    }
  }
  for (auto& db : dbs) {
    const std::string lost = db->StopWriter();
    if (result.ok() && !lost.empty()) result.error = db->name() + ": " + lost;
    result.chains_pruned[db->name()] = db->ChainsPruned();
    result.runs_converted[db->name()] = db->RunsConverted();
    result.tombstone_compactions[db->name()] = db->TombstoneCompactions();
    result.location_cache_hits[db->name()] = db->LocationCacheHits();
    result.craft_empty_answers[db->name()] = db->CraftEmptyAnswers();
    result.overlaps_counted_by_keys[db->name()] = db->OverlapsCountedByKeys();
    result.secondary_deletes_skipped[db->name()] =
        db->SecondaryDeleteEntriesSkipped();
    db->Destroy();
  }
  return result;
}

std::vector<Op> MinimizeOps(std::vector<Op> ops,
                            const std::vector<OptionSet>& option_sets,
                            const std::string& dir, int max_replays,
                            int max_seconds) {
  RunResult first = RunOps(ops, option_sets, dir);
  if (first.ok()) return ops;
  if (first.diverged) ops.resize(first.divergence.op_index + 1);
  // A candidate must fail the same way: removing ops can break a contract
  // (an initial put over a visible key) and fail a write instead.
  auto same_failure = [&first](const RunResult& r) {
    return first.diverged ? r.diverged : !r.error.empty();
  };
  int replays = 1;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(max_seconds);
  auto budget_left = [&] {
    return replays < max_replays && std::chrono::steady_clock::now() < deadline;
  };
  for (size_t chunk = ops.size() / 2; chunk >= 1 && budget_left(); chunk /= 2) {
    // Never drop the last op: it is the read (or write) that fails.
    for (size_t begin = 0; begin + chunk < ops.size() && budget_left();) {
      std::vector<Op> candidate(ops.begin(), ops.begin() + begin);
      candidate.insert(candidate.end(), ops.begin() + begin + chunk, ops.end());
      ++replays;
      if (same_failure(RunOps(candidate, option_sets, dir))) {
        ops.swap(candidate);
      } else {
        begin += chunk;
      }
    }
  }
  return ops;
}

RunResult RunSeed(const GeneratorOptions& generator,
                  const std::vector<OptionSet>& option_sets,
                  const std::string& dir, const std::string& log_path) {
  const std::vector<Op> ops = GenerateOps(generator);
  RunResult result = RunOps(ops, option_sets, dir);
  if (result.ok()) return result;

  std::string sets;
  for (const OptionSet& set : option_sets)
    sets += (sets.empty() ? "" : ",") + set.name;
  const std::vector<Op> shrunk = MinimizeOps(ops, option_sets, dir);
  std::ostringstream report;
  // Every line of the report but the ops is a comment, so that the file
  // replays as it is.
  std::string why = result.diverged
                        ? "diverged at " + result.divergence.ToString()
                        : "failed: " + result.error;
  for (size_t nl = why.find('\n'); nl != std::string::npos;
       nl = why.find('\n', nl + 1)) {
    why.insert(nl + 1, "# ");
  }
  report << "# differential: seed " << generator.seed << ", " << ops.size()
         << " ops, option sets " << sets << "\n# " << why
         << "\n# minimal op log (" << shrunk.size()
         << " ops); replay with: differential_test --replay <this file> --sets "
         << sets << "\n";
  for (const Op& op : shrunk) report << FormatOp(op) << "\n";
  fprintf(stderr, "%s", report.str().c_str());
  if (!log_path.empty()) {
    std::ofstream(log_path) << report.str();
    fprintf(stderr, "# op log written to %s\n", log_path.c_str());
  }
  return result;
}

std::vector<Op> ReadOpLog(const std::string& path, std::string* error) {
  std::vector<Op> ops;
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read " + path;
    return ops;
  }
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    Op op;
    if (!ParseOp(line, &op)) {
      *error = path + ":" + std::to_string(n) + ": malformed op: " + line;
      return {};
    }
    ops.push_back(op);
  }
  return ops;
}

}  // namespace lodestone_test
