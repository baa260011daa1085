# Unity builds of the project's static libraries (DRAINSIM_UNITY_LIBS, top CMakeLists.txt), used
# by the sanitized build only (tools/test --sanitize): DRAINSIM_UNITY_LIBS_BATCH files of a
# library compile as one translation unit, so the headers they share (the standard library,
# nlohmann/json, the config structs) are compiled once per batch. CI builds every library twice
# from nothing on two cores; the plain build of a fresh clone took 480 s of wall with it.
#
# Why not the plain build (the binary users run, package and benchmark): in one translation unit
# the anonymous namespaces of a batch's files are one namespace, and a file-local helper can
# silently take the place of a function its neighbour calls. Seen here: backtest_report.cc's
# local `Json Number(double)` hid table.h's `std::string Number(double)` from compare_report.cc
# in the same batch, found only because 12 tests of `drainsim compare` failed (a JSON type error
# at run time; the compiler said nothing). Until a check proves a library free of such names
# (every name of a file's anonymous namespace unique in its library and absent from the
# enclosing namespaces), the plain build compiles file by file, and the sanitized suite, run
# over the unity-built libraries, doubles as the differential check: a behaviour the unity build
# changes fails there while the plain suite passes.
# Two files of one batch must not define the same file-scope name (a compile error: rename the
# newer one after what it is; reports/text_format.h holds the report writers' shared text
# forms). A file that cannot be made so sets SKIP_UNITY_BUILD_INCLUSION (drainsim_unity_skip).
function(drainsim_unity_libraries dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                            UNITY_BUILD_BATCH_SIZE ${DRAINSIM_UNITY_LIBS_BATCH})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    drainsim_unity_libraries("${subdir}")
  endforeach()
endfunction()

# Files compiled on their own in a unity build: each names why.
function(drainsim_unity_skip)
  set_source_files_properties(${ARGN} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
