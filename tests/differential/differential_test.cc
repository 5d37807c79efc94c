// The differential test: a model and two DBs under one seeded op stream.
//
//   differential_test                      fixed seeds (the test command)
//   differential_test --seeds 50 --ops 20000 [--seed 100] [--sets a,b]
//                     [--families 3]
//   differential_test --replay oplog.txt --sets a,b
//   differential_test --dump-ops ops.txt --seed 3 --ops 20000 [--sets a,b]
//
// --sets defaults to "baseline,variant". A failure prints the seed and a
// minimal op log that --replay runs again.

#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>

#include "test_util/lodestone/planted_bugs.h"
#include "test_util/testharness.h"
#include "tests/differential/harness.h"
#include "tests/differential/model.h"
#include "tests/differential/option_sets.h"

namespace lodestone_test {
namespace {

struct Flags {
  int seeds = 0;  // 0: run the gtest suite instead.
  uint64_t first_seed = 1;
  int ops = 3000;
  std::string sets = "baseline,variant";
  std::string replay;
  std::string dump_ops;  // Write the generated stream of --seed here.
  int families = 1;      // Column families of --seeds and --dump-ops.
};
Flags flags;

std::vector<OptionSet> ParseSets(const std::string& names) {
  std::vector<OptionSet> sets;
  std::stringstream in(names);
  std::string name;
  while (std::getline(in, name, ',')) {
    OptionSet set;
    if (!FindOptionSet(name, &set)) {
      fprintf(stderr, "unknown option set '%s'; known:", name.c_str());
      for (const auto& n : OptionSetNames()) fprintf(stderr, " %s", n.c_str());
      fprintf(stderr, "\n");
      exit(2);
    }
    sets.push_back(set);
  }
  return sets;
}

std::string TestDir(const std::string& name) {
  return ROCKSDB_NAMESPACE::test::PerThreadDBPath(name);
}

GeneratorOptions Generator(uint64_t seed, int ops,
                           const std::vector<OptionSet>& sets,
                           int num_column_families = 1) {
  GeneratorOptions g;
  g.seed = seed;
  g.num_ops = ops;
  g.num_column_families = num_column_families;
  g.mix = MixFor(sets);
  return g;
}

// ---- The model itself, checked by hand ----

TEST(ModelTest, VersionsSnapshotsAndMerges) {
  Model m;
  m.Write(WriteKind::kPut, "a", "1");
  const uint64_t snap = m.LastSequence();
  m.Write(WriteKind::kMerge, "a", "2");
  m.Write(WriteKind::kMerge, "b", "x");
  EXPECT_EQ(m.Get("a", snap).value(), "1");
  EXPECT_EQ(m.Get("a", m.LastSequence()).value(), "1,2");
  EXPECT_EQ(m.Get("b", m.LastSequence()).value(), "x");
  m.Write(WriteKind::kDelete, "a", "");
  m.Write(WriteKind::kMerge, "a", "3");
  EXPECT_EQ(m.Get("a", m.LastSequence()).value(), "3");
  EXPECT_FALSE(m.Get("c", m.LastSequence()).has_value());
}

TEST(ModelTest, RangeDeletes) {
  Model m;
  m.Write(WriteKind::kPut, "k1", "a");
  m.Write(WriteKind::kPut, "k3", "b");
  const uint64_t before = m.LastSequence();
  m.DeleteRange("k0", "k3");  // Covers k1, not k3.
  m.Write(WriteKind::kMerge, "k1", "m");
  EXPECT_EQ(m.Get("k1", before).value(), "a");
  EXPECT_EQ(m.Get("k1", m.LastSequence()).value(), "m");
  EXPECT_EQ(m.Get("k3", m.LastSequence()).value(), "b");
  auto all = m.Scan("", "", m.LastSequence());
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].first, "k1");
}

