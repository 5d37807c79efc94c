# The test configuration: Lodestone's tests (label `lodestone`) and the
# upstream tests of every area our patches touch (label `upstream`; see
# cmake/upstream_tests.cmake for the list and the reasons). Build them all
# with `ninja lodestone_check_deps`; run with ctest.

add_custom_target(lodestone_check_deps)
# Our own test binaries alone (label `gtest`), for the sanitizer
# configurations (tools/build.sh asan|tsan), which skip upstream's tests.
add_custom_target(lodestone_own_tests)

# Upstream's test utilities (db_test_util and friends), as upstream builds
# them with WITH_TESTS=ON.
add_library(lodestone_testutil STATIC
  ${LODESTONE_UPSTREAM_DIR}/db/db_test_util.cc
  ${LODESTONE_UPSTREAM_DIR}/db/db_with_timestamp_test_util.cc
  ${LODESTONE_UPSTREAM_DIR}/monitoring/thread_status_updater_debug.cc
  ${LODESTONE_UPSTREAM_DIR}/table/mock_table.cc
  ${LODESTONE_UPSTREAM_DIR}/utilities/agg_merge/test_agg_merge.cc
  ${LODESTONE_UPSTREAM_DIR}/utilities/cassandra/test_utils.cc)
target_link_libraries(lodestone_testutil PUBLIC rocksdb testharness gtest)

# lodestone_gtest(<name> SOURCES <files> [LABELS <labels>] [ARGS <args>]
#                 [TIMEOUT <seconds>])
function(lodestone_gtest name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LABELS;ARGS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} lodestone_testutil)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  add_test(NAME lodestone.${name} COMMAND ${name} ${T_ARGS})
  set_tests_properties(lodestone.${name} PROPERTIES
    LABELS "lodestone;gtest;${T_LABELS}" TIMEOUT ${T_TIMEOUT})
  add_dependencies(lodestone_check_deps ${name})
  add_dependencies(lodestone_own_tests ${name})
endfunction()

include(${LODESTONE_ROOT}/cmake/upstream_tests.cmake)

lodestone_gtest(location_cache_test
  SOURCES ${LODESTONE_ROOT}/cache/location/location_cache_test.cc)

# cache/location: the location cache under Get/MultiGet (hits, invalidation,
# collisions, snapshots, ingestion, shared caches, concurrent readers).
lodestone_gtest(location_cache_db_test
  SOURCES ${LODESTONE_ROOT}/cache/location/location_cache_db_test.cc)
lodestone_gtest(lodestone_options_test
  SOURCES ${LODESTONE_ROOT}/options/lodestone/options_test.cc)

# The C API's Lodestone calls (rocksdb/lodestone_c.h), tested from C as
# upstream tests c.h (db/c_test.c).
add_executable(lodestone_c_api_test
  ${LODESTONE_ROOT}/utilities/lodestone/c_api_test.c)
target_link_libraries(lodestone_c_api_test rocksdb)
add_test(NAME lodestone.c_api_test COMMAND lodestone_c_api_test)
set_tests_properties(lodestone.c_api_test PROPERTIES
  LABELS "lodestone;gtest" TIMEOUT 300)
add_dependencies(lodestone_check_deps lodestone_c_api_test)
add_dependencies(lodestone_own_tests lodestone_c_api_test)

# The differential harness (tests/differential/): model, ops, option sets.
add_library(lodestone_differential STATIC
  ${LODESTONE_ROOT}/tests/differential/model.cc
  ${LODESTONE_ROOT}/tests/differential/ops.cc
  ${LODESTONE_ROOT}/tests/differential/db_under_test.cc
  ${LODESTONE_ROOT}/tests/differential/harness.cc
  ${LODESTONE_ROOT}/tests/differential/option_sets.cc)
target_link_libraries(lodestone_differential PUBLIC lodestone_testutil)
lodestone_gtest(differential_test
  SOURCES ${LODESTONE_ROOT}/tests/differential/differential_test.cc
  TIMEOUT 1200)
