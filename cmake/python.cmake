# Whether the Python module (python/, docs/python.md) is built, and what it needs.
#
# DRAINSIM_PYTHON: AUTO builds it iff pybind11 and the Python headers are found (Debian:
# pybind11-dev, python3-dev; tools/lib/setup.sh installs them), ON requires them, OFF never.
# Sets:
#   DRAINSIM_PYTHON_MODULE   ON iff the module is built
#   DRAINSIM_PYTHON_DIR      where the package goes in the build tree (PYTHONPATH for it)
#   DRAINSIM_PYTHON_WHY_NOT  why it is not built: the sentence the skipped test prints
#
# The interpreter is /usr/bin/python3 unless -DPython_EXECUTABLE=... says otherwise: Debian's
# pybind11, pytest and the optional pandas and matplotlib are installed for it, and a python3
# earlier on PATH (pyenv, a virtualenv) would get a module that its own packages cannot test.
#
# Sanitized and fuzzing builds leave the module out: an ASan-instrumented shared object loads only
# into a python3 that preloads the sanitizer runtime; the code it calls is the libraries', which
# those builds test through the C++ tests.
#
# A Python module is a shared object, so the static libraries linked into it must be compiled
# as position-independent code (-fPIC): python/CMakeLists.txt makes them so, and only them
# (drainsim_make_pic).
set(DRAINSIM_PYTHON_MODULE OFF)
set(DRAINSIM_PYTHON_DIR ${PROJECT_BINARY_DIR}/python)
set(DRAINSIM_PYTHON_WHY_NOT "")

if(NOT DRAINSIM_PYTHON MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "DRAINSIM_PYTHON must be AUTO, ON or OFF (got '${DRAINSIM_PYTHON}')")
endif()

if(DRAINSIM_PYTHON STREQUAL "OFF")
  set(DRAINSIM_PYTHON_WHY_NOT "the Python module is not built (DRAINSIM_PYTHON=OFF)")
elseif(DRAINSIM_SANITIZE OR DRAINSIM_FUZZ)
  if(DRAINSIM_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "DRAINSIM_PYTHON=ON: the Python module is not built with the sanitizers")
  endif()
  set(DRAINSIM_PYTHON_WHY_NOT
      "the Python module is not built in sanitized or fuzzing builds (cmake/python.cmake)")
else()
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The interpreter of the Python module")
  endif()
  set(_drainsim_required "")
  if(DRAINSIM_PYTHON STREQUAL "ON")
    set(_drainsim_required REQUIRED)
  endif()
  find_package(Python 3.8 COMPONENTS Interpreter Development.Module ${_drainsim_required})
  if(Python_FOUND)
    find_package(pybind11 2.6 CONFIG ${_drainsim_required})
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(DRAINSIM_PYTHON_MODULE ON)
    message(STATUS "drainsim: the Python module for ${Python_EXECUTABLE} (${Python_VERSION}), "
                   "pybind11 ${pybind11_VERSION}")
  else()
    set(DRAINSIM_PYTHON_WHY_NOT
        "pybind11 or the Python headers not found (Debian: pybind11-dev python3-dev)")
    message(STATUS "drainsim: no Python module: ${DRAINSIM_PYTHON_WHY_NOT}")
  endif()
endif()
