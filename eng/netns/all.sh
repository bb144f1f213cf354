#!/usr/bin/env bash
# Every scenario of docs/reliability.md, "On a real network", one after another (about 12 minutes), then the tables:
#   eng/netns/all.sh [OUT_DIR]      (default results/netns)
# The 30-minute soak is separate: eng/netns/run.sh soak --duration 1800 (see the doc).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-results/netns}
mkdir -p "$out"
run() { local name=$1; shift; echo "== $name"; bash "$here/run.sh" "$@" --out "$out/$name" | tail -n 20; }
run baseline baseline
run loss loss
run partition partition
run kill kill
run overload overload
run slow slow
run delay-0.25 delay --delay-ms 0.25 --jitter-ms 1
run delay-1 delay --delay-ms 1 --jitter-ms 1
run delay-5 delay --delay-ms 5 --jitter-ms 1
python3 "$here/tables.py" "$out"
