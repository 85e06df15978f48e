#!/usr/bin/env python3
"""Summarises a JFR recording of the end-to-end harness (e2e.sh --profile) per Kafka Streams
application (stream-thread name prefix e2e-<nonce>-<variant>-r<round>):

- where the stream thread's execution samples fall, by category (the first matching rule,
  walking the stack from the leaf): JSON (the json-* variants), protocol-store writes (logged RocksDB store: RocksDB put plus
  the changelog send), output sends, Parsley's own code, consumer fetch, other;
- Parsley's code split by where its step was (the node's receive or stamp, the door, the logic,
  the header read, Kafka Streams' forward to the sink before the send, the processor's own code),
  the first entry point from the leaf;
- the methods with the most samples, inclusive and self.

JFR keeps the 64 frames nearest the leaf (printed with --stack-depth 64).

usage: jfr-hot.py harness.jfr [top-N]
"""
import collections
import json
import subprocess
import sys

CATEGORIES = [
    # First, so that the JSON variants' parsing and writing (in a serde, a codec or a fold) is one figure.
    ("JSON (Jackson parse and write)", ("tools/jackson", "tools.jackson")),
    ("store write (RocksDB + changelog send)", ("ChangeLoggingKeyValueBytesStore", "RocksDBStore",
                                                "MeteredKeyValueStore", "CachingKeyValueStore")),
    ("output send (sink, producer)", ("SinkNode.process", "RecordCollectorImpl.send")),
    ("consumer poll (incl. the position-capture proxy)", ("KafkaConsumer.poll", "FetchCollector", "CompletedFetch",
                                                          "PositionCapture")),
    # Every core class (node, state, codec, adapter, door, monitors); the harness's own E2e* classes are not Parsley.
    ("Parsley code", lambda f: "io/github/tobyjamesclements/parsley/" in f and "/E2e" not in f),
    ("commit", ("TaskManager.commit", "StreamThread.maybeCommit")),
]


# Where a "Parsley code" sample was: the first of these frames from the leaf.
STEPS = [
    ("node: receive, gate, cascade", ("CausalNode.onRecord", "CausalNode.positionAdvance")),
    ("node: stamp and its encode", ("CausalNode.encodeSend",)),
    ("door: emission encode and partition", ("StampingDoor.prepare",)),
    ("logic: decode, user code, fold state", ("LogicRunner.",)),
    ("header read", ("CausalHeaders.read",)),
    ("position feed and sweep", ("PositionFeed.", "PositionCapture.")),
    ("Kafka Streams' forward to the sink, before the send", ("ProcessorContextImpl.forward",)),
    # Below the door's forward: building the output record and adding its stamp header.
    ("door: output record and stamp header", ("StampingDoor.send",)),
    # The processor's own code (metadata, the held entry, position checks, its punctuations). It must stop the walk:
    # past it lies the source node's forward into the processor, which is not the forward to the sink.
    ("host: the processor's own code", ("CausalProcessor.",)),
]


def step(frames):
    for f in frames:
        for name, needles in STEPS:
            if any(n in f for n in needles):
                return name
    return "host, other"


def category(frames):
    # frames: leaf first. A sample belongs to the first category any of its frames matches, in
    # the order of CATEGORIES (so a store write called from Parsley code counts as a store write).
    for name, needles in CATEGORIES:
        match = needles if callable(needles) else (lambda f, ns=needles: any(n in f for n in ns))
        if any(match(f) for f in frames):
            return name
    return "other (Streams loop, metrics, GC-free JDK)"


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", path],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(out)["recording"]["events"]
    groups = collections.defaultdict(lambda: [0, collections.Counter(), collections.Counter(),
                                              collections.Counter(), collections.Counter()])
    for e in events:
        v = e["values"]
        thread = (v.get("sampledThread") or {}).get("javaName") or ""
        if not thread.endswith("StreamThread-1"):
            continue
        key = "-".join(thread.split("-StreamThread")[0].split("-")[:5])
        g = groups[key]
        frames = [f["method"]["type"]["name"] + "." + f["method"]["name"] for f in v["stackTrace"]["frames"]]
        g[0] += 1
        c = category(frames)
        g[3][c] += 1
        if c == "Parsley code":
            g[4][step(frames)] += 1
        if frames:
            g[2][frames[0].split("/")[-1]] += 1
        for f in set(frames):
            g[1][f.split("/")[-1]] += 1
    for key, (n, incl, self_, cats, steps) in sorted(groups.items()):
        print(f"\n== {key}: {n} stream-thread samples")
        for c, k in cats.most_common():
            print(f"{100.0 * k / n:5.1f}% {c}")
        if steps:
            print("-- Parsley code by step (share of all the thread's samples)")
            for c, k in steps.most_common():
                print(f"{100.0 * k / n:5.1f}% {c}")
        print("-- inclusive")
        for f, c in incl.most_common(top):
            print(f"{100.0 * c / n:5.1f}% {f}")
        print("-- self")
        for f, c in self_.most_common(12):
            print(f"{100.0 * c / n:5.1f}% {f}")


if __name__ == "__main__":
    main()
