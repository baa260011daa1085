# What `cmake --install` puts where, and the Debian package CPack makes of it (tools/package).
#
# Contract:
#  (1) Only what users run or read is installed: the drainsim binary, the Python module (when it
#      is built: cmake/python.cmake), the scenario JSON Schema, the shipped scenarios and the
#      documentation. Test programs, benchmarks and fuzzers never
#      are (they have no install rule; tests/package/ checks the package's contents).
#  (2) The layout under the prefix (GNUInstallDirs; /usr in the package):
#        bin/drainsim
#        share/drainsim/schema.json           the scenario format (its $id names format 1)
#        share/drainsim/scenarios/*.json      the shipped scenarios, README.md, presets/README.md
#        lib/python3/dist-packages/drainsim/  the Python module: __init__.py and _core*.so, where
#                                             Debian's python3 finds it under /usr
#        share/doc/drainsim/README.md         and docs/*.md (and the figures they show, *.png) as
#                                             share/doc/drainsim/docs/, so the README's links
#                                             to docs/ still resolve
#  (3) The package's Depends are computed by dpkg-shlibdeps from the libraries the binary and the
#      module really link (Debian package dpkg-dev), never written by hand. The module needs the
#      python3 it was built for, but the command line does not: python3 of that minor version is
#      Suggested (with pandas and matplotlib, which the module uses when present), not Depended on.
include(GNUInstallDirs)

install(TARGETS drainsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(DRAINSIM_PYTHON_MODULE)
  # Not CMAKE_INSTALL_LIBDIR: Debian's python3 looks in lib/python3/dist-packages, never in a
  # multiarch lib/x86_64-linux-gnu.
  set(_drainsim_python_dest lib/python3/dist-packages/drainsim)
  install(TARGETS drainsim_python LIBRARY DESTINATION ${_drainsim_python_dest})
  install(FILES ${PROJECT_SOURCE_DIR}/python/drainsim/__init__.py DESTINATION ${_drainsim_python_dest})
endif()
install(FILES ${PROJECT_SOURCE_DIR}/scenarios/schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/drainsim)
# The scenarios are data files next to the schema in the source tree; installed apart from it.
file(GLOB _drainsim_scenarios CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scenarios/*.json)
list(REMOVE_ITEM _drainsim_scenarios ${PROJECT_SOURCE_DIR}/scenarios/schema.json)
install(FILES ${_drainsim_scenarios} ${PROJECT_SOURCE_DIR}/scenarios/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/drainsim/scenarios)
install(FILES ${PROJECT_SOURCE_DIR}/scenarios/presets/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/drainsim/scenarios/presets)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB _drainsim_docs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md ${PROJECT_SOURCE_DIR}/docs/*.png)
install(FILES ${_drainsim_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

# What the rules above install, as one target to build before installing (tools/package builds
# it rather than the whole tree): the binary, and the Python module when it is configured.
add_custom_target(drainsim_installable)
add_dependencies(drainsim_installable drainsim)
if(DRAINSIM_PYTHON_MODULE)
  add_dependencies(drainsim_installable drainsim_python)
endif()

# `cmake --install` and cpack install what is built; they do not first build everything (the
# test suite is most of the build): build drainsim_installable, then install (tools/package does
# both).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME drainsim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "drainsim developers <dev@drainsim.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "deterministic simulator and chaos-rehearsal harness for queue recovery")
set(CPACK_PACKAGE_DESCRIPTION
    "drainsim replays a queue-backed system and a bad night described in a JSON scenario -\n"
    "producers, workers, a database, a retry policy, injected faults and a plan to drain the\n"
    "dead letter queue - the same way every time for the same seed, and judges the scenario's\n"
    "expectations: monthly drain rehearsals in CI, retry policies compared on common random\n"
    "numbers, sweeps and tuning. Shipped scenarios and the scenario JSON Schema are in\n"
    "/usr/share/drainsim.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(DRAINSIM_PYTHON_MODULE)
  # The module's ABI is one minor version's (cpython-311): python3 (>= 3.11), python3 (<< 3.12).
  math(EXPR _drainsim_python_next_minor "${Python_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS
      "python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}), "
      "python3 (<< ${Python_VERSION_MAJOR}.${_drainsim_python_next_minor}), "
      "python3-pandas, python3-matplotlib")
  string(REPLACE ";" "" CPACK_DEBIAN_PACKAGE_SUGGESTS "${CPACK_DEBIAN_PACKAGE_SUGGESTS}")
endif()
# drainsim_VERSION_ARCH.deb, Debian's own naming (no revision: the version is the project's).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES ON)
include(CPack)
