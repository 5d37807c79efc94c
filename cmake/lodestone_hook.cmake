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
if(LODESTONE_BINDINGS_TESTS)
  include(${LODESTONE_ROOT}/cmake/lodestone_bindings_tests.cmake)
endif()

# pkg-config: upstream's rocksdb.pc names no link dependencies, so a static
# link had to guess them. Libs.private names the libraries this build links
# (`pkg-config --static --libs rocksdb`); the CMake package finds the same
# ones itself (RocksDBConfig.cmake).
set(_pc ${CMAKE_CURRENT_BINARY_DIR}/${PROJECT_NAME}.pc)
if(EXISTS ${_pc})
  set(_private)
  foreach(_dep IN ITEMS "WITH_SNAPPY snappy" "WITH_LZ4 lz4" "WITH_ZSTD zstd"
                        "WITH_ZLIB z" "WITH_BZ2 bz2" "WITH_GFLAGS gflags"
                        "WITH_LIBURING uring" "WITH_JEMALLOC jemalloc"
                        "WITH_NUMA numa" "WITH_TBB tbb")
    separate_arguments(_dep)
    list(GET _dep 0 _option)
    list(GET _dep 1 _lib)
    if(${_option})
      string(APPEND _private " -l${_lib}")
    endif()
  endforeach()
  file(READ ${_pc} _pc_text)
  if(NOT _pc_text MATCHES "Libs.private")
    file(APPEND ${_pc} "Libs.private:${_private} -lpthread -ldl\n")
  endif()
endif()
