#!/usr/bin/env python3
"""Turns a JMH JSON result file of the Parsley benchmarks into the markdown tables of docs/design-record/performance-results.md ("Results: micro-benchmarks").

Usage: python3 parsley-benchmarks/summarize.py results.json

Raw numbers are JMH's mean +- 99.9% confidence half-width over the measurement iterations.
Ratios are taken between two benchmarks of the same run and use the MEDIAN iteration of each,
which resists the load bursts of a shared machine better than the mean; the range after a ratio
is [q1(a)/q3(b), q3(a)/q1(b)] over the iterations' quartiles, a deliberately wide band that
shows how far the noise could move it.
"""
import json
import math
import sys


def load(path):
    out = {}
    for r in json.load(open(path)):
        name = r["benchmark"].rsplit(".", 2)
        key = (name[1] + "." + name[2], tuple(sorted((r.get("params") or {}).items())))
        metrics = {"wall": r["primaryMetric"]}
        metrics.update(r["secondaryMetrics"])
        out[key] = {k: (m["score"], m["scoreError"], quartiles(m)) for k, m in metrics.items()}
    return out


def quartiles(metric):
    raw = sorted(v for fork in metric.get("rawData", []) for v in fork)
    if not raw:
        return None
    def q(f):
        i = f * (len(raw) - 1)
        lo = math.floor(i)
        hi = math.ceil(i)
        return raw[lo] + (raw[hi] - raw[lo]) * (i - lo)
    return q(0.25), q(0.5), q(0.75)


def get(results, bench, metric, **params):
    key = (bench, tuple(sorted((k, str(v)) for k, v in params.items())))
    return results.get(key, {}).get(metric)


def num(v):
    if v is None:
        return "n/a"
    score, err, _ = v
    if math.isnan(err):
        return f"{score:,.0f}"
    return f"{score:,.0f} ± {err:,.0f}"


def ratio(a, b):
    if a is None or b is None or a[2] is None or b[2] is None or min(b[2]) <= 0:
        return "n/a"
    (a1, am, a3), (b1, bm, b3) = a[2], b[2]
    return f"{am / bm:.2f} [{a1 / b3:.2f}, {a3 / b1:.2f}]"


def codec(results):
    print("| Op | Clock | Offsets | Parsley wall ns | Reference wall ns | Parsley / Reference (wall) "
          "| Parsley CPU ns | Reference CPU ns | Parsley / Reference (CPU) | Alloc B/op Parsley / Reference |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for op in ("decode", "encode"):
        for offsets in ("realistic", "small"):
            for shape in ("1x1", "1x8", "1x64", "4x16"):
                p = dict(shape=shape, offsets=offsets)
                a = {m: get(results, f"ClockCodecBenchmark.{op}Parsley", m, **p) for m in
                     ("wall", "cpu.worker.norm", "gc.alloc.rate.norm")}
                b = {m: get(results, f"ClockCodecBenchmark.{op}Reference", m, **p) for m in
                     ("wall", "cpu.worker.norm", "gc.alloc.rate.norm")}
                if a["wall"] is None:
                    continue
                alloc = (f"{a['gc.alloc.rate.norm'][0]:,.0f} / {b['gc.alloc.rate.norm'][0]:,.0f}"
                         if a["gc.alloc.rate.norm"] and b["gc.alloc.rate.norm"] else "n/a")
                print(f"| {op} | {shape} | {offsets} | {num(a['wall'])} | {num(b['wall'])} | "
                      f"**{ratio(a['wall'], b['wall'])}** | {num(a['cpu.worker.norm'])} | "
                      f"{num(b['cpu.worker.norm'])} | **{ratio(a['cpu.worker.norm'], b['cpu.worker.norm'])}** | {alloc} |")


def widths(results, bench, title):
    print(f"\n{title}\n")
    print("| Width | Wall ns/op | Wall ratio to width 1 | CPU ns/op | CPU ratio to width 1 | Alloc B/op |")
    print("|---:|---:|---:|---:|---:|---:|")
    base = {m: get(results, bench, m, width=1) for m in ("wall", "cpu.worker.norm")}
    for w in (1, 4, 16, 64):
        v = {m: get(results, bench, m, width=w) for m in ("wall", "cpu.worker.norm", "gc.alloc.rate.norm")}
        if v["wall"] is None:
            continue
        alloc = f"{v['gc.alloc.rate.norm'][0]:,.0f}" if v["gc.alloc.rate.norm"] else "n/a"
        rw = "1 (baseline)" if w == 1 else f"**{ratio(v['wall'], base['wall'])}**"
        rc = "1 (baseline)" if w == 1 else f"**{ratio(v['cpu.worker.norm'], base['cpu.worker.norm'])}**"
        print(f"| {w} | {num(v['wall'])} | {rw} | {num(v['cpu.worker.norm'])} | {rc} | {alloc} |")


def held(results):
    print("\nHeld-then-released against immediate delivery, per record, same widths\n")
    print("| Width | Held+released wall ns | Immediate wall ns | Held / immediate (wall) "
          "| Held+released CPU ns | Immediate CPU ns | Held / immediate (CPU) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for w in (1, 4, 16, 64):
        h = {m: get(results, "HeldReleaseBenchmark.heldThenReleased", m, width=w) for m in ("wall", "cpu.worker.norm")}
        i = {m: get(results, "HeldReleaseBenchmark.deliverImmediately", m, width=w) for m in ("wall", "cpu.worker.norm")}
        if h["wall"] is None:
            continue
        print(f"| {w} | {num(h['wall'])} | {num(i['wall'])} | **{ratio(h['wall'], i['wall'])}** | "
              f"{num(h['cpu.worker.norm'])} | {num(i['cpu.worker.norm'])} | "
              f"**{ratio(h['cpu.worker.norm'], i['cpu.worker.norm'])}** |")


def main():
    results = load(sys.argv[1])
    print("### Clock codec: Parsley against the reference layout\n")
    codec(results)
    print("\n### Gate and cascade")
    widths(results, "GateCascadeBenchmark.deliverImmediately",
           "`onRecord`, record delivered within the call (GateCascadeBenchmark.deliverImmediately)")
    widths(results, "GateCascadeBenchmark.gateOnly", "Gate predicate alone (GateCascadeBenchmark.gateOnly)")
    widths(results, "HeldReleaseBenchmark.heldThenReleased",
           "Held then released by a cascade, per record (HeldReleaseBenchmark.heldThenReleased)")
    held(results)


if __name__ == "__main__":
    main()
