# db_bench workloads (tools/workloads/), dispatched by patches/0011. In the
# stock baseline they compile without Lodestone's API (LODESTONE_STOCK_BASELINE).
if(TARGET db_bench)
  set(LODESTONE_WORKLOAD_SOURCES
    tools/workloads/workload.cc
    tools/workloads/workload_options.cc
    tools/workloads/lethe.cc
    tools/workloads/kiwi.cc
    tools/workloads/queue.cc
    tools/workloads/queue_report.cc
    tools/workloads/tombstone_churn.cc
    tools/workloads/index_lookup.cc
    tools/workloads/nested_loop_join.cc)
  list(TRANSFORM LODESTONE_WORKLOAD_SOURCES PREPEND ${LODESTONE_ROOT}/)
  set_source_files_properties(${LODESTONE_WORKLOAD_SOURCES}
    PROPERTIES COMPILE_OPTIONS -Werror)
  target_sources(db_bench PRIVATE ${LODESTONE_WORKLOAD_SOURCES})
  target_include_directories(db_bench PRIVATE ${LODESTONE_ROOT})
  if(LODESTONE_STOCK)
    target_compile_definitions(db_bench PRIVATE LODESTONE_STOCK_BASELINE=1)
  endif()
endif()

# The CRaFT micro-benchmark (tools/craft_bench/), Lodestone only.
if(NOT LODESTONE_STOCK)
  add_executable(craft_bench ${LODESTONE_ROOT}/tools/craft_bench/craft_bench.cc)
  target_link_libraries(craft_bench ${ROCKSDB_LIB})
endif()
