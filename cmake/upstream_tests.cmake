# Upstream unit tests re-run for every area the patch series touches. One
# line each: the test, why it is here, and a gtest filter when the whole
# binary is too slow for CI on two cores.
#
# lodestone_upstream_test(<path/to/test.cc> [FILTER <gtest filter>]
#                         [TIMEOUT <seconds>])
function(lodestone_upstream_test source)
  cmake_parse_arguments(T "" "FILTER;TIMEOUT" "" ${ARGN})
  get_filename_component(name ${source} NAME_WE)
  add_executable(${name} ${LODESTONE_UPSTREAM_DIR}/${source})
  target_link_libraries(${name} lodestone_testutil)
  # gcc 12 at -O1 reports false maybe-uninitialized in std::function
  # lambdas of some upstream tests; upstream code is not ours to change.
  target_compile_options(${name} PRIVATE -Wno-error=maybe-uninitialized)
  set(args)
  if(T_FILTER)
    set(args "--gtest_filter=${T_FILTER}")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 900)
  endif()
  add_test(NAME upstream.${name} COMMAND ${name} ${args})
  set_tests_properties(upstream.${name} PROPERTIES
    LABELS upstream TIMEOUT ${T_TIMEOUT})
  add_dependencies(lodestone_check_deps ${name})
endfunction()

# lodestone_upstream_test_with_craft(<name> [FILTER <gtest filter>])
# Runs an upstream test binary declared above a second time with every
# block-based table carrying a CRaFT filter (LODESTONE_TEST_CRAFT, patch
# 0023): 512-byte partitions, so that most tables have several.
function(lodestone_upstream_test_with_craft name)
  cmake_parse_arguments(T "" "FILTER" "" ${ARGN})
  set(args)
  if(T_FILTER)
    set(args "--gtest_filter=${T_FILTER}")
  endif()
  add_test(NAME upstream_craft.${name} COMMAND ${name} ${args})
  set_tests_properties(upstream_craft.${name} PROPERTIES
    LABELS upstream TIMEOUT 900 ENVIRONMENT LODESTONE_TEST_CRAFT=512)
endfunction()

# 0001 value types, 0006 FileMetaData/MANIFEST tag.
lodestone_upstream_test(db/dbformat_test.cc)
lodestone_upstream_test(db/version_edit_test.cc)
# 0001 separators in index blocks; 0002 table options.
lodestone_upstream_test(table/block_based/block_based_table_reader_test.cc
  FILTER "-*Slow*")
# 0002 options: every field settable, strings and OPTIONS files round-trip.
lodestone_upstream_test(options/options_settable_test.cc)
lodestone_upstream_test(options/options_test.cc)
# 0003 tickers: every ticker has a name.
lodestone_upstream_test(monitoring/statistics_test.cc)
# 0005 write batch API and handlers.
lodestone_upstream_test(db/write_batch_test.cc)
# The whole Get/Put/iterate/flush path, as a smoke test of the patched tree.
lodestone_upstream_test(db/db_basic_test.cc)
# 0007-0010 initial puts: the compaction iterator, merges, iterators,
# indexed batches and transactions, and compactions end to end.
lodestone_upstream_test(db/compaction/compaction_iterator_test.cc)
lodestone_upstream_test(db/merge_helper_test.cc)
lodestone_upstream_test(db/db_iter_test.cc)
lodestone_upstream_test(
  utilities/write_batch_with_index/write_batch_with_index_test.cc)
lodestone_upstream_test(db/db_compaction_test.cc
  FILTER "*Delet*:*Bottommost*:*SingleDelete*:*CompactionFilter*:*ManualCompaction*")
# Scan-time tombstone-run conversion patches DBIter, ArenaWrappedDBIter and
# DBImpl::NewIteratorImpl: the iterator tests and range deletions.
lodestone_upstream_test(db/db_iterator_test.cc)
lodestone_upstream_test(db/db_range_del_test.cc FILTER "-*Slow*:*Large*")
# 0042 the job snapshot a compaction takes with a snapshot checker: the
# write-prepared tests of compactions under snapshots.
lodestone_upstream_test(
  utilities/transactions/write_prepared_transaction_test.cc
  FILTER "*Compaction*:*SeqZeroing*")
# Tombstone-aware compaction patches the leveled picker and Compaction.
lodestone_upstream_test(db/compaction/compaction_picker_test.cc)
# The location cache (0022) hooks Version::Get/MultiGet, flush (BuildTable)
# and ingestion: version set and ingestion tests (db_basic_test above covers
# Get/MultiGet).
lodestone_upstream_test(db/version_set_test.cc)
lodestone_upstream_test(db/external_sst_file_basic_test.cc FILTER "-*Slow*")
# 0027 WriteThread::TryEnterUnbatched and 0033 the write group leader
# inserting handed-off conversions: the write path in every write mode.
lodestone_upstream_test(db/db_write_test.cc)
# 0041 (with 0020's file statistics hook): the flush job's edit
# and output.
lodestone_upstream_test(db/flush_job_test.cc)
# 0026 a data block iterator positioned by value offset: the block tests.
lodestone_upstream_test(table/block_based/block_test.cc)
# 0013/0014/0023 the CRaFT filter in the block-based table: upstream's
# table, table reader and iterator tests again with the filter in every
# table (bounded seeks in db_iterator_test go through it). Left out, because
# they assert what the filter changes on purpose: ApproximateOffsetOf* (the
# filter blocks make the file larger), OutOfBoundOnSeek (a seek the filter
# rejects leaves the table iterator invalid without the out-of-bound flag;
# LevelIterator checks the next file's smallest key against the bound
# anyway) and DBIteratorBoundMultiSeek (expects a block read for a seek into
# a table that holds nothing in range: the filter skips it).
lodestone_upstream_test(table/table_test.cc)
lodestone_upstream_test_with_craft(table_test
  FILTER "-GeneralTableTest.ApproximateOffsetOf*:*OutOfBoundOnSeek*")
lodestone_upstream_test_with_craft(block_based_table_reader_test
  FILTER "-*Slow*")
lodestone_upstream_test_with_craft(db_iterator_test
  FILTER "-*DBIteratorBoundMultiSeek*")
# 0032 the C API (db/c.cc includes our calls): upstream's C test.
add_executable(c_test ${LODESTONE_UPSTREAM_DIR}/db/c_test.c)
target_link_libraries(c_test rocksdb)
add_test(NAME upstream.c_test COMMAND c_test)
set_tests_properties(upstream.c_test PROPERTIES LABELS upstream TIMEOUT 900)
add_dependencies(lodestone_check_deps c_test)
