#!/usr/bin/env bash
# Runs the storage topology live in a Linux network namespace of its own, one process per instance, and injects one
# fault: docs/reliability.md, "On a real network". Needs root, iproute2 and (for loss and partitions) nftables.
#
#   eng/netns/run.sh SCENARIO [--out DIR] [--duration S] [--fault-at S] [--fault-for S] [--delay-ms D --jitter-ms J]
#
# SCENARIO: baseline (no fault), delay (the fault proxy between every tier), loss (1% of packets dropped), partition
# (ps-0's rate-exchange link to every bs cut), kill (bs-1 SIGKILLed, restarted later), overload (the aggressor at 10x
# capacity), slow (bs-1 10x slower), soak (80% load, no fault). Writes DIR/results (the driver's report),
# DIR/monitor-*.csv (every process's per-second state), DIR/events.csv (when each fault began and ended, unix ms),
# DIR/logs and DIR/summary.json (eng/netns/analyze.py). Exit codes: 0 done, 3 namespaces or nftables unavailable
# (a line saying why), anything else a failure.
#
# Everything runs inside the namespace: traffic never leaves its loopback. The namespace, its nftables table and every
# process are removed on exit, even on failure or Ctrl+C.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
scenario=${1:?usage: run.sh baseline|delay|loss|partition|kill|overload|slow|soak [options]}
shift
out="results/netns-$scenario"
duration=40
fault_at=15
fault_for=10
delay_ms=1
jitter_ms=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --fault-at) fault_at=$2; shift 2 ;;
    --fault-for) fault_for=$2; shift 2 ;;
    --delay-ms) delay_ms=$2; shift 2 ;;
    --jitter-ms) jitter_ms=$2; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

skip() { echo "netns: skipped: $*"; exit 3; }
[ "$(id -u)" -eq 0 ] || skip "not root (network namespaces and nftables need CAP_NET_ADMIN)"
command -v ip >/dev/null || skip "iproute2 (ip) is not installed"
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
needs_nft=0
case "$scenario" in loss|partition) needs_nft=1 ;; esac
if [ "$needs_nft" -eq 1 ] && ! command -v nft >/dev/null; then
  skip "nftables (nft) is not installed (apt-get install -y nftables)"
fi

