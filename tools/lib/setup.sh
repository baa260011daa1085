# Shared set-up for tools/run, tools/test and friends: install missing Debian packages, then
# configure and build with CMake. Sourced, not run. Build logs go to BUILD_DIR/last-build.log
# so that tools/run's own output stays readable; on failure the log's tail is printed.

DRAINSIM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The packages a build and the test suite need, as Debian 12 names them. dpkg-dev: dpkg-shlibdeps,
# with which tools/package (CPack) and its test compute the Debian package's Depends.
# pybind11-dev and python3-dev build the Python module (python/, docs/python.md); python3-pybind11
# is pybind11 for /usr/bin/python3, and python3-pytest runs the module's tests (ctest -L python).
# Without pybind11 the build leaves the module out and those tests report themselves skipped.
DRAINSIM_PACKAGES=(
  g++ cmake ninja-build git
  libboost-program-options-dev nlohmann-json3-dev libeigen3-dev libbenchmark-dev catch2 python3-simpy3
  pkg-config librabbitmq-dev libpq-dev dpkg-dev
  pybind11-dev python3-pybind11 python3-dev python3-pytest
)

# Optional packages: tools/test installs them apart and carries on without them. `chromium` (large:
# about 100 MB with its libraries) is only for the browser test of report.html (tests/browser/),
# which reports itself skipped where Chromium is absent. DRAINSIM_NO_OPTIONAL_PACKAGES=1 skips them.
DRAINSIM_OPTIONAL_PACKAGES=(chromium)

# Only for `tools/test --sanitize`: it builds with clang (see tools/test); the sanitizer runtimes
# are in libclang-rt-14-dev, which clang only recommends.
DRAINSIM_SANITIZE_PACKAGES=(clang libclang-rt-14-dev)

# Only for `tools/test --coverage`: gcovr reads the gcov counters into per-folder figures.
DRAINSIM_COVERAGE_PACKAGES=(gcovr)

drainsim_log() { printf 'drainsim-setup: %s\n' "$*" >&2; }

# Installs whichever of the given packages are missing. apt-get update runs only when something
# is missing, so a second run on a ready machine costs one dpkg-query.
drainsim_ensure_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
      drainsim_log "missing packages (${missing[*]}) and not root: install them and re-run"
      return 1
    fi
  fi
  drainsim_log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq >&2 || return 1
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || return 1
}

# drainsim_forget_other_compiler BUILD_DIR COMPILER: a build tree configured with another C++
# compiler (an older tools/test built build-sanitize/ with GCC) loses its CMake cache, because
# CMake refuses to switch compilers in place.
drainsim_forget_other_compiler() {
  local cache="$1/CMakeCache.txt"
  [ -f "$cache" ] || return 0
  grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=.*$2\$" "$cache" && return 0
  drainsim_log "$1 was configured with another compiler: reconfiguring it with $2"
  rm -rf "$cache" "$1/CMakeFiles"
}

