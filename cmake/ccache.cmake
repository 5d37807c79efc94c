# ccache with the repository root as base dir, so that a fresh clone at
# another path (CI) hits the cache a previous build filled.
find_program(LODESTONE_CCACHE ccache)

# The cache directory is fixed at configure time, so a build run from any
# shell (not only tools/*.sh) fills and hits the same cache.
if(DEFINED ENV{CCACHE_DIR})
  set(LODESTONE_CCACHE_DIR "$ENV{CCACHE_DIR}" CACHE PATH "ccache directory")
else()
  set(LODESTONE_CCACHE_DIR "$ENV{HOME}/.cache/lodestone/ccache" CACHE PATH
      "ccache directory")
endif()

function(lodestone_use_ccache)
  if(LODESTONE_CCACHE)
    # Upstream sets RULE_LAUNCH_COMPILE to plain ccache; replace it.
    set_property(GLOBAL PROPERTY RULE_LAUNCH_COMPILE
      "${CMAKE_COMMAND} -E env CCACHE_DIR=${LODESTONE_CCACHE_DIR} CCACHE_MAXSIZE=20G CCACHE_BASEDIR=${LODESTONE_ROOT} CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime,time_macros ${LODESTONE_CCACHE}")
    set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK "")
  endif()
endfunction()
