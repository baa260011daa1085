# cmake/inline_html_assets.cmake on its own (cmake -P), in the cases a build can meet:
#   1. no uPlot tarball: succeeds, and the source inlines no uPlot (report.html: SVG only);
#   2. a tarball whose SHA-512 is not the pinned one: fails, naming the hash;
#   3. a page script holding "</script>": fails rather than write a page it would break;
#   4. the pinned tarball (when the set-up fetched it): succeeds, inlines uPlot's version, in
#      pieces of at most 8000 bytes.
#
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -DTARBALL=<pinned tarball> -P inline_assets_test.cmake
cmake_minimum_required(VERSION 3.22)

foreach(required SOURCE_DIR WORK_DIR TARBALL)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "-D${required}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(pin "${SOURCE_DIR}/third_party/uplot/PIN")
set(page_js "${SOURCE_DIR}/reports/html_interactive.js")
set(page_css "${SOURCE_DIR}/reports/html_interactive.css")

# run(NAME TARBALL PAGE_JS): runs the step into WORK_DIR/NAME.cc; sets rc, out (stdout + stderr)
# and code (the source written, "" when none).
macro(run name tarball js)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${WORK_DIR}/${name}.cc -DPIN=${pin} -DTARBALL=${tarball}
            -DWORK_DIR=${WORK_DIR}/${name} -DPAGE_JS=${js} -DPAGE_CSS=${page_css}
            -P ${SOURCE_DIR}/cmake/inline_html_assets.cmake
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(APPEND out "${err}")
  set(code "")
  set(code_size 0)
  if(EXISTS "${WORK_DIR}/${name}.cc")
    file(READ "${WORK_DIR}/${name}.cc" code)
    string(LENGTH "${code}" code_size)
  endif()
endmacro()

# expect(TEXT CONDITION...): the condition's words as if() takes them.
function(expect text)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "FAIL: ${text}\n${out}")
  endif()
  message(STATUS "ok: ${text}")
endfunction()

run(absent "${WORK_DIR}/no-such.tgz" "${page_js}")
string(FIND "${code}" "kAssets{\"\"," at)
expect("without the tarball: built, no uPlot inlined" rc EQUAL 0 AND NOT at EQUAL -1)
string(FIND "${code}" "window.drainsimCharts" at)
expect("without the tarball: the page script is inlined all the same" NOT at EQUAL -1)

file(WRITE "${WORK_DIR}/tampered.tgz" "not uPlot's tarball\n")
run(tampered "${WORK_DIR}/tampered.tgz" "${page_js}")
string(FIND "${out}" "SHA-512" at)
expect("a tampered tarball fails the build" NOT rc EQUAL 0 AND NOT at EQUAL -1 AND code_size EQUAL 0)

file(WRITE "${WORK_DIR}/bad.js" "console.log('</script>');\n")
run(bad_script "${WORK_DIR}/no-such.tgz" "${WORK_DIR}/bad.js")
string(FIND "${out}" "cannot be inlined" at)
expect("a script holding </script> fails the build" NOT rc EQUAL 0 AND NOT at EQUAL -1)

if(NOT EXISTS "${TARBALL}")
  message(STATUS "skipped: the pinned tarball ${TARBALL} is not fetched (tools/test fetches it)")
  return()
endif()
run(pinned "${TARBALL}" "${page_js}")
file(STRINGS "${pin}" version_line REGEX "^version=")
string(REGEX REPLACE "^version=" "" version "${version_line}")
string(FIND "${code}" "kAssets{\"${version}\"," at)
expect("the pinned tarball: uPlot ${version} inlined" rc EQUAL 0 AND NOT at EQUAL -1)
# Every piece: from one opening delimiter to the next closing one, at most 8000 bytes between.
string(REGEX MATCHALL "R\"drainsim_asset\\(" opens "${code}")
list(LENGTH opens pieces)
expect("uPlot's 51 kB script is in several pieces (${pieces} in all)" pieces GREATER 7)
set(rest "${code}")
set(longest 0)
while(TRUE)
  string(FIND "${rest}" "R\"drainsim_asset(" open)
  if(open EQUAL -1)
    break()
  endif()
  math(EXPR start "${open} + 17")  # R"drainsim_asset(
  string(SUBSTRING "${rest}" ${start} -1 rest)
  string(FIND "${rest}" ")drainsim_asset\"" close)
  if(close GREATER longest)
    set(longest ${close})
  endif()
  math(EXPR after "${close} + 16")
  string(SUBSTRING "${rest}" ${after} -1 rest)
endwhile()
expect("no piece over 8000 bytes (longest ${longest})" longest GREATER 0 AND longest LESS_EQUAL 8000)
