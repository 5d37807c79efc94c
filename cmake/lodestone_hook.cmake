# Runs inside upstream's top-level CMakeLists.txt (patches/0000), so every
# target here gets upstream's compile flags, definitions and include paths.
if(LODESTONE_STOCK)
  # The baseline: the library stays stock; db_bench runs our workloads.
  include(${LODESTONE_ROOT}/cmake/lodestone_workloads.cmake)
  return()
endif()
include(${LODESTONE_ROOT}/cmake/lodestone_sources.cmake)
include(${LODESTONE_ROOT}/cmake/lodestone_workloads.cmake)
if(LODESTONE_TESTS)
  include(${LODESTONE_ROOT}/cmake/lodestone_tests.cmake)
  include(${LODESTONE_ROOT}/cmake/lodestone_stress.cmake)
endif()
