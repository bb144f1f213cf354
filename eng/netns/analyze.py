#!/usr/bin/env python3
"""Figures of one namespace run (eng/netns/run.sh): conservation per workflow, compliant tenants' completion and p99,
throughput recovery after the fault and after it ends, σ at ps-0 and the traffic share of bs-1 before, during and after,
and, for a soak, each process's memory, threads and handles with their slopes.

usage: analyze.py RUN_DIR [--scenario NAME] [--assert] [--baseline BASELINE_RUN_DIR]

Writes RUN_DIR/summary.json and prints a summary. With --assert, exits 1 when a check of the reduced CI run fails
(0 unaccounted, every failure with a reason, compliant tenants' completion, throughput back within --recovery-limit
seconds of the fault and of its end)."""
import argparse
import csv
import json
import os
import sys
from collections import defaultdict

COMPLIANT = ("c1", "c2")


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def events(run):
    found = {}
    with open(os.path.join(run, "events.csv"), encoding="utf-8") as f:
        for line in f:
            ms, name = line.strip().split(",", 1)
            found.setdefault(name, int(ms))
    return found


def monitors(run, owners=None):
    """{source: {metric: [(unix_ms, value)]}} over every monitor file; owners gets each process's file's name."""
    data = defaultdict(lambda: defaultdict(list))
    for name in sorted(os.listdir(run)):
        if name.startswith("monitor-") and name.endswith(".csv"):
            with open(os.path.join(run, name), encoding="utf-8") as f:
                for line in f:
                    parts = line.strip().split(",")
                    if len(parts) == 4:
                        data[parts[1]][parts[2]].append((int(parts[0]), float(parts[3])))
                        if owners is not None and parts[1].startswith("pid-"):
                            owners[parts[1]] = name[len("monitor-"):-len(".csv")]
    return data