target_link_libraries(differential_test lodestone_differential)

# An outside consumer: install, then build against the installed package.
add_test(NAME lodestone.consumer
  COMMAND bash ${LODESTONE_ROOT}/tests/consumer/run_consumer_test.sh
          ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/consumer-test)
set_tests_properties(lodestone.consumer PROPERTIES LABELS lodestone TIMEOUT 600)

# The bench tool's parsers and report code, on saved db_bench output.
add_test(NAME lodestone.bench_tool
  COMMAND python3 -m pytest -q ${LODESTONE_ROOT}/tools/bench/tests)
set_tests_properties(lodestone.bench_tool PROPERTIES LABELS lodestone TIMEOUT 300)
# db_bench's Lodestone flags reach the DB it opens (tools/workloads/).
add_test(NAME lodestone.workload_flags
  COMMAND python3 -m pytest -q ${LODESTONE_ROOT}/tools/workloads/tests
          --db_bench=$<TARGET_FILE:db_bench>)
set_tests_properties(lodestone.workload_flags PROPERTIES LABELS lodestone TIMEOUT 300)
# The upstream lines the patch series changes, held to patches/BUDGET.
add_test(NAME lodestone.patch_budget
  COMMAND python3 ${LODESTONE_ROOT}/tools/patch_budget.py)
set_tests_properties(lodestone.patch_budget PROPERTIES LABELS lodestone TIMEOUT 60)
# Format and lint: our C/C++ as clang-format formats it, our Python clean
# under pyflakes.
add_test(NAME lodestone.lint COMMAND python3 ${LODESTONE_ROOT}/tools/lint.py)
set_tests_properties(lodestone.lint PROPERTIES LABELS lodestone TIMEOUT 300)
# Our folders include one another without a cycle; the self-test plants one.
add_test(NAME lodestone.layering COMMAND python3 ${LODESTONE_ROOT}/tools/layering.py)
add_test(NAME lodestone.layering_self_test
  COMMAND python3 ${LODESTONE_ROOT}/tools/layering.py --self-test)
set_tests_properties(lodestone.layering lodestone.layering_self_test
  PROPERTIES LABELS lodestone TIMEOUT 60)
# tools/stress/trace_prefix.py, on a hand-built trace.
add_test(NAME lodestone.stress_tools
  COMMAND python3 -m pytest -q ${LODESTONE_ROOT}/tools/stress/tests)
set_tests_properties(lodestone.stress_tools PROPERTIES LABELS lodestone TIMEOUT 120)

# db/initial_put: early tombstone pruning (initial puts).
lodestone_gtest(initial_put_test
  SOURCES ${LODESTONE_ROOT}/db/initial_put/initial_put_test.cc)
# Golden bytes of the initial put's WAL records and internal keys.
lodestone_gtest(initial_put_format_test
  SOURCES ${LODESTONE_ROOT}/db/initial_put/initial_put_format_test.cc)
# Chain pruning and flag upkeep on a given input, without a DB.
lodestone_gtest(initial_chains_test
  SOURCES ${LODESTONE_ROOT}/db/initial_put/initial_chains_test.cc)

# table/craft: the trie (property tests, SuRF regressions, decoder fuzzing).
lodestone_gtest(louds_sparse_test
  SOURCES ${LODESTONE_ROOT}/table/craft/louds_sparse_test.cc
          ${LODESTONE_ROOT}/table/craft/order_preserving_code_test.cc)
lodestone_gtest(craft_filter_test
  SOURCES ${LODESTONE_ROOT}/table/craft/craft_filter_test.cc)
# Every bit flip of a filter read without checksums: refused, harmless, or
# (rarely, and counted) hiding keys.
lodestone_gtest(craft_damage_test
  SOURCES ${LODESTONE_ROOT}/table/craft/craft_damage_test.cc
          ${LODESTONE_ROOT}/table/craft/craft_test_filters.cc)
