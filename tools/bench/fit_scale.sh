#!/bin/bash
# Issue 17's scale figure: `drainsim fit` on 1M spans, time and peak memory.
#
# Usage: tools/bench/fit_scale.sh [DRAINSIM] [WORK_DIR]
#   DRAINSIM  the binary (default build/tools/drainsim/drainsim, a Release build)
#   WORK_DIR  where the telemetry goes (default /tmp/drainsim-fit-scale; about 1.7 GB)
#
# A run's export holds at most 200,000 spans (docs/TELEMETRY.md, "Bounds"), so the 1M spans come
# from five runs of the fit round trip's scenario scaled ten times (200 messages/s for 1000 s,
# 80 workers; about 217,000 attempts, the first 200,000 exported), each with its own kind
# (job0..job4) and seed, so that their messages stay apart. Then two measurements, each with
# /usr/bin/time -v: the five files given to one `drainsim fit`, and the same spans joined into
# one file of five resources (about 855 MB: what one large export from a real system looks
# like). Prints wall time, CPU time and peak RSS of each; RESULTS.md records them.
set -euo pipefail
drainsim=${1:-build/tools/drainsim/drainsim}
work=${2:-/tmp/drainsim-fit-scale}
mkdir -p "$work"
files=()
for i in 0 1 2 3 4; do
  cat > "$work/s$i.json" <<SCENARIO
{"format_version": 1, "name": "fit-scale-$i", "seed": $((17 + i)), "run": {"until_s": 1100},
 "kinds": {"job$i": {"handler": {"cpu_ms": {"lognormal": {"mu": 2.3, "sigma": 0.6}}}}},
 "producers": [{"kind": "job$i", "poisson": {"rate_per_s": 200, "until_s": 1000}}],
 "workers": {"count": 80, "prefetch": 1},
 "retry": {"backoff": {"kind": "constant", "delay_s": 1, "jitter": {"kind": "none"}},
           "classes": {"transient": {"attempts_max": 4}}},
 "faults": [{"type": "errors", "kind": "job$i", "probability": 0.08, "error": "transient"},
            {"type": "errors", "kind": "job$i", "probability": 0.03, "error": "permanent"}]}
SCENARIO
  if [ ! -s "$work/o$i/otlp-traces.json" ]; then
    "$drainsim" run "$work/s$i.json" --format otlp --out "$work/o$i" --quiet > /dev/null
  fi
  files+=("$work/o$i/otlp-traces.json")
done
# One file: {"resourceSpans":[ the five files' resources ]}. Each export is compact JSON that
# starts with {"resourceSpans":[ (18 bytes) and ends with ]}\n (3 bytes).
one="$work/one-1m.json"
if [ ! -s "$one" ]; then
  {
    printf '{"resourceSpans":['
    sep=""
    for f in "${files[@]}"; do
      printf '%s' "$sep"
      size=$(stat -c %s "$f")
      tail -c +19 "$f" | head -c $((size - 18 - 3))
      sep=","
    done
    printf ']}\n'
  } > "$one"
fi
measure() {
  local name=$1
  shift
  /usr/bin/time -v "$drainsim" fit "$@" -o "$work/$name.fragment.json" > "$work/$name.summary" \
    2> "$work/$name.time"
  local spans
  spans=$(head -1 "$work/$name.summary" | sed 's/.*: \([0-9]*\) process spans.*/\1/')
  awk -v name="$name" -v spans="$spans" -F': ' '
    /Elapsed \(wall clock\)/ { wall = $2 }
    /User time/ { user = $2 }
    /System time/ { sys = $2 }
    /Maximum resident set size/ { rss = $2 }
    END { printf "%s: %s spans, wall %s, user %s s, system %s s, peak RSS %.0f MB\n",
          name, spans, wall, user, sys, rss / 1024 }' "$work/$name.time"
}
echo "machine: $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
measure five-files "${files[@]}"
measure one-file "$one"
