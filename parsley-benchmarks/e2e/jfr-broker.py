#!/usr/bin/env python3
"""Summarises the broker's JFR recording of one end-to-end run (e2e.sh --profile writes broker.jfr):
its execution samples by thread group, the methods with the most samples of their own, and the
samples whose stack passes through each of a few steps of the produce path, among them Kafka's
per-record validation of an uncompressed batch (LogValidator, DefaultRecord.readFrom) and its
parse of each record's headers (DefaultRecord.readHeaders).

The recording covers the whole run, warm-up included, for every variant the run had, so compare
two runs of one variant (or one header-cost size) each with the same record counts
(docs/design-record/performance-results.md, "Results: realistic variant" and "What a header costs Kafka").

usage: jfr-broker.py broker.jfr [top-N]
"""
import collections
import json
import re
import subprocess
import sys

STEPS = [
    ("produce requests (KafkaApis.handleProduceRequest)", "KafkaApis.handleProduceRequest"),
    ("log append (UnifiedLog.append)", "UnifiedLog.append"),
    ("batch validation (LogValidator)", "LogValidator."),
    ("record parse (DefaultRecord.readFrom)", "DefaultRecord.readFrom"),
    ("header parse (DefaultRecord.readHeaders)", "DefaultRecord.readHeaders"),
    ("fetch requests (KafkaApis.handleFetchRequest)", "KafkaApis.handleFetchRequest"),
    ("network threads' selector (Selector.poll)", "Selector.poll"),
]
# Work of a produce request outside the log append: the response, the transaction check, the purgatory
# (also callbacks a request's lambdas run, whose frames name handleProduceRequest without the class).
PER_REQUEST = ("produce path outside the log append (per-request work)", "handleProduceRequest", "UnifiedLog.append")


def frame_name(frame):
    method = frame["method"]
    return method["type"]["name"].replace("/", ".") + "." + method["name"]


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", path],
                         capture_output=True, text=True, check=True).stdout
    events = json.loads(out)["recording"]["events"]
    threads = collections.Counter()
    own = collections.Counter()
    steps = collections.Counter()
    for event in events:
        values = event["values"]
        thread = (values.get("sampledThread") or {}).get("javaName") or "?"
        threads[re.sub(r"\d+", "N", thread)] += 1
        frames = [frame_name(f) for f in (values.get("stackTrace") or {}).get("frames") or []]
        if frames:
            own[frames[0]] += 1
        for name, marker in STEPS:
            if any(marker in f for f in frames):
                steps[name] += 1
        name, marker, outside = PER_REQUEST
        if any(marker in f for f in frames) and not any(outside in f for f in frames):
            steps[name] += 1
    total = len(events)
    print(f"{path}: {total} execution samples\n")
    print("| Thread group | Samples | Share |\n|---|---:|---:|")
    for name, n in threads.most_common(top):
        print(f"| {name} | {n} | {n / total:.1%} |")
    print("\n| Step (samples whose stack passes through it) | Samples | Share |\n|---|---:|---:|")
    for name, *_ in STEPS + [PER_REQUEST]:
        print(f"| {name} | {steps[name]} | {steps[name] / total:.1%} |")
    print("\n| Method (own samples) | Samples | Share |\n|---|---:|---:|")
    for name, n in own.most_common(top):
        print(f"| `{name}` | {n} | {n / total:.1%} |")


if __name__ == "__main__":
    main()
