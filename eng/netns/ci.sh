#!/usr/bin/env bash
# The reduced namespace run of CI (docs/reliability.md, "On a real network"): scenario (c), ps-0's rate-exchange link to
# the block servers cut for 10 s, and scenario (d), bs-1 SIGKILLed and restarted 10 s later, each 24 s of load in a
# network namespace of its own, one process per instance, with assertions (eng/netns/analyze.py --assert). Where
# namespaces or nftables cannot be had it prints one "skipped" line and succeeds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$(mktemp -d)}

if [ "$(id -u)" -ne 0 ]; then echo "netns reliability run: skipped: not root (network namespaces need CAP_NET_ADMIN)"; exit 0; fi
if ! command -v nft >/dev/null 2>&1; then
  # A fresh machine: Debian's nftables, from the distribution's own registry.
  if command -v apt-get >/dev/null 2>&1; then
    (apt-get install -y nftables >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y nftables >/dev/null 2>&1; }) || true
  fi
  if ! command -v nft >/dev/null 2>&1; then echo "netns reliability run: skipped: nftables (nft) is not installed and could not be installed"; exit 0; fi
fi

for scenario in partition kill; do
  status=0
  timeout 240 bash "$here/run.sh" "$scenario" --out "$out/$scenario" --duration 24 --fault-at 7 --fault-for 10 || status=$?
  if [ "$status" -eq 3 ]; then echo "netns reliability run: skipped (the reason is the line above)"; exit 0; fi
  if [ "$status" -ne 0 ]; then echo "netns reliability run: $scenario failed (exit $status); logs in $out/$scenario/logs" >&2; exit 1; fi
  # On a shared CI machine: the issue's goals are 99% and 2 s; CI allows a little more before it fails.
  python3 "$here/analyze.py" "$out/$scenario" --scenario "$scenario" --assert --min-compliant 0.90 --recovery-limit 3 >/dev/null \
    || { echo "netns reliability run: $scenario: $(python3 -c "import json,sys; print('; '.join(json.load(open(sys.argv[1]))['problems']))" "$out/$scenario/summary.json")" >&2; exit 1; }
  echo "netns reliability run: $scenario passed"
done