ns="cicero-$$"
ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace (ip netns add failed)"
pids=()
cleanup() {
  set +e
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
  done
  ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
  ip netns del "$ns" 2>/dev/null
  [ -n "${run_dir:-}" ] && rm -rf "$run_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
in_ns() { ip netns exec "$ns" "$@"; }
in_ns ip link set lo up
if [ "$needs_nft" -eq 1 ]; then
  in_ns nft list ruleset >/dev/null 2>&1 || skip "nftables does not work in a namespace here (nft list ruleset failed)"
fi

mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
rm -f "$out"/monitor-*.csv "$out/events.csv" "$out/summary.json"
chmod 0777 "$out" "$out/logs"
# What the instances (each under a uid of its own) read and write lives in a folder every uid can reach: the output
# folder may sit below one only root can enter (mktemp -d makes 0700 folders; a clone may live under /root).
run_dir=$(mktemp -d /tmp/cicero-netns.XXXXXX)
chmod 0777 "$run_dir"

# One port per instance; rate exchange 1000 above it (so nftables can cut it alone), the instance 2000 above it when
# the fault proxy holds the address. Each instance runs under a uid of its own (20000 + port), so nftables can tell
# whose packets it sees (meta skuid).
declare -A port=([fe-0]=5101 [fe-1]=5102 [ps-0]=5201 [ps-1]=5202 [bs-0]=5301 [bs-1]=5302 [bs-2]=5303)
instances=(bs-0 bs-1 bs-2 ps-0 ps-1 fe-0 fe-1)
addresses="$run_dir/addresses.json"
cat >"$addresses" <<EOF
{
  "fe": ["http://127.0.0.1:5101", "http://127.0.0.1:5102"],
  "ps": ["http://127.0.0.1:5201", "http://127.0.0.1:5202"],
  "bs": ["http://127.0.0.1:5301", "http://127.0.0.1:5302", "http://127.0.0.1:5303"]
}
EOF

# The scenario, with the run's duration and load.
python3 "$here/variant.py" "$here/scenario.json" "$scenario" "$duration" "$fault_at" "$fault_for" >"$run_dir/scenario.json"
cp "$run_dir/scenario.json" "$addresses" "$out/"

dll="$repo/samples/StorageTopology/bin/Release/net10.0/StorageTopology.dll"
proxy_dll="$repo/eng/netns/FaultProxy/bin/Release/net10.0/FaultProxy.dll"
[ -f "$dll" ] || dotnet build -c Release "$repo/samples/StorageTopology/StorageTopology.csproj" >"$out/logs/build.log" 2>&1
if [ "$scenario" = delay ] && [ ! -f "$proxy_dll" ]; then
  dotnet build -c Release "$repo/eng/netns/FaultProxy/FaultProxy.csproj" >"$out/logs/build-proxy.log" 2>&1
fi
cp -r "$(dirname "$dll")" "$run_dir/app"
chmod -R a+rX "$run_dir/app"
dll="$run_dir/app/StorageTopology.dll"

common=(--scenario "$run_dir/scenario.json" --runner live --addresses "$addresses")
if [ "$scenario" = delay ]; then
  common+=(--listen-port-offset 2000)
else
  common+=(--rate-exchange-port-offset 1000)
fi

declare -A pid_of
start_instance() {
  local name=$1 uid=$((20000 + ${port[$1]}))
  # Not through in_ns: a backgrounded function is a subshell, and $! must be the instance's own pid (SIGKILL).
  ip netns exec "$ns" setpriv --reuid="$uid" --regid="$uid" --clear-groups env HOME=/tmp DOTNET_CLI_TELEMETRY_OPTOUT=1 \
    dotnet "$dll" harness "${common[@]}" --host "$name" --monitor "$run_dir/monitor-$name.csv" --slow-factor 10 \
    >>"$out/logs/$name.log" 2>&1 &
  pid_of[$name]=$!
  pids+=("$!")
}
event() { echo "$(date +%s%3N),$1" >>"$out/events.csv"; }
listening() {
  local p
  for p in "$@"; do in_ns ss -Hltn "sport = :$p" | grep -q . || return 1; done
}

for name in "${instances[@]}"; do start_instance "$name"; done
if [ "$scenario" = delay ]; then
  # The proxy holds every instance's address and forwards to the instance 2000 above it, delaying each request and
  # each response by the one-way delay plus uniform jitter: the driver's calls to fe, fe's to ps, ps's to bs, and
  # rate exchange.
  ip netns exec "$ns" dotnet "$proxy_dll" --delay-ms "$delay_ms" --jitter-ms "$jitter_ms" --stats "$out/proxy-stats.csv" \
    --route 5101=7101 --route 5102=7102 --route 5201=7201 --route 5202=7202 --route 5301=7301 --route 5302=7302 --route 5303=7303 \
    >"$out/logs/proxy.log" 2>&1 &
  pids+=("$!")
fi

expected=()
for name in "${instances[@]}"; do
  if [ "$scenario" = delay ]; then expected+=($((${port[$name]} + 2000)) "${port[$name]}"); else expected+=("${port[$name]}"); fi
done
# Up to 2 minutes: seven .NET processes start and JIT at once, which on a loaded 2-core CI machine has taken most of a minute.
for _ in $(seq 1200); do listening "${expected[@]}" && break; sleep 0.1; done
if ! listening "${expected[@]}"; then
  echo "netns: instances did not start (listening: $(in_ns ss -Hltn | awk '{print $4}' | tr '\n' ' ')); see $out/logs" >&2
  # CI deletes the output folder: say here what each process said.
  for log in "$out"/logs/*.log; do echo "--- $(basename "$log"):" >&2; tail -n 15 "$log" >&2; done
  exit 1
fi

# The driver hosts no instance: it offers the load to fe-0 and fe-1 and books every outcome.
ip netns exec "$ns" env DOTNET_CLI_TELEMETRY_OPTOUT=1 dotnet "$dll" harness "${common[@]}" --output "$out/results" --monitor "$out/monitor-driver.csv" \
  >"$out/logs/driver.log" 2>&1 &
driver=$!
pids+=("$driver")
for _ in $(seq 1200); do [ -s "$out/monitor-driver.csv" ] && grep -q ',driver,start,' "$out/monitor-driver.csv" && break; sleep 0.05; done
t0=$(grep -m1 ',driver,start,' "$out/monitor-driver.csv" | cut -d, -f1) || { echo "netns: the driver did not start; see $out/logs/driver.log" >&2; exit 1; }
event "start"
# Waits until $1 whole seconds after the driver's start.
sleep_until() {
  local at_ms=$((t0 + $1 * 1000)) now
  now=$(date +%s%3N)
  if [ "$at_ms" -gt "$now" ]; then sleep "$(((at_ms - now) / 1000)).$(printf %03d $(((at_ms - now) % 1000)))"; fi
}

nft_table() { in_ns nft -f - <<EOF
table inet cicero {
  chain out {
    type filter hook output priority 0; policy accept;
    $1
  }
}
EOF
}
case "$scenario" in
  loss)
    sleep_until "$fault_at"; event "fault"
    # 1% of every TCP packet in the namespace, in both directions (loopback packets pass the output hook once).
    nft_table "meta l4proto tcp numgen random mod 100 < 1 counter drop"
    sleep_until "$((fault_at + fault_for))"; in_ns nft list table inet cicero >"$out/nft-counters.txt"; in_ns nft delete table inet cicero; event "heal" ;;
  partition)
    sleep_until "$fault_at"; event "fault"
    # ps-0's connections to the block servers' rate-exchange ports, both directions: its packets mark the connection,
    # and every packet of a marked connection is dropped. Calls (ports 5301-5303) keep flowing.
    nft_table "meta skuid $((20000 + 5201)) tcp dport { 6301, 6302, 6303 } ct mark set 0x22
    ct mark 0x22 counter drop"
    sleep_until "$((fault_at + fault_for))"; in_ns nft list table inet cicero >"$out/nft-counters.txt"; in_ns nft delete table inet cicero; event "heal" ;;
  kill)
    sleep_until "$fault_at"; kill -KILL "${pid_of[bs-1]}"; event "fault"
    sleep_until "$((fault_at + fault_for))"; start_instance bs-1; event "heal"
    for _ in $(seq 600); do listening 5302 && break; sleep 0.05; done; event "listening" ;;
  slow)
    sleep_until "$fault_at"; kill -USR1 "${pid_of[bs-1]}"; event "fault"
    sleep_until "$((fault_at + fault_for))"; kill -USR2 "${pid_of[bs-1]}"; event "heal" ;;
  overload)
    # The aggressor's flood is in the scenario's workload (variant.py), timed by the driver itself.
    sleep_until "$fault_at"; event "fault"; sleep_until "$((fault_at + fault_for))"; event "heal" ;;
esac

status=0
wait "$driver" || status=$?
event "end"
echo "driver exit code $status" >>"$out/logs/driver.log"
cp "$run_dir"/monitor-*.csv "$out/" 2>/dev/null || true
python3 "$here/analyze.py" "$out" --scenario "$scenario" >"$out/summary.txt" || status=$((status == 0 ? 5 : status))
cat "$out/summary.txt"
exit "$status"
