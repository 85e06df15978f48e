#!/usr/bin/env python3
"""Summarises a JFR recording of the end-to-end harness (e2e.sh --profile): per Kafka Streams
application (thread name prefix e2e-<nonce>-<variant>-r<round>), the share of the stream
thread's execution samples under each method (inclusive) and at the top of the stack (self).

usage: jfr-hot.py harness.jfr [top-N] [thread-filter-substring]
"""
import collections
import json
import subprocess
import sys


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    want = sys.argv[3] if len(sys.argv) > 3 else "StreamThread"
    out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample", path],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(out)["recording"]["events"]
    groups = collections.defaultdict(lambda: [0, collections.Counter(), collections.Counter()])
    for e in events:
        v = e["values"]
        thread = (v.get("sampledThread") or {}).get("javaName") or ""
        if want not in thread:
            continue
        app = thread.split("-StreamThread")[0]
        # e2e-<nonce>-<variant>-r<round>-<uuid...>
        parts = app.split("-")
        key = "-".join(parts[:5]) if len(parts) >= 5 else app
        g = groups[key]
        g[0] += 1
        frames = [f["method"]["type"]["name"].split(".")[-1] + "." + f["method"]["name"]
                  for f in v["stackTrace"]["frames"]]
        if frames:
            g[2][frames[0]] += 1
        for f in set(frames):
            g[1][f] += 1
    for key, (n, incl, self_) in sorted(groups.items()):
        print(f"\n== {key}: {n} samples")
        print("-- inclusive")
        for f, c in incl.most_common(top):
            print(f"{100.0 * c / n:5.1f}% {f}")
        print("-- self")
        for f, c in self_.most_common(15):
            print(f"{100.0 * c / n:5.1f}% {f}")


if __name__ == "__main__":
    main()