TEST(ModelTest, SecondaryDeletes) {
  Model m;
  // Delete keys are a key's last two bytes: "k10" has "10", "k15" "15".
  m.Write(WriteKind::kPut, "0/k10", "old");
  m.Write(WriteKind::kPut, "0/k15", "a");
  m.Write(WriteKind::kMerge, "0/k15", "m");
  m.Write(WriteKind::kPut, "1/k15", "other family");
  const uint64_t before = m.LastSequence();
  m.SecondaryDelete("0/", "12", "20");
  m.Write(WriteKind::kPut, "0/k16", "after");
  EXPECT_EQ(m.Get("0/k10", m.LastSequence()).value(), "old");
  // The put and the merge operand are gone; a later operand has no base.
  EXPECT_FALSE(m.Get("0/k15", m.LastSequence()).has_value());
  m.Write(WriteKind::kMerge, "0/k15", "m2");
  EXPECT_EQ(m.Get("0/k15", m.LastSequence()).value(), "m2");
  // A read at a snapshot taken before the delete still sees what was there.
  EXPECT_EQ(m.Get("0/k15", before).value(), "a,m");
  EXPECT_EQ(m.Get("1/k15", m.LastSequence()).value(), "other family");
  EXPECT_EQ(m.Get("0/k16", m.LastSequence()).value(), "after");
}

TEST(OpsTest, FormatParseRoundTrip) {
  GeneratorOptions g;
  g.num_ops = 500;
  for (const Op& op : GenerateOps(g)) {
    Op parsed;
    ASSERT_TRUE(ParseOp(FormatOp(op), &parsed)) << FormatOp(op);
    EXPECT_EQ(FormatOp(parsed), FormatOp(op));
  }
  Op bad;
  EXPECT_FALSE(ParseOp("teleport a b c 0 0 0 0", &bad));
  EXPECT_FALSE(ParseOp("get k1", &bad));
  EXPECT_FALSE(ParseOp("get k1 ~ ~ -1 0 0 0 99", &bad));  // No such family.
}

TEST(OpsTest, ColumnFamiliesInTheTextForm) {
  Op op;
  ASSERT_TRUE(ParseOp("put k000001 ~ v1 -1 0 0 0", &op));
  EXPECT_EQ(op.cf, 0);  // A log from before column families.
  EXPECT_EQ(FormatOp(op), "put k000001 ~ v1 -1 0 0 0");
  ASSERT_TRUE(ParseOp("put k000001 ~ v1 -1 0 0 0 2", &op));
  EXPECT_EQ(op.cf, 2);
  EXPECT_EQ(FormatOp(op), "put k000001 ~ v1 -1 0 0 0 2");
}

// One column family draws nothing more: a seed's stream is the one it was
// before there were several. Several: every family gets writes, reads and
// flushes, and snapshots and reopens stay the whole DB's.
TEST(OpsTest, GeneratorSpreadsOpsOverColumnFamilies) {
  GeneratorOptions g;
  g.seed = 3;
  g.num_ops = 3000;
  for (const Op& op : GenerateOps(g)) ASSERT_EQ(op.cf, 0) << FormatOp(op);
  g.num_column_families = 3;
  std::map<int, std::map<OpKind, int>> per_family;
  for (const Op& op : GenerateOps(g)) {
    ++per_family[op.cf][op.kind];
  }
  ASSERT_EQ(per_family.size(), 3u);
  for (auto& [cf, kinds] : per_family) {
    EXPECT_GT(kinds[OpKind::kPut], 50) << cf;
    EXPECT_GT(kinds[OpKind::kGet], 50) << cf;
    EXPECT_GT(kinds[OpKind::kScan], 10) << cf;
    EXPECT_GT(kinds[OpKind::kFlush], 2) << cf;
    if (cf != 0) {
      EXPECT_EQ(kinds[OpKind::kSnapshot] + kinds[OpKind::kCrashReopen], 0);
    }
  }
}

TEST(OpsTest, GeneratorIsDeterministic) {
  GeneratorOptions g;
  g.seed = 7;
  g.num_ops = 300;
  auto a = GenerateOps(g), b = GenerateOps(g);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(FormatOp(a[i]), FormatOp(b[i]));
}

