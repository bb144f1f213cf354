#!/usr/bin/env python3
"""Writes the scenario of one namespace run (eng/netns/run.sh) to stdout: the base scenario with the run's duration
and load. usage: variant.py BASE.json SCENARIO DURATION FAULT_AT FAULT_FOR"""
import json
import sys

base, scenario, duration, fault_at, fault_for = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
with open(base, encoding="utf-8") as f:
    spec = json.load(f)
spec["durationSeconds"] = duration
disk = next(r for s in spec["services"] if s["name"] == "bs" for r in s["resources"] if r["kind"] == "disk")
bs = next(s for s in spec["services"] if s["name"] == "bs")
capacity = bs["instances"] * disk["capacity"] / 0.020  # requests per second: every read holds a disk slot 20 ms
if scenario == "soak":
    # 80% of capacity, shared by the three tenants.
    for w in spec["workloads"]:
        w["ratePerSecond"] = round(0.8 * capacity / len(spec["workloads"]), 3)
elif scenario == "overload":
    # The aggressor at 10x the topology's capacity while the fault lasts, then back to its share.
    aggressor = next(w for w in spec["workloads"] if w["workflow"] == "aggressor")
    aggressor["steps"] = [{"atSeconds": fault_at, "ratePerSecond": 10 * capacity},
                          {"atSeconds": fault_at + fault_for, "ratePerSecond": aggressor["ratePerSecond"]}]
json.dump(spec, sys.stdout, indent=2)
