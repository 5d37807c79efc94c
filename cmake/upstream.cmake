# Fetches, verifies, extracts and patches the pinned upstream RocksDB.
#
# The pristine tree is extracted once per build dir. Applying the series
# happens in a scratch copy; only files whose bytes changed are copied into
# the source tree the build uses, so refreshing one patch recompiles only what
# depends on the files it touches.

function(_lodestone_series_files series out_patches)
  set(patches)
  file(STRINGS ${LODESTONE_ROOT}/patches/${series} lines)
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "" OR line MATCHES "^#")
      continue()
    endif()
    if(NOT EXISTS ${LODESTONE_ROOT}/patches/${line})
      message(FATAL_ERROR "patches/${series} names ${line}, which does not exist")
    endif()
    list(APPEND patches ${LODESTONE_ROOT}/patches/${line})
  endforeach()
  set(${out_patches} ${patches} PARENT_SCOPE)
endfunction()

# Paths (relative to the tree) that a list of patches touches.
function(_lodestone_touched_paths out_paths)
  set(paths)
  foreach(patch IN LISTS ARGN)
    file(STRINGS ${patch} heads REGEX "^(\\+\\+\\+|---) [ab]/")
    foreach(head IN LISTS heads)
      string(REGEX REPLACE "^(\\+\\+\\+|---) [ab]/([^\t]*).*$" "\\2" path "${head}")
      list(APPEND paths ${path})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES paths)
  set(${out_paths} ${paths} PARENT_SCOPE)
endfunction()

function(lodestone_prepare_upstream out_dir)
  set(base ${CMAKE_BINARY_DIR}/upstream)
  set(pristine ${base}/pristine)
  set(src ${base}/src)

  # 1. The tarball (cached outside the build tree; see cmake/fetch_upstream.sh).
  if(NOT EXISTS ${pristine}/CMakeLists.txt)
    execute_process(
      COMMAND bash ${LODESTONE_ROOT}/cmake/fetch_upstream.sh
      OUTPUT_VARIABLE tarball OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "Could not obtain the pinned RocksDB 9.10.0 tarball (see the message above).")
    endif()
    message(STATUS "Lodestone: extracting ${tarball}")
    file(REMOVE_RECURSE ${base}/extract)
    file(ARCHIVE_EXTRACT INPUT ${tarball} DESTINATION ${base}/extract)
    file(GLOB top LIST_DIRECTORIES true ${base}/extract/*)
    file(REMOVE_RECURSE ${pristine})
    file(RENAME ${top} ${pristine})
    file(REMOVE_RECURSE ${base}/extract)
  endif()

  # 2. The series (for the stock baseline, series.stock: build glue and the
  # db_bench workload dispatch only, no library change) and its stamp.
  if(LODESTONE_STOCK)
    set(series series.stock)
  else()
    set(series series)
  endif()
  _lodestone_series_files(${series} patches)
  set(stamp_text "stock=${LODESTONE_STOCK}\n")
  foreach(patch IN LISTS patches)
    file(SHA256 ${patch} h)
    string(APPEND stamp_text "${patch} ${h}\n")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${LODESTONE_ROOT}/patches/${series} ${patches})

  set(stamp_file ${base}/applied.stamp)
  set(old_stamp "")
  if(EXISTS ${stamp_file} AND EXISTS ${src})
    file(READ ${stamp_file} old_stamp)
  endif()
  if(old_stamp STREQUAL stamp_text)
    set(${out_dir} ${src} PARENT_SCOPE)
    return()
  endif()

  # 3. Apply the series to a scratch copy, strictly: no fuzz, no offsets.
  set(scratch ${base}/scratch)
  file(REMOVE_RECURSE ${scratch})
  file(COPY ${pristine}/ DESTINATION ${scratch})
  foreach(patch IN LISTS patches)
    get_filename_component(name ${patch} NAME)
    execute_process(
      COMMAND patch -p1 -F0 -N --no-backup-if-mismatch -i ${patch}
      WORKING_DIRECTORY ${scratch}
      OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "patches/${name} does not apply to RocksDB 9.10.0:\n${out}")
    endif()
    if(out MATCHES "offset|fuzz")
      message(FATAL_ERROR "patches/${name} applies only with an offset or fuzz; refresh it (patches/README.md):\n${out}")
    endif()
    message(STATUS "Lodestone: applied ${name}")
  endforeach()

  # 4. Move the result into place.
  if(NOT EXISTS ${src})
    file(RENAME ${scratch} ${src})
  else()
    # Only files touched by the old or the new series can differ.
    _lodestone_touched_paths(paths ${patches})
    if(EXISTS ${base}/applied.paths AND NOT old_stamp STREQUAL "")
      file(STRINGS ${base}/applied.paths old_paths)
      list(APPEND paths ${old_paths})
      list(REMOVE_DUPLICATES paths)
    else()
      # Unknown history: compare the whole tree.
      file(GLOB_RECURSE paths RELATIVE ${scratch} ${scratch}/*)
    endif()
    foreach(path IN LISTS paths)
      if(EXISTS ${scratch}/${path})
        file(COPY_FILE ${scratch}/${path} ${src}/${path} ONLY_IF_DIFFERENT)
      elseif(EXISTS ${pristine}/${path})
        file(COPY_FILE ${pristine}/${path} ${src}/${path} ONLY_IF_DIFFERENT)
      else()
        file(REMOVE ${src}/${path})
      endif()
    endforeach()
    file(REMOVE_RECURSE ${scratch})
  endif()
  _lodestone_touched_paths(applied ${patches})
  string(REPLACE ";" "\n" applied "${applied}")
  file(WRITE ${base}/applied.paths "${applied}\n")
  file(WRITE ${stamp_file} "${stamp_text}")
  set(${out_dir} ${src} PARENT_SCOPE)
endfunction()