// The fixed seeds' streams reopen from crash images, with writes and
// initial puts before them that no flush has put into a table.
TEST(OpsTest, FixedSeedsReopenFromCrashImages) {
  int crash_reopens = 0, unflushed_before = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    GeneratorOptions g;
    g.seed = seed;
    g.num_ops = 2000;
    g.mix.put_initial = 4;
    bool unflushed = false;
    for (const Op& op : GenerateOps(g)) {
      if (op.kind == OpKind::kCrashReopen) {
        ++crash_reopens;
        unflushed_before += unflushed;
      }
      if (op.kind == OpKind::kFlush || op.kind == OpKind::kReopen ||
          op.kind == OpKind::kCrashReopen) {
        unflushed = false;
      } else if (op.kind == OpKind::kPut || op.kind == OpKind::kPutInitial) {
        unflushed = true;
      }
    }
  }
  EXPECT_GE(crash_reopens, 4);
  EXPECT_GE(unflushed_before, 4);
}

// ---- The harness on stock option sets ----

// Runs seeds 1..4 of `sets` and hands each passing result to `check`.
void RunFixedSeeds(const std::vector<OptionSet>& sets, const std::string& dir,
                   const std::function<void(const RunResult&)>& check = {}) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    RunResult r = RunSeed(Generator(seed, flags.ops, sets, flags.families),
                          sets, TestDir(dir));
    ASSERT_TRUE(r.ok()) << "seed " << seed;
    if (check) check(r);
  }
}

TEST(DifferentialTest, FixedSeeds) {
  RunFixedSeeds(ParseSets(flags.sets), "differential");
}

// Runs the fixed seeds of `sets` and checks that the feature under test
// acted, not just that results matched: `count` reads how often it acted in
// one run (0 expected for "baseline" when present), summed over the seeds.
void RunFixedSeedsCounting(
    const std::string& sets, const std::string& dir, const char* what,
    const std::function<uint64_t(const RunResult&, const std::string&)>& count,
    const std::string& feature_set, uint64_t at_least) {
  const std::vector<OptionSet> parsed = ParseSets(sets);
  uint64_t total = 0;
  RunFixedSeeds(parsed, dir, [&](const RunResult& r) {
    for (const OptionSet& set : parsed) {
      if (set.name == "baseline") {
        EXPECT_EQ(count(r, set.name), 0u);
      }
    }
    total += count(r, feature_set);
  });
  EXPECT_GT(total, at_least) << what;
  fprintf(stderr, "%s over 4 seeds: %llu\n", what,
          static_cast<unsigned long long>(total));
}

uint64_t RunsConverted(const RunResult& r, const std::string& set) {
  return r.runs_converted.at(set);
}
uint64_t TombstoneCompactions(const RunResult& r, const std::string& set) {
  return r.tombstone_compactions.at(set);
}

TEST(DifferentialTest, InitialPuts) {
  uint64_t pruned = 0;
  RunFixedSeeds(ParseSets("baseline,initial_put,initial_put_universal"),
                "differential_initial", [&](const RunResult& r) {
                  EXPECT_EQ(r.chains_pruned.at("baseline"), 0u);
                  pruned += r.chains_pruned.at("initial_put");
                  EXPECT_GT(r.chains_pruned.at("initial_put_universal"), 0u);
                });
  // The feature was exercised, not just carried along.
  EXPECT_GT(pruned, 20u);
  fprintf(stderr, "initial-put chains pruned over 4 seeds: %llu\n",
          static_cast<unsigned long long>(pruned));
}

TEST(DifferentialTest, TombstoneRunConversion) {
  RunFixedSeedsCounting("baseline,conversion,all_features",
                        "differential_conversion", "tombstone runs converted",
                        RunsConverted, "conversion", 20);
}

TEST(DifferentialTest, TombstoneRunConversionWithConcurrentWriter) {
  RunFixedSeedsCounting("baseline,conversion_concurrent",
                        "differential_conversion_concurrent",
                        "tombstone runs converted beside a writer",
                        RunsConverted, "conversion_concurrent", 10);
}

TEST(DifferentialTest, TombstoneAwarePicker) {
  RunFixedSeedsCounting("baseline,tombstone_picker", "differential_picker",
                        "tombstone-aware compactions", TombstoneCompactions,
                        "tombstone_picker", 4);
}

uint64_t LocationCacheHits(const RunResult& r, const std::string& set) {
  return r.location_cache_hits.at(set);
}

TEST(DifferentialTest, LocationCache) {
  RunFixedSeedsCounting("baseline,location_cache", "differential_location",
                        "location cache hits", LocationCacheHits,
                        "location_cache", 100);
}

