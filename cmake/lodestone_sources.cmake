# Lodestone's own library sources, compiled into the rocksdb targets with
# upstream's flags. One line per file, grouped by feature folder.
set(LODESTONE_LIB_SOURCES
  # cache/location: the location cache
  cache/location/location_cache.cc
  # db/tombstone: initial puts, tombstone statistics and picker, conversion
  db/tombstone/put_initial_api.cc
  db/tombstone/tombstone_candidates.cc
  # utilities/lodestone: option registration
  utilities/lodestone/option_types.cc
)
list(TRANSFORM LODESTONE_LIB_SOURCES PREPEND ${LODESTONE_ROOT}/)

foreach(lib rocksdb rocksdb-shared)
  if(TARGET ${lib})
    target_sources(${lib} PRIVATE ${LODESTONE_LIB_SOURCES})
  endif()
endforeach()

# Our public headers install next to upstream's.
install(FILES
  ${LODESTONE_ROOT}/include/rocksdb/location_cache.h
  COMPONENT devel
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rocksdb)
