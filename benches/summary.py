#!/usr/bin/env python3
"""Turns a run of `cargo bench --bench playouts` into the tables of BENCHMARKS.md.

Usage (from the repository root):
    cargo bench --bench playouts | tee target/playouts.txt
    python3 benches/summary.py target/playouts.txt

Reads Criterion's estimates under target/criterion (or $CRITERION_HOME) and the calibration
lines the benchmark prints (games and plies of each batch). The time of a batch is Criterion's
slope estimate (its mean when there is no slope).
"""

import json
import os
import re
import sys

GAMES = ["raja_pasu", "sadeqa_ii", "kalah", "oware", "ako_okwe"]


def criterion_dir():
    if "CRITERION_HOME" in os.environ:
        return os.environ["CRITERION_HOME"]
    return os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "criterion")


def seconds(group, function):
    """Criterion's estimate for one benchmark, in seconds per iteration (None if absent)."""
    path = os.path.join(criterion_dir(), group.replace("/", "_"), function, "new", "estimates.json")
    try:
        with open(path) as f:
            est = json.load(f)
    except FileNotFoundError:
        return None
    point = (est.get("slope") or est["mean"])["point_estimate"]
    return point / 1e9


def calibration(path):
    """group -> (games, plies) from the benchmark's output."""
    out = {}
    pattern = re.compile(r"^calibration (\S+): (\d+) games, (\d+) plies")
    with open(path) as f:
        for line in f:
            m = pattern.match(line.strip())
            if m:
                out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return out


def si(x):
    for unit, scale in (("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.3g} {unit}"
    return f"{x:.3g}"


def time(s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cal = calibration(sys.argv[1])

    print("| game | playout | interpreted playouts/s | native playouts/s | interpreted/native (time) "
          "| plies per playout | interpreted plies/s | native plies/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name in GAMES:
        for kind in ("playout", "match"):
            group = f"{name}/{kind}"
            if group not in cal:
                continue
            games, plies = cal[group]
            ti, tn = seconds(group, "interpreted"), seconds(group, "native")
            if ti is None or tn is None:
                continue
            what = "round" if name == "raja_pasu" and kind == "playout" else (
                "match" if kind == "match" else "game")
            print(f"| {name} | {what} | {si(games / ti)} | {si(games / tn)} | {ti / tn:.2f}× "
                  f"| {plies / games:.1f} | {si(plies / ti)} | {si(plies / tn)} |")

    print()
    print("| game | playout | interpreted | counting firings (as simulate) | counted/interpreted |")
    print("|---|---|---:|---:|---:|")
    for name in GAMES:
        for kind in ("playout", "match"):
            group = f"{name}/{kind}"
            ti, tc = seconds(group, "interpreted"), seconds(group, "counted")
            if ti is None or tc is None:
                continue
            what = "round" if name == "raja_pasu" and kind == "playout" else (
                "match" if kind == "match" else "game")
            print(f"| {name} | {what} | {time(ti)} | {time(tc)} | {tc / ti:.2f}× |")

    print()
    print("| game | one move, interpreted | one move, native | interpreted/native | load and check |")
    print("|---|---:|---:|---:|---:|")
    for name in GAMES:
        mi, mn = seconds(f"{name}/move", "interpreted"), seconds(f"{name}/move", "native")
        load = seconds("load", name)
        cells = [time(mi) if mi else "–", time(mn) if mn else "–",
                 f"{mi / mn:.2f}×" if mi and mn else "–", time(load) if load else "–"]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
