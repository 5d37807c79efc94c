# Lodestone's own library sources, compiled into the rocksdb targets with
# upstream's flags. One line per file, grouped by feature folder.
set(LODESTONE_LIB_SOURCES
  # cache/location: the location cache
  cache/location/location_block_seek.cc
  cache/location/location_cache.cc
  cache/location/location_cache_binding.cc
  cache/location/location_cache_options.cc
  cache/location/location_cache_property.cc
  cache/location/location_lookup.cc
  cache/location/location_multiget.cc
  cache/location/location_range_tombstones.cc
  cache/location/location_read_scope.cc
  cache/location/location_invalidation.cc
  cache/location/version_file_memo.cc
  # db/compaction_overlap_by_keys: key counts that guide compaction
  db/compaction_overlap_by_keys/overlap_by_keys.cc
  # db/db_impl_access: the private DBImpl state our db/ features use
  db/db_impl_access/db_impl_access.cc
  # db/initial_put: initial puts (early tombstone pruning)
  db/initial_put/initial_chains.cc
  db/initial_put/initial_put_api.cc
  db/initial_put/initial_put_contract.cc
  db/initial_put/initial_puts.cc
  # db/tombstone_compaction: tombstone-aware compaction (FADE, density)
  db/tombstone_compaction/tombstone_candidates.cc
  db/tombstone_compaction/tombstone_deadline_timer.cc
  db/tombstone_compaction/tombstone_properties.cc
  db/tombstone_compaction/tombstone_stats.cc
  # db/tombstone_runs: scan-time conversion of tombstone runs
  db/tombstone_runs/tombstone_run_conversion.cc
  db/tombstone_runs/tombstone_run_iterators.cc
  # table/range_filter: BlockBasedTableOptions::range_filter
  table/range_filter/range_filter_options.cc
  table/range_filter/range_filter_policy.cc
  table/range_filter/range_filter_table_builder.cc
  # table/craft: the CRaFT range filter
  table/craft/craft_builder_pool.cc
  table/craft/craft_check_policy.cc
  table/craft/craft_partition.cc
  table/craft/craft_range_filter_policy.cc
  table/craft/craft_file_inspection.cc
  table/craft/craft_filter_builder.cc
  table/craft/craft_filter_property.cc
  table/craft/craft_filter_reader.cc
  table/craft/craft_key_count.cc
  table/craft/craft_level_check.cc
  table/craft/craft_metadata.cc
  table/craft/craft_option_aliases.cc
  table/craft/craft_seek.cc
  table/craft/craft_table_reader.cc
  table/craft/craft_table_writer.cc
  table/craft/craft_test_defaults.cc
  table/craft/louds_sparse.cc
  table/craft/louds_sparse_builder.cc
  table/craft/louds_sparse_decode.cc
  table/craft/order_preserving_code.cc
  table/craft/range_hash.cc
  table/craft/rank_select.cc
  # db/secondary_deletes: secondary range deletes (the call, the delete key
  # extractor, the tombstones in the version, the covered entry filter under
  # reads and compactions: docs/kiwi.md)
  db/secondary_deletes/compaction_secondary_deletes.cc
  db/secondary_deletes/covered_entry_filter.cc
  db/secondary_deletes/covered_entries.cc
  db/secondary_deletes/delete_by_delete_key_range.cc
  db/secondary_deletes/delete_key_extractor.cc
  db/secondary_deletes/live_secondary_tombstones.cc
  db/secondary_deletes/secondary_delete_property.cc
  db/secondary_deletes/secondary_tombstone_records.cc
  db/secondary_deletes/secondary_tombstones.cc
  # table/kiwi: KiWi's delete tiles (the partition, the tile map and its key
  # filters, the tile writer, and the table builder's and reader's tiles:
  # docs/kiwi.md)
  table/kiwi/tile_key_filter.cc
  table/kiwi/tile_map.cc
  table/kiwi/tile_partition.cc
  table/kiwi/tile_table_builder.cc
  table/kiwi/tile_table_reader.cc
  table/kiwi/tile_writer.cc
  # tools/ldb_commands: ldb commands (in the library, like ldb_cmd.cc)
  tools/ldb_commands/craft_query_command.cc
  tools/ldb_commands/put_initial_command.cc
  # options/lodestone: our option types' registration and range checks
  options/lodestone/option_checks.cc
  options/lodestone/option_types.cc
  # utilities/lodestone: the DB property table
  utilities/lodestone/db_properties.cc
)
list(TRANSFORM LODESTONE_LIB_SOURCES PREPEND ${LODESTONE_ROOT}/)
# Our code is warning-free in every configuration, whatever upstream's
# FAIL_ON_WARNINGS says.
set_source_files_properties(${LODESTONE_LIB_SOURCES} PROPERTIES COMPILE_OPTIONS -Werror)

foreach(lib rocksdb rocksdb-shared)
  if(TARGET ${lib})
    target_sources(${lib} PRIVATE ${LODESTONE_LIB_SOURCES})
  endif()
endforeach()

# Our public headers install next to upstream's.
install(FILES
  ${LODESTONE_ROOT}/include/rocksdb/craft_filter.h
  ${LODESTONE_ROOT}/include/rocksdb/location_cache.h
  ${LODESTONE_ROOT}/include/rocksdb/lodestone_c.h
  ${LODESTONE_ROOT}/include/rocksdb/lodestone_options.h
  ${LODESTONE_ROOT}/include/rocksdb/range_filter_policy.h
  COMPONENT devel
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rocksdb)

