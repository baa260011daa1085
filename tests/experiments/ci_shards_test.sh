#!/usr/bin/env bash
# The shard templates of tools/ci/: the Slurm script's `local` mode (every shard in turn, then the
# merge) gives byte for byte what the unsharded sweep gives, and the GitHub matrix and Kubernetes
# templates shard and merge the same way: shards numbered from 1, the matrix's jobs on the one
# Debian package its first job builds.
# usage: ci_shards_test.sh SOURCE_DIR DRAINSIM_BINARY
set -euo pipefail
src=$1
bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

export SCENARIO="$src/scenarios/retry-storm-full-jitter.json"
export VARY=/workers/count=10,20
export REPLICATIONS=3
export SHARDS=3
export WORK_DIR="$tmp/slurm"
export DRAINSIM="$bin"
bash "$src/tools/ci/slurm-array.sh" local > "$tmp/local.log"
for i in 1 2 3; do
  [ -f "$WORK_DIR/parts/part-$i-of-3.json" ] || fail "the local mode wrote no part $i of 3"
done
[ ! -e "$WORK_DIR/parts/part-0-of-3.json" ] || fail "a part numbered 0: shards count from 1"
"$bin" sweep "$SCENARIO" --vary "$VARY" --replications "$REPLICATIONS" --out "$tmp/whole" \
  > "$tmp/whole.log"
diff -r "$tmp/whole" "$WORK_DIR/out" || fail "merged shards differ from the unsharded sweep"

github="$src/tools/ci/shards-github-matrix.yml"
k8s="$src/tools/ci/k8s-indexed-job.yaml"
grep -q -- '--shard "${{ matrix.shard }}/$SHARDS"' "$github" || fail "$github: no --shard i/N"
grep -q 'drainsim merge parts/\*.json' "$github" || fail "$github: no merge step"
grep -q 'needs: shard' "$github" || fail "$github: the merge does not wait for the shards"
grep -q 'needs: package' "$github" || fail "$github: the shards do not wait for the package"
grep -q 'run: tools/package' "$github" || fail "$github: no job builds the package"
[ "$(grep -c 'apt-get install .* ./deb/drainsim_\*.deb' "$github")" -eq 2 ] ||
  fail "$github: the shard and merge jobs do not both install the package"
if grep -q 'tools/run' "$github"; then fail "$github: a job still builds from source"; fi
grep -q -- '--array=1-"$SHARDS"' "$src/tools/ci/slurm-array.sh" ||
  fail "slurm-array.sh: the array is not numbered 1..SHARDS"
grep -q 'completionMode: Indexed' "$k8s" || fail "$k8s: not an Indexed Job"
# JOB_COMPLETION_INDEX counts from 0, shards from 1.
grep -q -- '--shard "$((JOB_COMPLETION_INDEX + 1))/8"' "$k8s" || fail "$k8s: no --shard k+1/8"
grep -q 'completions: 8' "$k8s" || fail "$k8s: completions and --shard disagree"
grep -q 'drainsim merge /parts/part-\*-of-8.json' "$k8s" || fail "$k8s: no merge of 8 parts"
if python3 -c 'import yaml' 2>/dev/null; then
  python3 - "$github" "$k8s" <<'PY' || fail "the templates do not parse as YAML"
import sys, yaml
workflow = yaml.safe_load(open(sys.argv[1]))
shards = workflow["jobs"]["shard"]["strategy"]["matrix"]["shard"]
assert shards == list(range(1, int(workflow["env"]["SHARDS"]) + 1)), shards
assert workflow["jobs"]["shard"]["needs"] == "package"
assert workflow["jobs"]["merge"]["needs"] == "shard"
kinds = [d["kind"] for d in yaml.safe_load_all(open(sys.argv[2]))]
assert kinds == ["PersistentVolumeClaim", "Job", "Job"], kinds
PY
fi
echo "ok: 3 Slurm shards (1..3) merged equal the unsharded sweep; templates shard and merge"