TEST(DifferentialTest, LocationCacheWithConcurrentWriter) {
  RunFixedSeedsCounting("baseline,location_cache_concurrent",
                        "differential_location_concurrent",
                        "location cache hits beside a writer",
                        LocationCacheHits, "location_cache_concurrent", 100);
}

// Results match, and every CRaFT set's filters answered seeks: a filter
// that never said "empty" would pass on results alone.
TEST(DifferentialTest, CraftFilter) {
  const std::vector<std::string> craft_sets = {"craft", "craft_range_hash",
                                               "craft_min_level"};
  std::map<std::string, uint64_t> empty;
  RunFixedSeeds(ParseSets("baseline,craft,craft_range_hash,craft_min_level"),
                "differential_craft", [&](const RunResult& r) {
                  EXPECT_EQ(r.craft_empty_answers.at("baseline"), 0u);
                  for (const std::string& set : craft_sets) {
                    empty[set] += r.craft_empty_answers.at(set);
                  }
                });
  for (const std::string& set : craft_sets) {
    EXPECT_GT(empty[set], 20u) << set << ": the filters never answered";
    fprintf(stderr, "%s: bounded seeks answered empty over 4 seeds: %llu\n",
            set.c_str(), static_cast<unsigned long long>(empty[set]));
  }
}

// Secondary range deletes: every DB of the run has the delete key
// extractor (the baseline too, which skips covered puts entry by entry);
// the feature's sets must have skipped covered puts, or the matching
// results prove nothing.
TEST(DifferentialTest, SecondaryDeletes) {
  const std::vector<std::string> feature_sets = {
      "secondary_deletes", "secondary_deletes_tiles",
      "secondary_deletes_all_features"};
  std::map<std::string, uint64_t> skipped;
  RunFixedSeeds(ParseSets("baseline,secondary_deletes,secondary_deletes_tiles,"
                          "secondary_deletes_all_features"),
                "differential_secondary_deletes", [&](const RunResult& r) {
                  for (const std::string& set : feature_sets) {
                    skipped[set] += r.secondary_deletes_skipped.at(set);
                  }
                });
  for (const std::string& set : feature_sets) {
    EXPECT_GT(skipped[set], 100u) << set << ": nothing was ever covered";
    fprintf(stderr, "%s: covered puts skipped over 4 seeds: %llu\n",
            set.c_str(), static_cast<unsigned long long>(skipped[set]));
  }
}

TEST(DifferentialTest, CompactionOverlapByKeys) {
  RunFixedSeedsCounting(
      "baseline,overlap_by_keys", "differential_overlap_by_keys",
      "straddling files counted by keys",
      [](const RunResult& r, const std::string& set) {
        return r.overlaps_counted_by_keys.at(set);
      },
      "overlap_by_keys", 10);
}

// Three column families under every feature at once, with crash reopens:
// the WAL holds several families' writes, initial puts and tombstone runs
// that no flush has put into a table, so recovery replays them into
// families flushed at different points.
TEST(DifferentialTest, SeveralColumnFamiliesWithCrashReopens) {
  const auto sets = ParseSets("baseline,initial_put,conversion,all_features");
  uint64_t pruned = 0, converted = 0, location_hits = 0, craft_empty = 0;
  int crash_reopens = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    GeneratorOptions g = Generator(seed, flags.ops, sets, 3);
    g.mix.crash_reopen = 6;
    const std::vector<Op> ops = GenerateOps(g);
    for (const Op& op : ops) crash_reopens += op.kind == OpKind::kCrashReopen;
    RunResult r = RunOps(ops, sets, TestDir("differential_families"));
    ASSERT_TRUE(r.ok()) << "seed " << seed << ": "
                        << (r.diverged ? r.divergence.ToString() : r.error);
    EXPECT_EQ(r.chains_pruned.at("baseline"), 0u);
    pruned += r.chains_pruned.at("initial_put");
    converted += r.runs_converted.at("conversion");
    location_hits += r.location_cache_hits.at("all_features");
    craft_empty += r.craft_empty_answers.at("all_features");
  }
  // The features acted in these runs, not only the reopens.
  EXPECT_GE(crash_reopens, 6);
  EXPECT_GT(pruned, 10u);
  EXPECT_GT(converted, 10u);
  EXPECT_GT(location_hits, 50u);
  EXPECT_GT(craft_empty, 10u);
  fprintf(stderr,
          "three families, 3 seeds: %d crash reopens, %llu chains pruned, "
          "%llu runs converted, %llu location hits, %llu CRaFT empty\n",
          crash_reopens, static_cast<unsigned long long>(pruned),
          static_cast<unsigned long long>(converted),
          static_cast<unsigned long long>(location_hits),
          static_cast<unsigned long long>(craft_empty));
}