def slope_per_10min(points):
    """Least-squares slope of (seconds, value) points, per 10 minutes."""
    n = len(points)
    if n < 2:
        return None
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    return None if sxx == 0 else sum((p[0] - mx) * (p[1] - my) for p in points) / sxx * 600


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run")
    parser.add_argument("--scenario", default="")
    parser.add_argument("--assert", dest="check", action="store_true")
    parser.add_argument("--recovery-limit", type=float, default=2.0)
    parser.add_argument("--min-compliant", type=float, default=0.99, help="least completed fraction of c1 and c2 (measured window)")
    parser.add_argument("--baseline")
    parser.add_argument("--warm-up", type=float, default=300.0, help="soak: seconds left out of the slopes")
    args = parser.parse_args()
    run = args.run
    results = os.path.join(run, "results")
    ev = events(run)
    owners = {}
    mon = monitors(run, owners)
    t0 = mon["driver"]["start"][0][0]

    def rel(ms):
        return (ms - t0) / 1000.0

    summary = {"scenario": args.scenario, "events": {k: rel(v) for k, v in ev.items()}}
    problems = []

    # Conservation over the whole run, from the per-second series (every request's outcome is binned in the second it
    # ended, so the totals cover requests in flight when a process died); the driver checks it too and exits 4.
    series = read_csv(os.path.join(results, "timeseries.csv"))
    totals = defaultdict(lambda: defaultdict(int))
    per_second = defaultdict(lambda: defaultdict(int))
    compliant_per_second = defaultdict(lambda: defaultdict(int))
    for row in series:
        for key in ("offered", "completed", "dropped", "failed"):
            totals[row["workflow"]][key] += int(row[key])
            per_second[int(row["second"])][key] += int(row[key])
            if row["workflow"] in COMPLIANT:
                compliant_per_second[int(row["second"])][key] += int(row[key])
    conservation = {}
    for workflow, t in totals.items():
        unaccounted = t["offered"] - t["completed"] - t["dropped"] - t["failed"]
        conservation[workflow] = dict(t, unaccounted=unaccounted)
        if unaccounted != 0:
            problems.append(f"{workflow}: {unaccounted} unaccounted")
    summary["conservation"] = conservation

    # The measured window, with reasons.
    document = json.load(open(os.path.join(results, "results.json"), encoding="utf-8"))
    workflows = {}
    for w in document["runs"][0]["workflows"]:
        workflows[w["workflow"]] = {
            "offered": w["offered"], "completed": w["completed"], "dropped": w["dropped"], "failed": w["failed"],
            "dropped_by_reason": w["droppedByReason"], "failed_by_reason": w["failedByReason"],
            "completed_fraction": w["completedFraction"], "p99_ms": w["latencyMs"]["p99"], "p50_ms": w["latencyMs"]["p50"],
        }
        if sum(w["failedByReason"].values()) != w["failed"]:
            problems.append(f"{w['workflow']}: {w['failed']} failed but {sum(w['failedByReason'].values())} with a reason")
    summary["workflows"] = workflows
    for w in COMPLIANT:
        if w in workflows and workflows[w]["completed_fraction"] < args.min_compliant:
            problems.append(f"{w} completed {100 * workflows[w]['completed_fraction']:.2f}% (least {100 * args.min_compliant:.0f}%)")

    # Throughput recovery: the first second after an event in which the compliant tenants' completions reach 95% of
    # what they offered that second (and 90% of their mean before the fault), counted to that second's end; per-second
    # bins, so 1 s is the resolution. Compliant tenants only: under overload the aggressor's excess is refused by design.
    fault = summary["events"].get("fault")
    before = [s for s in compliant_per_second if 5 <= s < (fault if fault is not None else 1e9) - 1]
    mean_before = sum(compliant_per_second[s]["completed"] for s in before) / max(1, len(before))
    summary["compliant_completed_per_s_before"] = mean_before

    def recovery(at):
        if at is None:
            return None
        for second in sorted(s for s in compliant_per_second if s + 1 > at):
            p = compliant_per_second[second]
            if p["completed"] >= 0.95 * p["offered"] and p["completed"] >= 0.9 * mean_before:
                return max(0.0, second + 1 - at)
        return float("inf")

    recover = {}
    for name in ("fault", "heal", "listening"):
        if name in summary["events"]:
            recover[name] = recovery(summary["events"][name])
    summary["recovery_s"] = recover
    summary["per_second"] = {s: dict(per_second[s]) for s in sorted(per_second)}
    if args.scenario in ("kill", "partition"):
        for name in ("fault", "heal"):
            if recover.get(name, 0) > args.recovery_limit:
                problems.append(f"throughput back {recover[name]:.0f} s after the {name} (limit {args.recovery_limit:.0f} s)")

    # σ at ps-0 (announced, and the downstream rate it admits under) around the fault.
    def around(series_points):
        out = {}
        for ms, value in series_points:
            out.setdefault(int(rel(ms)), value)
        return out

    sigma = {}
    for metric in ("sigma", "downstream"):
        for workflow in ("c1", "c2", "aggressor"):
            sigma[f"{metric}:{workflow}"] = around(mon.get("ps-0", {}).get(f"{metric}:{workflow}", []))
    summary["ps0"] = sigma
    if fault is not None and "heal" in summary["events"]:
        heal = summary["events"]["heal"]
        during = {k: [v for s, v in series_.items() if fault <= s < heal] for k, series_ in sigma.items()}
        summary["ps0_during"] = {k: {"min": min(v) if v else None, "max": max(v) if v else None, "distinct": len(set(v))} for k, v in during.items()}

    # Share of the block servers' work done by bs-1, per second (served counters' differences).
    served = {}
    for name in ("bs-0", "bs-1", "bs-2"):
        points = mon.get(name, {}).get("served", [])
        per = {}
        for (ms0, v0), (ms1, v1) in zip(points, points[1:]):
            per[int(rel(ms1))] = max(0.0, v1 - v0) if v1 >= v0 else v1  # a restart starts the counter again
        served[name] = per
    share = {}
    for second in sorted(set().union(*[set(v) for v in served.values()])):
        total = sum(served[n].get(second, 0) for n in served)
        if total > 0:
            share[second] = served["bs-1"].get(second, 0) / total
    summary["bs1_share"] = share

    def window_share(a, b):
        vals = [served[n].get(s, 0) for n in served for s in range(int(a), int(b))]
        total = sum(vals)
        mine = sum(served["bs-1"].get(s, 0) for s in range(int(a), int(b)))
        return None if total == 0 else mine / total

    if fault is not None and "heal" in summary["events"]:
        heal = summary["events"]["heal"]
        summary["bs1_share_windows"] = {
            "before": window_share(5, fault), "during": window_share(fault + 1, heal), "after": window_share(heal + 3, heal + 13)}

    # Processes: resident memory, threads, thread pool, handles.
    processes = {}
    for source, metrics in mon.items():
        if not source.startswith("pid-"):
            continue
        entry = {"process": owners.get(source, source)}
        # gen2-collections, live-after-gen2-bytes and gc-committed-bytes: monitors since 2026-11-26 16:00 only. What the
        # collector has committed against the resident set tells the managed side's growth from the native side's.
        committed = dict(metrics.get("gc-committed-bytes", []))
        native = [(ms, v - committed[ms]) for ms, v in metrics.get("rss-bytes", []) if ms in committed]
        for metric, series in [(m, metrics.get(m, [])) for m in (
                "rss-bytes", "threads", "threadpool-threads", "handles", "heap-bytes",
                "gc-committed-bytes", "gen2-collections", "live-after-gen2-bytes")] + [("rss-minus-gc-committed-bytes", native)]:
            points = [(rel(ms), v) for ms, v in series]
            sampled = points[::10]  # every 10 s
            late = [p for p in sampled if p[0] >= args.warm_up]
            entry[metric] = {"first": points[0][1] if points else None, "last": points[-1][1] if points else None,
                             "max": max(p[1] for p in points) if points else None,
                             "slope_per_10min_after_warm_up": slope_per_10min(late)}
        processes[source] = entry
    summary["processes"] = processes

    if args.baseline:
        base = json.load(open(os.path.join(args.baseline, "summary.json"), encoding="utf-8"))
        summary["baseline"] = {w: base["workflows"][w] for w in COMPLIANT if w in base["workflows"]}

    summary["problems"] = problems
    with open(os.path.join(run, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)

    print(f"netns {args.scenario}: events (s from the driver's start) " + ", ".join(f"{k} {v:.2f}" for k, v in summary["events"].items()))
    for w, c in conservation.items():
        m = workflows.get(w, {})
        print(f"  {w}: offered {c['offered']}, completed {c['completed']}, dropped {c['dropped']} {m.get('dropped_by_reason', {})}, "
              f"failed {c['failed']} {m.get('failed_by_reason', {})}, unaccounted {c['unaccounted']}; measured window "
              f"{100 * (m.get('completed_fraction') or 0):.2f}% completed, p99 {float(m.get('p99_ms', 'nan')):.1f} ms")
    print(f"  compliant tenants' completions/s before the fault {mean_before:.1f}; throughput back (s after): {recover}")
    if "ps0_during" in summary:
        print(f"  ps-0 during the fault: {summary['ps0_during']}")
    if "bs1_share_windows" in summary:
        print(f"  bs-1 share of block reads: {summary['bs1_share_windows']}")
    for source, entry in processes.items():
        rss = entry["rss-bytes"]
        line = (f"  {entry['process']} ({source}): rss {rss['first'] / 2**20:.0f} -> {rss['last'] / 2**20:.0f} MB (max {rss['max'] / 2**20:.0f}), "
                f"threads {entry['threads']['last']:.0f}, handles {entry['handles']['last']:.0f}")
        if entry["gc-committed-bytes"]["last"] is not None:
            slope = entry["rss-bytes"]["slope_per_10min_after_warm_up"]
            gc = entry["gc-committed-bytes"]
            line += (f"; after warm-up, MB / 10 min: rss {(slope or 0) / 2**20:+.2f}, gc committed "
                     f"{(gc['slope_per_10min_after_warm_up'] or 0) / 2**20:+.2f}, rss - gc committed "
                     f"{(entry['rss-minus-gc-committed-bytes']['slope_per_10min_after_warm_up'] or 0) / 2**20:+.2f}; "
                     f"gen2 collections {entry['gen2-collections']['last']:.0f}")
        print(line)
    if problems:
        print("  PROBLEMS: " + "; ".join(problems))
    if args.check and problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
