# Build-time step (cmake -P) that inlines report.html's scripts and styles into a C++ source, so
# that the page drainsim writes stays one offline file: reports/html_assets.h says what it defines.
#
#   cmake -DOUTPUT=html_assets.cc -DPIN=third_party/uplot/PIN -DTARBALL=uplot-V.tgz
#         -DWORK_DIR=dir -DPAGE_JS=reports/html_interactive.js -DPAGE_CSS=reports/html_interactive.css
#         -P cmake/inline_html_assets.cmake
#
# Contract:
#  (1) With TARBALL present, its SHA-512 must be PIN's and its package.json's version PIN's
#      version, else the build fails (a cache someone changed by hand is not inlined). Without it
#      the source inlines no uPlot and the build still succeeds: report.html then has SVG charts
#      only (reports/html_interactive.h), and this step says so.
#  (2) Every text is written as raw string literals of at most kChunkBytes bytes (MSVC refuses a
#      literal over 16 KB; GCC and Clang take any), joined again by the reader.
#  (3) A text that could end its <script> or <style> element, or the CDATA section around it
#      ("</script", "</style", "]]>", "<!--"), fails the build rather than breaking the page.
#  (4) OUTPUT is rewritten only when its text changes, so an unchanged build recompiles nothing.
cmake_minimum_required(VERSION 3.22)

set(kChunkBytes 8000)
set(kDelimiter "drainsim_asset")

foreach(required OUTPUT PIN WORK_DIR PAGE_JS PAGE_CSS)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "inline_html_assets.cmake: -D${required}=... is required")
  endif()
endforeach()

function(pin_value key out)
  file(STRINGS "${PIN}" line REGEX "^${key}=")
  if(NOT line)
    message(FATAL_ERROR "${PIN}: no ${key}= line")
  endif()
  string(REGEX REPLACE "^${key}=" "" value "${line}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# Contract (3): `what` names the text in the error.
function(check_embeddable text what)
  string(TOLOWER "${text}" lower)
  foreach(bad "</script" "</style" "]]>" "<!--")
    string(FIND "${lower}" "${bad}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${what} holds \"${bad}\" (byte ${at}): it cannot be inlined in report.html")
    endif()
  endforeach()
  string(FIND "${text}" ")${kDelimiter}\"" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${what} holds the raw string delimiter )${kDelimiter}\"")
  endif()
endfunction()

# Appends to `out` the definition `constexpr std::string_view NAME[] = {chunks};`, or
# `constexpr std::span<const std::string_view> NAME;` (empty) when `text` is empty.
function(append_chunks out name text)
  string(LENGTH "${text}" size)
  set(code "${${out}}")
  if(size EQUAL 0)
    string(APPEND code "constexpr std::span<const std::string_view> ${name};\n\n")
    set(${out} "${code}" PARENT_SCOPE)
    return()
  endif()
  string(APPEND code "constexpr std::string_view ${name}[] = {\n")
  set(offset 0)
  while(offset LESS size)
    string(SUBSTRING "${text}" ${offset} ${kChunkBytes} chunk)
    string(APPEND code "    R\"${kDelimiter}(${chunk})${kDelimiter}\",\n")
    math(EXPR offset "${offset} + ${kChunkBytes}")
  endwhile()
  string(APPEND code "};\n\n")
  set(${out} "${code}" PARENT_SCOPE)
endfunction()

pin_value(version uplot_version)
pin_value(sha512 uplot_sha512)

set(uplot_script "")
set(uplot_style "")
set(uplot_licence "")
if(DEFINED TARBALL AND EXISTS "${TARBALL}")
  file(SHA512 "${TARBALL}" actual)
  if(NOT actual STREQUAL uplot_sha512)
    message(FATAL_ERROR "${TARBALL}: SHA-512 ${actual} is not the one pinned in ${PIN}; "
                        "delete it and run tools/test (or drainsim_fetch_uplot in tools/lib/setup.sh)")
  endif()
  set(extracted "${WORK_DIR}/uplot-${uplot_version}")
  file(REMOVE_RECURSE "${extracted}")
  file(ARCHIVE_EXTRACT INPUT "${TARBALL}" DESTINATION "${extracted}"
       PATTERNS package/package.json package/LICENSE package/dist/uPlot.iife.min.js
                package/dist/uPlot.min.css)
  file(READ "${extracted}/package/package.json" package_json)
  string(JSON package_version GET "${package_json}" version)
  if(NOT package_version STREQUAL uplot_version)
    message(FATAL_ERROR "${TARBALL} holds uplot ${package_version}, not ${uplot_version}")
  endif()
  file(READ "${extracted}/package/dist/uPlot.iife.min.js" uplot_script)
  file(READ "${extracted}/package/dist/uPlot.min.css" uplot_style)
  file(READ "${extracted}/package/LICENSE" uplot_licence)
  string(FIND "${uplot_licence}" "*/" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "uPlot's LICENSE holds \"*/\": it cannot go in a script comment")
  endif()
  check_embeddable("${uplot_script}" "uPlot's dist/uPlot.iife.min.js")
  check_embeddable("${uplot_style}" "uPlot's dist/uPlot.min.css")
else()
  set(uplot_version "")
  message(STATUS "report.html: uPlot not fetched (no ${TARBALL}): SVG charts only, no "
                 "interactive layer; tools/test fetches it (tools/lib/setup.sh drainsim_fetch_uplot)")
endif()
file(READ "${PAGE_JS}" page_script)
file(READ "${PAGE_CSS}" page_style)
check_embeddable("${page_script}" "${PAGE_JS}")
check_embeddable("${page_style}" "${PAGE_CSS}")

set(code "// Generated at build time by cmake/inline_html_assets.cmake: do not edit.\n")
string(APPEND code "// uPlot ${uplot_version} (MIT licence, Copyright (c) 2022 Leon Sorokin: its text is ")
string(APPEND code "kUplotLicence below and docs/THIRD-PARTY.md).\n")
string(APPEND code "#include \"reports/html_assets.h\"\n\nnamespace drainsim::reports {\n\nnamespace {\n\n")
append_chunks(code kUplotScript "${uplot_script}")
append_chunks(code kUplotStyle "${uplot_style}")
append_chunks(code kUplotLicence "${uplot_licence}")
append_chunks(code kPageScript "${page_script}")
append_chunks(code kPageStyle "${page_style}")
string(APPEND code "}  // namespace\n\nconst HtmlAssets& InlinedHtmlAssets() {\n")
string(APPEND code "  static constexpr HtmlAssets kAssets{\"${uplot_version}\", kUplotScript, kUplotStyle,\n")
string(APPEND code "                                     kUplotLicence, kPageScript, kPageStyle};\n")
string(APPEND code "  return kAssets;\n}\n\n}  // namespace drainsim::reports\n")

file(WRITE "${OUTPUT}.new" "${code}")
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.new")