// ---- The harness catches planted bugs ----

TEST(DifferentialSelfTest, CatchesDroppedDelete) {
  const auto sets = ParseSets("baseline,planted_drop_delete");
  const auto ops = GenerateOps(Generator(11, 1500, sets));
  RunResult r = RunOps(ops, sets, TestDir("differential_self"));
  ASSERT_TRUE(r.diverged) << "a lost delete went unnoticed";
  EXPECT_EQ(r.divergence.db, "planted_drop_delete");

  // The shrunk log still fails, and replays from its text form.
  std::vector<Op> shrunk =
      MinimizeOps(ops, sets, TestDir("differential_self"), 60, 30);
  EXPECT_LT(shrunk.size(), r.divergence.op_index + 1);
  std::vector<Op> replayed;
  for (const Op& op : shrunk) {
    Op parsed;
    ASSERT_TRUE(ParseOp(FormatOp(op), &parsed));
    replayed.push_back(parsed);
  }
  EXPECT_TRUE(RunOps(replayed, sets, TestDir("differential_self")).diverged);
}

TEST(DifferentialSelfTest, CatchesWrongOptionSet) {
  const auto sets = ParseSets("baseline,planted_compaction_filter");
  RunResult r = RunOps(GenerateOps(Generator(5, 3000, sets)), sets,
                       TestDir("differential_self"));
  ASSERT_TRUE(r.diverged) << "values dropped by compaction went unnoticed";
  EXPECT_EQ(r.divergence.db, "planted_compaction_filter");
}

#ifndef NDEBUG
// Compactions that zero the sequence numbers of puts written after a live
// secondary range tombstone make the tombstone cover them: the harness
// sees puts vanish; the same seeds pass without the bug.
TEST(DifferentialSelfTest, CatchesSecondaryDeleteCoveringNewerPuts) {
  using ROCKSDB_NAMESPACE::PlantedBug;
  const auto sets = ParseSets("planted_secondary_manual_compactions");
  ROCKSDB_NAMESPACE::PlantBug(PlantedBug::kSecondaryDeleteZeroesNewerPuts);
  RunResult planted;
  uint64_t seed = 1;
  for (; seed <= 16; ++seed) {
    planted = RunOps(GenerateOps(Generator(seed, flags.ops, sets)), sets,
                     TestDir("differential_self"));
    if (!planted.ok()) break;
  }
  ROCKSDB_NAMESPACE::UnplantBug(PlantedBug::kSecondaryDeleteZeroesNewerPuts);
  ASSERT_TRUE(planted.diverged) << "puts covered by an older secondary "
                                   "range tombstone went unnoticed";
  fprintf(stderr, "zeroed newer puts caught at seed %llu\n",
          static_cast<unsigned long long>(seed));
  RunResult control = RunOps(GenerateOps(Generator(seed, flags.ops, sets)),
                             sets, TestDir("differential_self"));
  EXPECT_TRUE(control.ok())
      << (control.diverged ? control.divergence.ToString() : control.error);
}

