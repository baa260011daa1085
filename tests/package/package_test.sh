#!/usr/bin/env bash
# The Debian package as a user gets it: cpack makes it from this build tree into a temporary
# directory (never a .deb left over from tools/package), then
#   - dpkg-deb --contents: the binary, the schema, every doc and every shipped scenario at the
#     paths cmake/packaging.cmake promises, and no test, benchmark or fuzzer program;
#   - dpkg-deb --field: Depends names exactly the Debian packages that own the shared libraries
#     the binary links (its ELF NEEDED entries: libc6, the Boost.Program_options runtime,
#     rabbitmq-c and libpq for `drainsim live`, the C++ runtime), nothing more;
#   - dpkg-deb -x: the extracted binary runs the extracted monthly rehearsal (its expectations
#     pass: exit 0) and writes a report.json that parses, and checks every extracted scenario;
#   - with the Python module (MODULE_FILE, its file name, and PYTHON, the python3 it is for; both
#     "none" when it is not built): it is at lib/python3/dist-packages/drainsim/, the libraries
#     it links count in Depends, python3 is Suggested, and the extracted module imported from the
#     extracted tree gives the report.json the extracted binary wrote, byte for byte.
# usage: package_test.sh SOURCE_DIR BUILD_DIR VERSION DRAINSIM_BINARY MODULE_FILE PYTHON
set -euo pipefail
src=$1
build=$2
version=$3
built_binary=$4
module_file=${5:-none}
python=${6:-none}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drainsim-package-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in cpack dpkg-deb dpkg-shlibdeps readelf python3; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (tools/test installs dpkg-dev)"
done
[ -x "$built_binary" ] || fail "no built drainsim at $built_binary"

cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log" >&2; fail "cpack failed"; }
arch=$(dpkg --print-architecture)
deb="$tmp/pkg/drainsim_${version}_${arch}.deb"
[ -f "$deb" ] || fail "cpack made no $(basename "$deb"): $(ls "$tmp/pkg")"

# --- contents ---------------------------------------------------------------------------------
dpkg-deb --contents "$deb" | awk '{sub(/ -> .*/, ""); print $NF}' | sed 's|^\./|/|' > "$tmp/contents"
expected=(/usr/bin/drainsim /usr/share/drainsim/schema.json /usr/share/doc/drainsim/README.md
          /usr/share/drainsim/scenarios/README.md /usr/share/drainsim/scenarios/presets/README.md)
for doc in "$src"/docs/*.md "$src"/docs/*.png; do expected+=("/usr/share/doc/drainsim/docs/$(basename "$doc")"); done
scenario_count=0
for scenario in "$src"/scenarios/*.json; do
  [ "$(basename "$scenario")" = schema.json ] && continue
  expected+=("/usr/share/drainsim/scenarios/$(basename "$scenario")")
  scenario_count=$((scenario_count + 1))
done
[ "$scenario_count" -ge 30 ] || fail "only $scenario_count scenarios in $src/scenarios"
site=/usr/lib/python3/dist-packages/drainsim
if [ "$module_file" != none ]; then
  expected+=("$site/__init__.py" "$site/$module_file")
fi
for path in "${expected[@]}"; do
  grep -qxF "$path" "$tmp/contents" || fail "the package lacks $path"
done
# Nothing but drainsim is a program (the module is a library of python3's), and nothing of the
# build tree's test programs is in it.
programs=$(grep -E '^/usr/(s?bin|libexec|lib)/' "$tmp/contents" | grep -v '/$' |
           grep -v "^$site/" || true)
[ "$programs" = /usr/bin/drainsim ] || fail "programs other than drainsim: $programs"
if grep -Ei 'test|bench|fuzz|catch' "$tmp/contents" | grep -v '^/usr/share/'; then
  fail "test, benchmark or fuzzer files in the package"
fi
[ ! -e "$tmp/pkg/drainsim_output_faults" ] || fail "a test binary beside the package"

# --- fields -----------------------------------------------------------------------------------
[ "$(dpkg-deb --field "$deb" Package)" = drainsim ] || fail "Package is not drainsim"
[ "$(dpkg-deb --field "$deb" Version)" = "$version" ] || fail "Version is not $version"
[ "$(dpkg-deb --field "$deb" Architecture)" = "$arch" ] || fail "Architecture is not $arch"
[ -n "$(dpkg-deb --field "$deb" Maintainer)" ] || fail "no Maintainer"
# Read whole first: grep -q stopping early would fail the pipeline (pipefail) with a SIGPIPE.
description=$(dpkg-deb --field "$deb" Description)
grep -q 'queue recovery' <<<"$description" || fail "no Description"
depends=$(dpkg-deb --field "$deb" Depends)
echo "Depends: $depends"
# The package names of Depends, without versions and alternatives' bars.
tr ',|' '\n\n' <<<"$depends" | sed 's/(.*)//; s/[[:space:]]//g' | grep -v '^$' | sort -u \
  > "$tmp/depends"

mkdir "$tmp/root"
dpkg-deb -x "$deb" "$tmp/root"
bin="$tmp/root/usr/bin/drainsim"
[ -x "$bin" ] || fail "no executable usr/bin/drainsim in the package"

# The packages owning the libraries the binary and the module name (NEEDED), found where the
# loader finds them.
elf_files=("$bin")
[ "$module_file" = none ] || elf_files+=("$tmp/root$site/$module_file")
: > "$tmp/owners"
for elf in "${elf_files[@]}"; do
  for needed in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    path=$(ldd "$elf" | awk -v lib="$needed" '$1 == lib {print $3}')
    [ -n "$path" ] || fail "ldd does not resolve $needed"
    owner=""
    for candidate in "$path" "$(readlink -f "$path")" "/usr$path" "${path#/usr}"; do
      owner=$(dpkg -S "$candidate" 2>/dev/null | sed -n "1s/:.*//p") && [ -n "$owner" ] && break
    done
    [ -n "$owner" ] || fail "no Debian package owns $path ($needed)"
    echo "$needed -> $owner"
    echo "$owner" >> "$tmp/owners"
  done
