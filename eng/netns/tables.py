#!/usr/bin/env python3
"""Markdown tables of the namespace runs (eng/netns/all.sh): one per scenario, from each run's summary.json.
usage: tables.py OUT_DIR   (the folder holding baseline/, loss/, partition/, ...)"""
import json
import os
import sys

ORDER = ["soak", "baseline", "delay-0.25", "delay-1", "delay-5", "loss", "partition", "kill", "overload", "slow"]


def load(folder, name):
    path = os.path.join(folder, name, "summary.json")
    return json.load(open(path, encoding="utf-8")) if os.path.exists(path) else None


def reasons(d):
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items())) if d else "-"


def fmt(x, spec=".1f"):
    try:
        return format(float(x), spec)
    except (TypeError, ValueError):
        return "-"


def main():
    folder = sys.argv[1]
    base = load(folder, "baseline")
    for name in ORDER:
        s = load(folder, name)
        if s is None:
            continue
        print(f"\n#### {name}\n")
        ev = s["events"]
        print("| workflow | offered | completed | dropped (reasons, measured window) | failed (reasons, measured window) | unaccounted | completed % | p99 ms | without the fault: completed % / p99 ms |")
        print("|---|---:|---:|---|---|---:|---:|---:|---|")
        for w, c in s["conservation"].items():
            m = s["workflows"].get(w, {})
            b = (base or {}).get("workflows", {}).get(w)
            vs = f"{100 * b['completed_fraction']:.2f}% / {fmt(b['p99_ms'])}" if b and name != "baseline" else ""
            print(f"| {w} | {c['offered']:,} | {c['completed']:,} | {c['dropped']:,} ({reasons(m.get('dropped_by_reason'))}) | "
                  f"{c['failed']:,} ({reasons(m.get('failed_by_reason'))}) | {c['unaccounted']} | "
                  f"{100 * (m.get('completed_fraction') or 0):.2f}% | {fmt(m.get('p99_ms'))} | {vs} |")
        notes = [f"compliant tenants' completions/s before the fault {s['compliant_completed_per_s_before']:.1f}"]
        if "fault" in ev:
            notes.append(f"fault at {ev['fault']:.2f} s, ended at {ev.get('heal', float('nan')):.2f} s")
        for k, v in s.get("recovery_s", {}).items():
            notes.append(f"compliant throughput back {fmt(v, '.2f')} s after the {k}" + (" (restarted process listening)" if k == "listening" else ""))
        if "bs1_share_windows" in s:
            w = s["bs1_share_windows"]
            notes.append("bs-1's share of block reads before / during / after: " + " / ".join(fmt(100 * v if v is not None else None, '.1f') + "%" for v in (w['before'], w['during'], w['after'])))
        print("\n" + "; ".join(notes) + ".")
        if name in ("partition", "kill", "slow") and "fault" in ev:
            f, h = ev["fault"], ev.get("heal", ev["fault"])
            seconds = sorted({int(f) - 2, int(f) - 1, int(f), int(f) + 1, int(f) + 2, int(f) + 5, int(h) - 1, int(h), int(h) + 1, int(h) + 2, int(h) + 5})
            print("\n| s | " + " | ".join(str(x) for x in seconds) + " |")
            print("|---|" + "---:|" * len(seconds))
            for key in ("sigma:c1", "downstream:c1", "sigma:aggressor", "downstream:aggressor"):
                row = s["ps0"].get(key, {})
                print(f"| ps-0 {key} | " + " | ".join(fmt(row.get(str(x)), '.0f') for x in seconds) + " |")
            per = s["per_second"]
            print("| completed / offered | " + " | ".join(f"{per.get(str(x), {}).get('completed', 0)}/{per.get(str(x), {}).get('offered', 0)}" for x in seconds) + " |")
            share = s["bs1_share"]
            print("| bs-1 share % | " + " | ".join(fmt(100 * share[str(x)] if str(x) in share else None, '.0f') for x in seconds) + " |")
        stats = os.path.join(folder, name, "proxy-stats.csv")
        if os.path.exists(stats):
            lines = open(stats, encoding="utf-8").read().splitlines()
            cols = dict(zip(lines[0].split(","), lines[1].split(",")))
            print(f"\nProxy: {cols['delays']} delays applied (each request and each response), configured {cols['configured_delay_ms']} ms ± {cols['configured_jitter_ms']} ms; "
                  f"applied mean {cols['mean_ms']} ms, p50 {cols['p50_ms']}, p99 {cols['p99_ms']}, max {cols['max_ms']} ms.")
        if name == "soak":
            print("\n| process | RSS first → last (max) MB | RSS slope after warm-up, MB / 10 min | managed heap slope, MB / 10 min | threads first → last (slope / 10 min) | thread-pool threads (slope) | handles first → last (slope / 10 min) |")
            print("|---|---|---:|---:|---|---|---|")
            mb = 2 ** 20
            for source, e in sorted(s["processes"].items(), key=lambda kv: kv[1]["process"]):
                r, h, t, tp, hd = e["rss-bytes"], e["heap-bytes"], e["threads"], e["threadpool-threads"], e["handles"]
                print(f"| {e['process']} | {r['first'] / mb:.0f} → {r['last'] / mb:.0f} ({r['max'] / mb:.0f}) | {fmt((r['slope_per_10min_after_warm_up'] or 0) / mb, '+.2f')} | "
                      f"{fmt((h['slope_per_10min_after_warm_up'] or 0) / mb, '+.2f')} | {t['first']:.0f} → {t['last']:.0f} ({fmt(t['slope_per_10min_after_warm_up'], '+.2f')}) | "
                      f"{tp['first']:.0f} → {tp['last']:.0f} ({fmt(tp['slope_per_10min_after_warm_up'], '+.2f')}) | {hd['first']:.0f} → {hd['last']:.0f} ({fmt(hd['slope_per_10min_after_warm_up'], '+.2f')}) |")
            if all(e.get("gc-committed-bytes", {}).get("last") is not None for e in s["processes"].values()):
                print("\n| process | RSS slope after warm-up | GC committed: last MB (slope) | RSS − GC committed: last MB (slope) | full (gen2) collections | live after the last one, MB |")
                print("|---|---:|---|---|---:|---:|")
                for source, e in sorted(s["processes"].items(), key=lambda kv: kv[1]["process"]):
                    r, c, n, g, l = (e["rss-bytes"], e["gc-committed-bytes"], e["rss-minus-gc-committed-bytes"],
                                     e["gen2-collections"], e["live-after-gen2-bytes"])
                    print(f"| {e['process']} | {fmt((r['slope_per_10min_after_warm_up'] or 0) / mb, '+.2f')} | "
                          f"{c['last'] / mb:.1f} ({fmt((c['slope_per_10min_after_warm_up'] or 0) / mb, '+.2f')}) | "
                          f"{n['last'] / mb:.1f} ({fmt((n['slope_per_10min_after_warm_up'] or 0) / mb, '+.2f')}) | {g['last']:.0f} | "
                          f"{fmt(l['last'] / mb if l['last'] is not None else None, '.1f')} |")
        if s.get("problems"):
            print("\nAgainst the goals: " + "; ".join(s["problems"]) + ".")


if __name__ == "__main__":
    main()