// A location cache whose flushes clear the default family's slots whatever
// family they flush: invisible with one family (every flush is the default
// one's), a stale value once there are several.
TEST(DifferentialSelfTest, SeveralFamiliesCatchFlushInvalidatingTheWrongOne) {
  using ROCKSDB_NAMESPACE::PlantedBug;
  const auto sets = ParseSets("baseline,location_cache");
  ROCKSDB_NAMESPACE::PlantBug(
      PlantedBug::kLocationCacheFlushInvalidatesDefaultFamily);
  RunResult one, three;
  for (uint64_t seed = 1; seed <= 4 && one.ok(); ++seed) {
    one = RunOps(GenerateOps(Generator(seed, flags.ops, sets)), sets,
                 TestDir("differential_self"));
  }
  uint64_t seed = 1;
  for (; seed <= 4; ++seed) {
    three = RunOps(GenerateOps(Generator(seed, flags.ops, sets, 3)), sets,
                   TestDir("differential_self"));
    if (!three.ok()) break;
  }
  ROCKSDB_NAMESPACE::UnplantBug(
      PlantedBug::kLocationCacheFlushInvalidatesDefaultFamily);
  EXPECT_TRUE(one.ok()) << (one.diverged ? one.divergence.ToString()
                                         : one.error);
  ASSERT_TRUE(three.diverged) << "a stale slot in a non-default family went "
                                 "unnoticed";
  EXPECT_EQ(three.divergence.db, "location_cache");
  // The control: the same seed without the bug passes.
  RunResult control = RunOps(GenerateOps(Generator(seed, flags.ops, sets, 3)),
                             sets, TestDir("differential_self"));
  EXPECT_TRUE(control.ok())
      << (control.diverged ? control.divergence.ToString() : control.error);
}
#endif  // NDEBUG

int RunLong() {
  const auto sets = ParseSets(flags.sets);
  if (!flags.replay.empty()) {
    std::string error;
    std::vector<Op> ops = ReadOpLog(flags.replay, &error);
    if (!error.empty()) {
      fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
    RunResult r = RunOps(ops, sets, TestDir("differential_replay"));
    printf("replay of %zu ops: %s\n", ops.size(),
           r.ok() ? "no divergence"
                  : (r.diverged ? r.divergence.ToString() : r.error).c_str());
    return r.ok() ? 0 : 1;
  }
  int failed = 0;
  for (int i = 0; i < flags.seeds; ++i) {
    const uint64_t seed = flags.first_seed + i;
    RunResult r = RunSeed(Generator(seed, flags.ops, sets, flags.families),
                          sets, TestDir("differential_long"),
                          "differential_seed_" + std::to_string(seed) + ".log");
    printf("seed %llu: %s\n", static_cast<unsigned long long>(seed),
           r.ok() ? "ok" : "FAILED");
    fflush(stdout);
    failed += r.ok() ? 0 : 1;
  }
  printf("%d passed, %d failed\n", flags.seeds - failed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace lodestone_test

int main(int argc, char** argv) {
  using lodestone_test::flags;
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    // Accepts both "--name value" and "--name=value".
    auto value = [&](const char* name) -> const char* {
      const size_t n = strlen(name);
      if (strncmp(argv[i], name, n) != 0) return nullptr;
      if (argv[i][n] == '=') return argv[i] + n + 1;
      if (argv[i][n] == '\0' && i + 1 < argc) return argv[++i];
      return nullptr;
    };
    if (const char* v = value("--seeds")) {
      flags.seeds = atoi(v);
    } else if (const char* v2 = value("--seed")) {
      flags.first_seed = strtoull(v2, nullptr, 10);
    } else if (const char* v3 = value("--ops")) {
      flags.ops = atoi(v3);
    } else if (const char* v4 = value("--sets")) {
      flags.sets = v4;
    } else if (const char* v5 = value("--replay")) {
      flags.replay = v5;
    } else if (const char* v6 = value("--dump-ops")) {
      flags.dump_ops = v6;
    } else if (const char* v7 = value("--families")) {
      flags.families = atoi(v7);
      if (flags.families < 1 ||
          flags.families > lodestone_test::kMaxColumnFamilies) {
        fprintf(stderr, "--families: 1 to %d\n",
                lodestone_test::kMaxColumnFamilies);
        return 2;
      }
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (!flags.dump_ops.empty()) {
    using namespace lodestone_test;
    FILE* f = fopen(flags.dump_ops.c_str(), "w");
    if (f == nullptr) return 2;
    for (const Op& op :
         GenerateOps(Generator(flags.first_seed, flags.ops,
                               ParseSets(flags.sets), flags.families))) {
      fprintf(f, "%s\n", FormatOp(op).c_str());
    }
    fclose(f);
    return 0;
  }
  if (flags.seeds > 0 || !flags.replay.empty()) {
    return lodestone_test::RunLong();
  }
  int rest_argc = static_cast<int>(rest.size());
  ::testing::InitGoogleTest(&rest_argc, rest.data());
  return RUN_ALL_TESTS();
}