done
sort -u -o "$tmp/owners" "$tmp/owners"
for must in libc6 libboost-program-options; do
  grep -q "^$must" "$tmp/owners" || fail "the binary does not link $must's library"
done
if ! diff -u "$tmp/owners" "$tmp/depends"; then
  fail "Depends is not the set of packages of the linked libraries (- linked, + Depends)"
fi

# --- the extracted binary on an extracted scenario ---------------------------------------------
share="$tmp/root/usr/share/drainsim"
[[ "$("$bin" --version)" == "drainsim $version "* ]] || fail "drainsim --version does not say $version"
"$bin" check "$share"/scenarios/*.json "$share/schema.json" > "$tmp/check.log" ||
  { cat "$tmp/check.log"; fail "drainsim check refused an installed scenario"; }
set +e
"$bin" run "$share/scenarios/monthly-rehearsal.json" --out "$tmp/out" --quiet > "$tmp/run.log"
status=$?
set -e
# The monthly rehearsal's expectations all hold (README "A rehearsal, step by step"): exit 0.
[ "$status" -eq 0 ] || { cat "$tmp/run.log"; fail "the rehearsal exited $status, not 0"; }
grep -q '^expectations: 8 passed, 0 failed' "$tmp/run.log" || fail "not 8 expectations passed"
python3 - "$tmp/out/report.json" <<'PY' || fail "report.json does not parse or is not the rehearsal's"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["scenario"]["name"] == "monthly-rehearsal", report["scenario"]
assert report["lost"] == 0
assert all(e["passed"] for e in report["expectations"]) and len(report["expectations"]) == 8
PY

# --- the extracted Python module ---------------------------------------------------------------
if [ "$module_file" != none ]; then
  suggests=$(dpkg-deb --field "$deb" Suggests)
  grep -q 'python3 (>= ' <<<"$suggests" || fail "python3 is not Suggested: '$suggests'"
  # Imported from the extracted tree only (-I: no user site, no PYTHONPATH, no current folder), it
  # must give the bytes the extracted binary wrote for the same path and seed.
  (cd "$tmp" && "$python" -I - "$tmp/root/usr/lib/python3/dist-packages" \
     "$share/scenarios/monthly-rehearsal.json" "$tmp/out/report.json" <<'PY') ||
import sys
sys.path.insert(0, sys.argv[1])
import drainsim
assert drainsim.__file__.startswith(sys.argv[1]), drainsim.__file__
result = drainsim.run(sys.argv[2])
assert result.report_json.encode() == open(sys.argv[3], "rb").read()
assert result.passed
PY
    fail "the extracted Python module does not give the extracted binary's report.json"
  echo "the extracted Python module gave the same report.json"
fi
echo "ok: $(basename "$deb"): ${#expected[@]} paths, Depends $(paste -sd' ' "$tmp/depends"); the extracted rehearsal passed"