# The range hash of format 4 partitions (no false negatives, correlated
# ranges, damaged sections).
lodestone_gtest(range_hash_test
  SOURCES ${LODESTONE_ROOT}/table/craft/range_hash_test.cc)
# Golden bytes of every CRaFT format version (FORMAT.md).
lodestone_gtest(craft_format_test
  SOURCES ${LODESTONE_ROOT}/table/craft/craft_format_test.cc)
lodestone_gtest(craft_table_test
  SOURCES ${LODESTONE_ROOT}/table/craft/craft_table_test.cc)

# table/kiwi: golden bytes of the tile map (FORMAT.md) and of the tile key
# filter, the tile partition's guarantees, the tile writer's blocks.
lodestone_gtest(kiwi_layout_test
  SOURCES ${LODESTONE_ROOT}/table/kiwi/tile_map_test.cc
          ${LODESTONE_ROOT}/table/kiwi/tile_key_filter_test.cc
          ${LODESTONE_ROOT}/table/kiwi/tile_partition_test.cc
          ${LODESTONE_ROOT}/table/kiwi/tile_writer_test.cc)
# table/kiwi: tables with delete tiles in a DB (every read against a model,
# beside tables without tiles, sst_dump, CRaFT), and blocks a secondary
# range delete skips and drops unread.
lodestone_gtest(tile_table_test
  SOURCES ${LODESTONE_ROOT}/table/kiwi/tile_table_test.cc)
# db/secondary_deletes: delete key extractors, golden bytes of the
# secondary range tombstone record, the tombstone set and the covered entry
# filter against models.
lodestone_gtest(secondary_deletes_test
  SOURCES ${LODESTONE_ROOT}/db/secondary_deletes/delete_key_extractor_test.cc
          ${LODESTONE_ROOT}/db/secondary_deletes/secondary_tombstones_test.cc
          ${LODESTONE_ROOT}/db/secondary_deletes/covered_entry_filter_test.cc)
# db/secondary_deletes: DeleteByDeleteKeyRange in a DB (every read, compaction,
# retirement, reopen, ingestion) and the MANIFEST record's bytes.
lodestone_gtest(secondary_delete_db_test
  SOURCES ${LODESTONE_ROOT}/db/secondary_deletes/secondary_delete_db_test.cc)

# db/tombstone_runs: scan-time tombstone-run conversion.
lodestone_gtest(tombstone_run_conversion_test
  SOURCES ${LODESTONE_ROOT}/db/tombstone_runs/tombstone_run_conversion_test.cc)

# db/tombstone_compaction: tombstone-aware compaction (statistics, density,
# FADE).
lodestone_gtest(tombstone_compaction_test
  SOURCES ${LODESTONE_ROOT}/db/tombstone_compaction/tombstone_compaction_test.cc)
lodestone_gtest(tombstone_stats_format_test
  SOURCES ${LODESTONE_ROOT}/db/tombstone_compaction/tombstone_stats_format_test.cc)
# db/compaction_overlap_by_keys: key counts that guide compaction.
lodestone_gtest(overlap_by_keys_test
  SOURCES ${LODESTONE_ROOT}/db/compaction_overlap_by_keys/overlap_by_keys_test.cc)
# tools/stress: the fault-injection file system db_stress runs on (0043).
lodestone_gtest(fault_injection_drop_test
  SOURCES ${LODESTONE_ROOT}/tools/stress/fault_injection_drop_test.cc)

# tools/ldb_commands: our ldb commands.
lodestone_gtest(ldb_commands_test
  SOURCES ${LODESTONE_ROOT}/tools/ldb_commands/ldb_commands_test.cc)
