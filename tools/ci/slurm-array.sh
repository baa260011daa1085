#!/usr/bin/env bash
# A drainsim sweep as a Slurm job array, then merged: one array task per shard, and a merge job
# that starts when every task has succeeded (afterok). Submit it from a login node:
#
#   SCENARIO=scenarios/bulk-vs-drip-drip.json VARY=/drains/0/rate_per_s=50:1000:50 \
#   REPLICATIONS=20 SHARDS=16 tools/ci/slurm-array.sh submit
#
# or try the same steps on one machine, shard after shard, without Slurm:
#
#   tools/ci/slurm-array.sh local
#
# Needs a filesystem shared by the login node and the compute nodes: WORK_DIR holds the parts
# (WORK_DIR/parts/part-i-of-N.json) and the merged result (WORK_DIR/out/). DRAINSIM is the binary:
# `drainsim` on the PATH where the package is installed (build it once with tools/package, then
# `apt-get install ./build/drainsim_*.deb` on the nodes), else this checkout's build tree.
# Array task i runs shard i of N (--array=1-N: drainsim numbers shards from 1; the runs whose
# index is i - 1 modulo N); seeds follow from the scenario's seed and the replication index, so
# nothing coordinates the tasks.
# For `drainsim run SCENARIO --replications N` instead of a sweep, change shard_command.
#
#SBATCH --job-name=drainsim-sweep
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --output=drainsim-sweep-%A_%a.log
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${SCENARIO:=scenarios/bulk-vs-drip-drip.json}"
: "${VARY:=/drains/0/rate_per_s=50:1000:50}"
: "${REPLICATIONS:=10}"
: "${SHARDS:=8}"
: "${WORK_DIR:=$PWD/drainsim-sweep}"
: "${DRAINSIM:=$(command -v drainsim || echo "$here/../../build/tools/drainsim/drainsim")}"
export SCENARIO VARY REPLICATIONS SHARDS WORK_DIR DRAINSIM

shard_command() {  # shard_command INDEX
  "$DRAINSIM" sweep "$SCENARIO" --vary "$VARY" --replications "$REPLICATIONS" \
    --jobs "${SLURM_CPUS_PER_TASK:-1}" --shard "$1/$SHARDS" --out "$WORK_DIR/parts"
}

merge_command() {
  "$DRAINSIM" merge "$WORK_DIR"/parts/part-*-of-"$SHARDS".json --out "$WORK_DIR/out"
}

case "${1:-}" in
  submit)
    mkdir -p "$WORK_DIR/parts"
    array=$(sbatch --parsable --array=1-"$SHARDS" --export=ALL "$0" shard)
    sbatch --parsable --dependency="afterok:${array%%;*}" --export=ALL \
      --job-name=drainsim-merge --output=drainsim-merge-%j.log "$0" merge
    echo "submitted array job $array ($SHARDS shards) and its merge; result in $WORK_DIR/out/"
    ;;
  shard)
    # Array task i (1..N) runs shard i of N.
    shard_command "${SLURM_ARRAY_TASK_ID:?run through sbatch --array (see submit)}"
    ;;
  merge)
    merge_command
    ;;
  local)
    mkdir -p "$WORK_DIR/parts"
    for ((i = 1; i <= SHARDS; i++)); do shard_command "$i"; done
    merge_command
    ;;
  *)
    echo "usage: $0 submit | shard | merge | local (see the comment at the top)" >&2
    exit 2
    ;;
esac
