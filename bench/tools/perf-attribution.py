#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Attributes the CPU samples of two `perf record` profiles of `grpc-profile` variants to assemblies (managed code,
through the runtime's perf map) and native libraries, per call, and prints where the second variant spends more.

Usage (see docs/performance.md, "Where the CPU goes"):
    perf-attribution.py CALLS BASELINE.data VARIANT.data [SYMBOL-FILTER]

CALLS is the number of calls each profile covers (the measured window of grpc-profile, e.g. 600 invocations x 512).
With SYMBOL-FILTER, it lists the symbols whose name contains it instead, with their sample counts in both profiles.
"""
import collections
import re
import subprocess
import sys


def samples(path):
    """(dso, symbol) -> sample count, self time only."""
    out = subprocess.run(
        ["perf", "report", "-i", path, "--no-children", "--sort", "dso,sym", "-g", "none", "--percent-limit", "0",
         "-F", "sample,dso,sym"],
        capture_output=True, text=True, check=True).stdout
    counts = collections.Counter()
    for line in out.splitlines():
        match = re.match(r"\s*(\d+)\s+(\S+)\s+(.*)", line)
        if match and not line.startswith("#"):
            symbol = re.sub(r"\[(OptimizedTier1|Optimized|InstrumentedTier\w*|Tier0|TierOSR)\]", "", match.group(3))
            counts[(match.group(2), symbol.strip())] += int(match.group(1))
    return counts


def group(dso, symbol):
    """The assembly of a managed frame (the first [Assembly] in its name), else the native library."""
    if dso.startswith("[JIT]"):
        assembly = re.search(r"\[([A-Za-z][\w.]+)\]\s", symbol[4:] if symbol.startswith("[.]") else symbol)
        name = assembly.group(1) if assembly else "runtime stubs"
        return "Kestrel" if name.startswith("Microsoft.AspNetCore.Server.Kestrel") else name
    return dso


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    calls = int(sys.argv[1])
    base, variant = samples(sys.argv[2]), samples(sys.argv[3])
    if len(sys.argv) == 5:
        flt = sys.argv[4]
        keys = {k[1] for k in base} | {k[1] for k in variant}
        by_symbol_a = collections.Counter({s: sum(n for (d, x), n in base.items() if x == s) for s in keys if flt in s})
        by_symbol_b = collections.Counter({s: sum(n for (d, x), n in variant.items() if x == s) for s in keys if flt in s})
        rows = sorted(((by_symbol_b[s] - by_symbol_a[s], s) for s in by_symbol_a.keys() | by_symbol_b.keys()), reverse=True)
        for diff, s in rows[:40]:
            print(f"{by_symbol_a[s]:6d} {by_symbol_b[s]:6d} {diff:+6d}  {s[:160]}")
        return
    ga, gb = collections.Counter(), collections.Counter()
    for (d, s), n in base.items():
        ga[group(d, s)] += n
    for (d, s), n in variant.items():
        gb[group(d, s)] += n
    total_a, total_b = sum(ga.values()), sum(gb.values())
    print(f"samples: baseline {total_a}, variant {total_b} ({(total_b - total_a) / max(1, total_a):+.1%}); per 1,000 calls "
          f"{1000 * total_a / calls:.2f} and {1000 * total_b / calls:.2f}")
    print(f"{'where':40s} {'baseline':>9s} {'variant':>9s} {'diff':>7s}  share of the difference")
    for name in sorted(ga.keys() | gb.keys(), key=lambda k: gb[k] - ga[k], reverse=True)[:20]:
        diff = gb[name] - ga[name]
        print(f"{name[:40]:40s} {ga[name]:9d} {gb[name]:9d} {diff:+7d}  {diff / max(1, total_b - total_a):6.1%}")


if __name__ == "__main__":
    main()