# drainsim_build BUILD_DIR [extra cmake args...]: configure (cheap when nothing changed) and
# build into BUILD_DIR every target, or those named in DRAINSIM_TARGETS.
drainsim_build() {
  local dir=$1; shift
  local log="$dir/last-build.log"
  mkdir -p "$dir"
  local commit
  commit=$(git -C "$DRAINSIM_ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
  if ! git -C "$DRAINSIM_ROOT" diff --quiet HEAD 2>/dev/null; then commit="$commit-dirty"; fi
  if ! { cmake -S "$DRAINSIM_ROOT" -B "$dir" -G Ninja -DDRAINSIM_GIT_COMMIT="$commit" "$@" &&
         cmake --build "$dir" --parallel "$(nproc)" ${DRAINSIM_TARGETS:+--target $DRAINSIM_TARGETS}; } \
      >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    drainsim_log "build failed; full log: $log"
    return 1
  fi
}

# Like drainsim_ensure_packages, but never fails: a package that cannot be installed (no network,
# not root, not in the archive) only costs the tests that need it, which then report themselves
# skipped by name.
drainsim_ensure_optional_packages() {
  [ "${DRAINSIM_NO_OPTIONAL_PACKAGES:-0}" = 1 ] && return 0
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  drainsim_log "optional: installing ${missing[*]} for the browser test of report.html (large; set DRAINSIM_NO_OPTIONAL_PACKAGES=1 to skip)"
  drainsim_ensure_packages "${missing[@]}" ||
    drainsim_log "optional: could not install ${missing[*]}; the browser tests will report themselves skipped"
  return 0
}

# uPlot, the charting library that report.html's interactive layer inlines at build time
# (third_party/uplot/PIN pins its version and SHA-512; reports/CMakeLists.txt inlines it). Fetched
# with npm (`npm pack`, which asks the npm registry, or npm's own cache when it has the tarball)
# into third_party/uplot/cache/uplot-VERSION.tgz, and kept only if its SHA-512 is the pinned one.
# Without npm, Debian's `nodejs npm` are installed first (Debian 12's npm 9 can `npm pack`).
# Without the registry the set-up carries on: the build then inlines nothing, report.html keeps its
# SVG charts only, and the browser test of the interactive layer reports itself skipped. A tarball
# that does not match the pin is an error (a registry's published tarball never changes: either
# the pin is wrong or what came is not uPlot's). DRAINSIM_NO_UPLOT=1 skips the fetch.
drainsim_uplot_pin() { sed -n "s/^$1=//p" "$DRAINSIM_ROOT/third_party/uplot/PIN"; }

# drainsim_sha512_is FILE HEX: true iff FILE's SHA-512 is HEX.
drainsim_sha512_is() { [ "$(sha512sum "$1" | cut -d' ' -f1)" = "$2" ]; }

drainsim_fetch_uplot() {
  [ "${DRAINSIM_NO_UPLOT:-0}" = 1 ] && return 0
  local version sha512
  version=$(drainsim_uplot_pin version)
  sha512=$(drainsim_uplot_pin sha512)
  local cache="$DRAINSIM_ROOT/third_party/uplot/cache"
  local tarball="$cache/uplot-$version.tgz"
  if [ -f "$tarball" ] && drainsim_sha512_is "$tarball" "$sha512"; then return 0; fi
  rm -f "$tarball"
  if ! command -v npm >/dev/null 2>&1; then
    drainsim_log "uplot: no npm; installing Debian's nodejs and npm to fetch uplot@$version"
    drainsim_ensure_packages nodejs npm || true
  fi
  if ! command -v npm >/dev/null 2>&1; then
    drainsim_log "uplot: no npm: report.html will have its SVG charts only (no interactive layer)"
    return 0
  fi
  mkdir -p "$cache"
  local work
  work=$(mktemp -d "$cache/fetch.XXXXXX")
  # A machine without the registry fails fast rather than retrying for minutes.
  if ! (cd "$work" && npm pack "uplot@$version" --prefer-offline --fetch-retries=1 \
          --fetch-timeout=60000 --loglevel=error) >"$work/npm.log" 2>&1 ||
     [ ! -f "$work/uplot-$version.tgz" ]; then
    tail -n 5 "$work/npm.log" >&2
    drainsim_log "uplot: npm could not fetch uplot@$version: report.html will have its SVG charts only (no interactive layer)"
    rm -rf "$work"
    return 0
  fi
  if ! drainsim_sha512_is "$work/uplot-$version.tgz" "$sha512"; then
    drainsim_log "uplot: uplot-$version.tgz from npm does not match the SHA-512 in third_party/uplot/PIN: discarded"
    rm -rf "$work"
    return 1
  fi
  mv "$work/uplot-$version.tgz" "$tarball"
  rm -rf "$work"
  drainsim_log "uplot: fetched uplot@$version (SHA-512 checked) into $tarball"
}

# The servers `drainsim live` starts privately (live/, README "Rehearsing for real"): tools/test
# installs them so that the live tests (ctest -L live) run, but a machine that cannot install them
# only loses those tests, which then report themselves skipped. Debian's postinst scripts would
# start the system-wide rabbitmq-server and postgresql services; drainsim never uses those and
# must not leave them running, so a policy-rc.d that refuses every start is in place during the
# install (invoke-rc.d and deb-systemd-invoke honour it: exit 101 = action forbidden), and any
# service process that appeared all the same is stopped afterwards. An existing policy-rc.d (a
# Docker image's) is left as it is.
DRAINSIM_SERVICE_PACKAGES=(rabbitmq-server postgresql)

# pgrep exits 1 when nothing matches, the usual case on a fresh machine: under `set -e` and
# pipefail that must not end the set-up.
drainsim_service_pids() { { pgrep -x 'beam.smp|epmd|postgres' 2>/dev/null || true; } | sort; }

drainsim_ensure_service_packages() {
  [ "${DRAINSIM_NO_SERVICE_PACKAGES:-0}" = 1 ] && return 0
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local policy=/usr/sbin/policy-rc.d ours=0 before
  before=$(drainsim_service_pids)
  if [ ! -e "$policy" ] && [ "$(id -u)" -eq 0 ]; then
    printf '#!/bin/sh\n# drainsim set-up: no service starts during this install\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    ours=1
  fi
  drainsim_log "services: installing ${missing[*]} for the live tests (their system services are not started)"
  drainsim_ensure_packages "${missing[@]}" ||
    drainsim_log "services: could not install ${missing[*]}; the live tests will report themselves skipped"
  [ "$ours" = 1 ] && rm -f "$policy"
  # Whatever started anyway (a systemd socket unit, a postinst that ignores the policy): stop it.
  local after
  after=$(drainsim_service_pids)
  if [ "$after" != "$before" ]; then
    drainsim_log "services: stopping what the install started"
    # Each stop may fail (no systemd, the service not running): none of that ends the set-up.
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
      systemctl stop rabbitmq-server postgresql epmd.socket epmd.service >/dev/null 2>&1 || true
    fi
    service rabbitmq-server stop >/dev/null 2>&1 || true
    service postgresql stop >/dev/null 2>&1 || true
    local pid
    for pid in $(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after")); do
      kill "$pid" 2>/dev/null || true
    done
  fi
  return 0
}

# drainsim_coverage_report BUILD_DIR: after a coverage build's tests ran, the line coverage of
# the project's code (not the tests') per folder on stdout and the annotated HTML report in
# BUILD_DIR/coverage/. Returns 1 when a folder is below its floor (tools/lib/coverage_summary.py).
drainsim_coverage_report() {
  local dir=$1 out="$1/coverage"
  rm -rf "$out" && mkdir -p "$out"
  ( cd "$DRAINSIM_ROOT" &&
    gcovr --root . --object-directory "$dir" -j "$(nproc)" \
      --filter 'sim/' --filter 'chaos/' --filter 'reports/' --filter 'experiments/' --filter 'tools/drainsim/' \
      --json-summary "$out/summary.json" --html-details "$out/index.html" ) >"$out/gcovr.log" 2>&1 || {
    tail -n 20 "$out/gcovr.log" >&2
    drainsim_log "gcovr failed; full log: $out/gcovr.log"
    return 2
  }
  printf 'HTML report: %s\n' "$out/index.html"
  python3 "$DRAINSIM_ROOT/tools/lib/coverage_summary.py" "$out/summary.json" || return 1
}
