#!/bin/sh
# The frozen-behaviour check (tools/frozen/check) on itself, in about a second:
#  1. the same binary as base and new: every run identical, exit 0;
#  2. a base that writes a different fingerprint for one scenario: exit 1, that scenario's
#     three seeds listed as different (with the fingerprint line) and the other's identical;
#  3. a base with another drainsim_version: every run different, and identical with
#     --ignore-version.
# Usage: frozen_check_test.sh SOURCE_DIR DRAINSIM WORK_DIR
set -u
source_dir=$1 drainsim=$2 work=$3
check="$source_dir/tools/frozen/check"
small="$source_dir/scenarios/live-poison.json"
other="$source_dir/tests/fuzz/regressions/restart-stale-attempts.json"
rm -rf "$work" && mkdir -p "$work" || exit 2

# run_check BASE WANTED_EXIT SUMMARY [OPTION]: runs the check with BASE as the base binary;
# sets $out.
run_check() {
  out=$("$check" --base-binary "$1" --new-binary "$drainsim" --build-dir "$work" ${4:-} \
        "$small" "$other" 2>&1)
  code=$?
  echo "$out"
  [ $code -eq "$2" ] || { echo "FAIL: base $1: exit $code (want $2)"; exit 1; }
  echo "$out" | grep -q "$3" || { echo "FAIL: base $1: no summary '$3'"; exit 1; }
}

run_check "$drainsim" 0 "2 scenarios x 3 seeds .* = 6 runs: 6 identical, 0 different"

# A base that is drainsim with its fingerprint altered for live-poison only.
altered="$work/altered-drainsim"
cat > "$altered" <<WRAPPER
#!/bin/sh
"$drainsim" "\$@"; code=\$?
out=""; prev=""
for arg in "\$@"; do [ "\$prev" = --out ] && out=\$arg; prev=\$arg; done
case "\$*" in *live-poison*) [ -n "\$out" ] &&
  sed -i 's/"fingerprint": "/"fingerprint": "0/' "\$out/report.json" ;; esac
exit \$code
WRAPPER
chmod +x "$altered"
run_check "$altered" 1 "6 runs: 3 identical, 3 different"
[ "$(echo "$out" | grep -c 'different: scenarios/live-poison.json seed .*fingerprint')" -eq 3 ] ||
  { echo "FAIL: the three live-poison seeds are not listed with their fingerprint line"; exit 1; }

# A base that is drainsim with another version stamp in every report.
stamped="$work/stamped-drainsim"
cat > "$stamped" <<WRAPPER
#!/bin/sh
"$drainsim" "\$@"; code=\$?
out=""; prev=""
for arg in "\$@"; do [ "\$prev" = --out ] && out=\$arg; prev=\$arg; done
[ -n "\$out" ] && sed -i 's/"drainsim_version": "[^"]*"/"drainsim_version": "0.0.0 (other)"/' "\$out/report.json"
exit \$code
WRAPPER
chmod +x "$stamped"
run_check "$stamped" 1 "6 runs: 0 identical, 6 different"
run_check "$stamped" 0 "6 runs: 6 identical, 0 different" --ignore-version
echo "PASS"
