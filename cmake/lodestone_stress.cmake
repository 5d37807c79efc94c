# db_stress from the patched tree (upstream adds db_stress_tool/ only with
# WITH_TOOLS=ON), with Lodestone's additions (tools/stress/, patches
# 0028-0030), and the crash tests under ctest (docs/stress.md). Part of the
# test configuration: assertions and sync points on, so whitebox kill points
# and read fault injection work.

add_subdirectory(${LODESTONE_UPSTREAM_DIR}/db_stress_tool
                 ${CMAKE_CURRENT_BINARY_DIR}/db_stress_tool)

set(LODESTONE_STRESS_SOURCES
  tools/stress/lodestone_stress_flags.cc
  tools/stress/lodestone_stress_ops.cc
  tools/stress/lodestone_stress_options.cc
  tools/stress/lodestone_stress_report.cc)
list(TRANSFORM LODESTONE_STRESS_SOURCES PREPEND ${LODESTONE_ROOT}/)
set_source_files_properties(${LODESTONE_STRESS_SOURCES}
  PROPERTIES COMPILE_OPTIONS -Werror)
target_sources(db_stress PRIVATE ${LODESTONE_STRESS_SOURCES})
add_dependencies(lodestone_check_deps db_stress)

set(LODESTONE_CRASHTEST ${LODESTONE_ROOT}/tools/stress/lodestone_crashtest.py)
set(LODESTONE_CRASHTEST_ARGS
  --stress_cmd $<TARGET_FILE:db_stress> --upstream_dir ${LODESTONE_UPSTREAM_DIR})

# The short crash test: blackbox with write faults, with every fault, with
# transactions, and whitebox with faults; every Lodestone option randomized
# per db_stress invocation; fixed seed; fails if a feature an invocation
# enabled showed no activity, or the whole run never judged one.
add_test(NAME lodestone.crashtest_short
  COMMAND python3 ${LODESTONE_CRASHTEST} run --configs ci --seed 1
          --duration 320 ${LODESTONE_CRASHTEST_ARGS})
set_tests_properties(lodestone.crashtest_short PROPERTIES
  LABELS lodestone TIMEOUT 900)

# Sensitivity: each planted bug must make a short db_stress run fail, naming
# the invariant it breaks, and the same run without it must pass (--control).
# lodestone_planted_test(<name> <bug> <max seconds>)
function(lodestone_planted_test name bug max_seconds)
  add_test(NAME lodestone.stress_planted_${name}
    COMMAND python3 ${LODESTONE_CRASHTEST} planted --bug ${bug} --seed 1
            --max_seconds ${max_seconds} --control --control_seconds 30
            --stress_cmd $<TARGET_FILE:db_stress>)
  set_tests_properties(lodestone.stress_planted_${name} PROPERTIES
    LABELS lodestone TIMEOUT 900)
endfunction()
lodestone_planted_test(location_cache location_cache_skip_flush_invalidation 240)
lodestone_planted_test(location_range_tombstones location_cache_ignore_range_tombstones 240)
lodestone_planted_test(initial_put initial_put_prune_across_snapshot 300)
lodestone_planted_test(craft craft_range_filter_false_negative 240)
lodestone_planted_test(conversion tombstone_run_conversion_past_the_run 240)
