# Unity builds of the project's static libraries (DRAINSIM_UNITY_LIBS, top CMakeLists.txt).
# CI builds every library twice from nothing (GCC -O3, then clang with the sanitizers) on two
# cores; most of a library file's compile time is the headers it shares with its neighbours
# (the standard library, nlohmann/json, the config structs), so DRAINSIM_UNITY_LIBS_BATCH files
# of a library compile as one translation unit. The batches stay small enough that two cores
# still have work side by side.
# What the unity files require of a library's .cc files: no two of one batch may define the same
# name at file scope (anonymous namespaces and statics included). A file that cannot be made
# so without hurting its names sets SKIP_UNITY_BUILD_INCLUSION (see drainsim_unity_skip).
# Results cannot change: the same functions compile with the same flags; only which ones the
# compiler sees at once differs (x86-64 without FMA: inlining changes no floating-point result).
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
