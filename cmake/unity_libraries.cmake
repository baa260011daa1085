# Unity builds of the project's static libraries (DRAINSIM_UNITY_LIBS, top CMakeLists.txt, on
# by default): DRAINSIM_UNITY_LIBS_BATCH files of a library compile as one translation unit, so
# the headers they share (the standard library, nlohmann/json, the config structs) are compiled
# once per batch. CI builds every library twice from nothing on two cores; file by file the
# plain build of a fresh clone took 869 s of wall, the sanitized one's libraries most of its own.
#
# The hazard, and the check that keeps it out: in one translation unit the anonymous namespaces
# of a batch's files are one namespace, and a file-local helper can silently take the place of
# a function its neighbour calls. Seen here: backtest_report.cc's local `Json Number(double)`
# took compare_report.cc's calls of table.h's `Number` in the same batch, found only because 12
# tests of `drainsim compare` failed (a JSON type error at run time; the compiler said nothing).
# So every library's sources are listed in ${CMAKE_BINARY_DIR}/static_libraries.txt and the
# suite's `unity_names_are_unique` (tools/lint/unity_names.py, whose header says exactly what
# it finds) fails on any file-local name that could so stand in for another: a function of the
# same name as another file's or a header's in one namespace, a name in an inner namespace that
# hides an outer one, a namespace-scope `using namespace`, a macro left defined. Rename the newer
# name after what it is (reports/text_format.h holds the report writers' shared text forms). A
# file that cannot be made so sets SKIP_UNITY_BUILD_INCLUSION (drainsim_unity_skip).
# What the unity build cannot check: that each file includes what it uses (a neighbour may have
# included it); `-DDRAINSIM_UNITY_LIBS=OFF` compiles file by file and shows that.
# The product's static libraries under dir, recursively, into the variable named by out.
function(drainsim_static_libraries dir out)
  set(found)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
      list(APPEND found ${target})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    drainsim_static_libraries("${subdir}" below)
    list(APPEND found ${below})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# Makes the libraries unity builds when on, and always writes their sources to
# ${CMAKE_BINARY_DIR}/static_libraries.txt (target, a tab, the sources with ';') for the check
# tools/lint/unity_names.py, which the suite runs in every build.
function(drainsim_unity_libraries on)
  set(list_text "")
  foreach(dir IN LISTS ARGN)
    drainsim_static_libraries("${dir}" targets)
    foreach(target IN LISTS targets)
      if(on)
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                              UNITY_BUILD_BATCH_SIZE ${DRAINSIM_UNITY_LIBS_BATCH})
      endif()
      get_target_property(source_dir ${target} SOURCE_DIR)
      get_target_property(sources ${target} SOURCES)
      set(absolute)
      foreach(source IN LISTS sources)
        get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${source_dir}")
        list(APPEND absolute "${source}")
      endforeach()
      string(APPEND list_text "${target}\t${absolute}\n")
    endforeach()
  endforeach()
  file(WRITE "${CMAKE_BINARY_DIR}/static_libraries.txt" "${list_text}")
endfunction()

# Files compiled on their own in a unity build: each names why.
function(drainsim_unity_skip)
  set_source_files_properties(${ARGN} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