# sst_dump and ldb, the binaries, over tables whose CRaFT blocks are damaged.
lodestone_gtest(damaged_tables_test
  SOURCES ${LODESTONE_ROOT}/tools/ldb_commands/damaged_tables_test.cc
          ${LODESTONE_ROOT}/table/craft/craft_test_filters.cc
  ARGS --sst_dump=$<TARGET_FILE:sst_dump> --ldb=$<TARGET_FILE:ldb>)
add_dependencies(damaged_tables_test sst_dump ldb)

# Fuzz targets, one per decoder Lodestone adds, in one driver
# (tests/fuzz/fuzz_target.h). The test command runs each for a few seconds
# from fixed seeds; docs/testing.md has the long runs.
add_executable(lodestone_fuzz
  ${LODESTONE_ROOT}/tests/fuzz/fuzz_driver.cc
  ${LODESTONE_ROOT}/tests/fuzz/fuzz_mutator.cc
  ${LODESTONE_ROOT}/table/craft/craft_test_filters.cc
  ${LODESTONE_ROOT}/table/craft/craft_partition_fuzz.cc
  ${LODESTONE_ROOT}/table/craft/craft_filter_fuzz.cc
  ${LODESTONE_ROOT}/table/craft/range_hash_fuzz.cc
  ${LODESTONE_ROOT}/table/craft/order_preserving_code_fuzz.cc
  ${LODESTONE_ROOT}/db/tombstone_compaction/tombstone_stats_fuzz.cc
  ${LODESTONE_ROOT}/db/initial_put/initial_put_wal_fuzz.cc
  ${LODESTONE_ROOT}/cache/location/location_descriptor_fuzz.cc
  ${LODESTONE_ROOT}/table/craft/craft_table_damage_fuzz.cc
  ${LODESTONE_ROOT}/table/kiwi/tile_map_fuzz.cc
  ${LODESTONE_ROOT}/db/secondary_deletes/secondary_tombstone_fuzz.cc
  ${LODESTONE_ROOT}/tests/fuzz/planted_fuzz.cc)
target_link_libraries(lodestone_fuzz rocksdb)
add_dependencies(lodestone_check_deps lodestone_fuzz)
add_dependencies(lodestone_own_tests lodestone_fuzz)
add_test(NAME lodestone.fuzz
  COMMAND lodestone_fuzz --target=all --seconds=70 --seed=1
          --crash_dir=${CMAKE_BINARY_DIR})
set_tests_properties(lodestone.fuzz PROPERTIES
  LABELS "lodestone;gtest;fuzz" TIMEOUT 300)
# Every input a fuzzer once failed on, replayed: tests/fuzz/regressions/
# <target>/*.input.
add_test(NAME lodestone.fuzz_regressions
  COMMAND bash ${LODESTONE_ROOT}/tests/fuzz/replay_regressions.sh
          $<TARGET_FILE:lodestone_fuzz>)
set_tests_properties(lodestone.fuzz_regressions PROPERTIES
  LABELS "lodestone;gtest;fuzz" TIMEOUT 120)
# The driver finds a planted defect, names it and saves its input.
add_test(NAME lodestone.fuzz_planted
  COMMAND bash ${LODESTONE_ROOT}/tests/fuzz/expect_failure.sh
          "invariant broken: a length field is checked"
          $<TARGET_FILE:lodestone_fuzz> --target=planted_trusted_length
          --seconds=10 --crash_dir=${CMAKE_BINARY_DIR})
set_tests_properties(lodestone.fuzz_planted PROPERTIES
  LABELS "lodestone;gtest;fuzz" TIMEOUT 60)

# The format compatibility matrix: DBs written by stock 9.10.0 (committed),
# by every Lodestone format (live and committed), read every way
# (docs/compatibility.md).
lodestone_gtest(compat_matrix_test
  SOURCES ${LODESTONE_ROOT}/tests/compat/compat_matrix_test.cc)
target_compile_definitions(compat_matrix_test PRIVATE
  LODESTONE_COMPAT_FIXTURES="${LODESTONE_ROOT}/tests/compat/fixtures")
