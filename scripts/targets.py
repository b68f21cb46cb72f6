#!/usr/bin/env python3
"""Measures every speed target of the open issues (12 and 13) with the commands the README
gives for them, and prints one line per target: the figure, the target, and whether it is met.

    scripts/targets.py [--build DIR] [--old DIR] [--rounds N] [--only GROUP,...] [--csv FILE]

--old DIR   a build of another checkout (e.g. the last landed commit): every command runs
            with both binaries, alternately (old first in odd rounds, new first in even ones),
            so the two columns come from the same session, as the README's figures must.
--rounds N  repeat each group N times; each figure is printed as a range over the rounds.
--only      groups: subgoal, jps, circles, haa, trace, frames (default: all).

Wall times on a shared or loaded machine move by 10-40% between rounds; read the load average
printed at the top, and prefer several rounds. The frames group needs xvfb-run.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(HERE), "shared", "data")


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"targets: {' '.join(cmd)} failed (exit {p.returncode}):\n{p.stderr[-2000:]}")
    return p.stdout


def cli_ratio(build, inputs, yardstick, planner, extra, repeat):
    """Mean time per query of `yardstick` over that of `planner`, over all problems."""
    out = run([f"{build}/pathlab-cli", "bench", *inputs, "--planners", f"{yardstick},{planner}",
               *extra, "--repeat", str(repeat), "--json"])
    rows = {r["planner"]: r["mean_us"] for r in json.loads(out) if r["file"] == "ALL"}
    return rows[yardstick] / rows[planner]


def gbench(build, regex, extra=()):
    """real_time in ms of every Google Benchmark matching regex (aggregates dropped)."""
    out = run([f"{build}/tests/pathlab_bench", f"--benchmark_filter={regex}",
               "--benchmark_format=json", *extra])
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    res = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        res[b["name"]] = (b["real_time"] * scale[b["time_unit"]], b)
    return res


def group_subgoal(build, _tmp):
    dao, sc = os.path.join(DATA, "dao"), os.path.join(DATA, "sc")
    theta = ["--set", "search=theta"]
    return [
        ("A* on S_N vs astar-textbook, dao", ">= 150x", cli_ratio(build, [dao], "astar-textbook", "subgoal", [], 3), "x", lambda v: v >= 150),
        ("A* on S_N vs astar-textbook, sc", ">= 150x", cli_ratio(build, [sc], "astar-textbook", "subgoal", [], 3), "x", lambda v: v >= 150),
        ("Theta* on S_N vs grid Theta*, dao", ">= 100x", cli_ratio(build, [dao], "theta", "subgoal", theta, 2), "x", lambda v: v >= 100),
        ("Theta* on S_N vs grid Theta*, sc", ">= 100x", cli_ratio(build, [sc], "theta", "subgoal", theta, 2), "x", lambda v: v >= 100),
    ]


def group_jps(build, _tmp):
    games = [os.path.join(DATA, "dao"), os.path.join(DATA, "sc")]
    return [("JPS vs astar, game maps", ">= 10x", cli_ratio(build, games, "astar", "jps", [], 3), "x", lambda v: v >= 10)]


def group_circles(build, _tmp):
    r = gbench(build, r"BM_Circles/lazy_(overlap|apart)/(200|1000)$|BM_CirclesDrag/(overlap|apart)_cache",
               ["--benchmark_min_time=0.3"])
    rows = []
    for name, label, limit in [
            ("BM_Circles/lazy_overlap/200", "circles, 200 overlapping", 1),
            ("BM_Circles/lazy_apart/200", "circles, 200 apart", 1),
            ("BM_Circles/lazy_overlap/1000", "circles, 1,000 overlapping", 10),
            ("BM_Circles/lazy_apart/1000", "circles, 1,000 apart", 10),
            ("BM_CirclesDrag/overlap_cache/1000", "circles, drag among 1,000 overlapping", 5),
            ("BM_CirclesDrag/apart_cache/1000", "circles, drag among 1,000 apart", 5)]:
        rows.append((label, f"< {limit} ms", r[name][0], "ms", lambda v, l=limit: v < l))
    return rows


def group_haa(build, tmp):
    first = gbench(build, r"BM_HaaBuild/hq/10/real_time",
                   ["--benchmark_repetitions=1", "--benchmark_min_time=0.001"])
    edit = gbench(build, r"BM_HaaEdit")
    rows = [("HAA* HQ build 512x512, first in a process", "< 500 ms", min(v[0] for v in first.values()), "ms", lambda v: v < 500),
            ("HAA* one-cell edit on 512x512", "< 20 ms", min(v[0] for v in edit.values()), "ms", lambda v: v < 20)]
    for m in ("AR0400SR", "AR0204SR"):
        scen = os.path.join(tmp, f"{m}.map.scen")
        if not os.path.exists(scen):
            os.symlink(os.path.join(DATA, "bg", f"{m}.map"), os.path.join(tmp, f"{m}.map"))
            run([f"{build}/pathlab-cli", "scen-gen", os.path.join(tmp, f"{m}.map"), "--count", "500",
                 "--seed", "1", "--out", scen])
        rows.append((f"HAA* vs annotated-astar, {m} (scen-gen 500, seed 1)", ">= 10x",
                     cli_ratio(build, [scen], "annotated-astar", "haa", [], 3), "x", lambda v: v >= 10))
    rows.append(("HAA* vs annotated-astar, den312d", ">= 10x",
                 cli_ratio(build, [os.path.join(DATA, "dao", "den312d.map.scen")], "annotated-astar", "haa", [], 3),
                 "x", lambda v: v >= 10))
    return rows


def group_trace(build, _tmp):
    rec = gbench(build, r"Watch/astar/recorder")
    seek = gbench(build, r"BM_SeekRandom/0$")
    bpe = max(b["B/event"] for _, b in rec.values())
    return [("trace bytes an event (Watch/astar/recorder)", "<= 40 B", bpe, "B", lambda v: v <= 40),
            ("random seek, 1M-event trace (BM_SeekRandom/0)", "< 5 ms", seek["BM_SeekRandom/0"][0], "ms", lambda v: v < 5)]


def big_scene(tmp):
    path = os.path.join(tmp, "big.json")
    if not os.path.exists(path):
        with open(os.path.join(HERE, "assets", "sample.json")) as f:
            s = json.load(f)
        agent = dict(s["agents"][0], start=[0.5, 0.5, 0.0], goal=[1023.5, 1023.5, 0.0])
        s.update(map={"width": 1024, "height": 1024, "rows": ["." * 1024] * 1024}, circles=[],
                 agents=[agent], views=[{"planner": "dijkstra", "params": {}, "agent": 0}])
        with open(path, "w") as f:
            json.dump(s, f)
    return path


def group_frames(build, tmp):
    rows = []
    for label, extra in [("fitted", []), ("zoomed x60 with numbers", ["--bench-zoom", "60"]),
                         ("scrubbing", ["--bench-scrub"]),
                         # Not an issue row: a still view may show its last picture again, a
                         # panned one never can (the zoomed row with every frame moving).
                         ("zoomed x60, panned 3 px a frame", ["--bench-zoom", "60", "--bench-pan", "3"])]:
        out = run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", f"{build}/pathlab", "--scene",
                   big_scene(tmp), "--planner", "dijkstra", "--frame", "end", "--clearance",
                   "--bench-frames", "120", *extra])
        m = re.search(r"mean_ms ([0-9.]+) p95_ms ([0-9.]+)", out)
        rows.append((f"frames {label}, mean", "< 16 ms", float(m.group(1)), "ms", lambda v: v < 16))
        rows.append((f"frames {label}, p95", "< 16 ms", float(m.group(2)), "ms", lambda v: v < 16))
    return rows


GROUPS = {"subgoal": group_subgoal, "jps": group_jps, "circles": group_circles, "haa": group_haa,
          "trace": group_trace, "frames": group_frames}


def fmt(vals, unit):
    lo, hi = min(vals), max(vals)
    f = (lambda v: f"{v:.1f}") if unit == "x" or max(vals) >= 10 else (lambda v: f"{v:.2f}")
    return (f(lo) if f(lo) == f(hi) else f"{f(lo)}-{f(hi)}") + (" " + unit if unit != "x" else "x")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "build"))
    ap.add_argument("--old")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", default=",".join(GROUPS))
    ap.add_argument("--csv")
    a = ap.parse_args()
    groups = a.only.split(",")
    for g in groups:
        if g not in GROUPS:
            sys.exit(f"targets: --only: unknown group '{g}' (known: {', '.join(GROUPS)})")
    builds = {"new": os.path.abspath(a.build)}
    if a.old:
        builds["old"] = os.path.abspath(a.old)
    print(f"load average at start: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})", flush=True)
    results = {}  # (row label) -> {"target", "unit", "met", side -> [values]}
    with tempfile.TemporaryDirectory(prefix="pathlab-targets-") as tmp:
        for rnd in range(a.rounds):
            for g in groups:
                order = ["new"] if "old" not in builds else (["old", "new"] if rnd % 2 == 0 else ["new", "old"])
                for side in order:
                    for label, target, value, unit, met in GROUPS[g](builds[side], tmp):
                        r = results.setdefault(label, {"target": target, "unit": unit, "met": met})
                        r.setdefault(side, []).append(value)
                    print(f"  round {rnd + 1}: {g} ({side}) done, load {os.getloadavg()[0]:.2f}",
                          file=sys.stderr, flush=True)
    sides = list(builds) if "old" not in builds else ["old", "new"]
    width = max(len(k) for k in results) + 2
    print(f"{'target':<{width}}{'goal':<10}" + "".join(f"{s:<16}" for s in sides) + "met (new, every round)")
    lines = []
    for label, r in results.items():
        met = all(r["met"](v) for v in r["new"])
        some = any(r["met"](v) for v in r["new"])
        verdict = "yes" if met else ("in some rounds" if some else "no")
        print(f"{label:<{width}}{r['target']:<10}" + "".join(f"{fmt(r[s], r['unit']):<16}" for s in sides) + verdict)
        lines.append([label, r["target"]] + [";".join(f"{v:.4g}" for v in r[s]) for s in sides] + [verdict])
    if a.csv:
        with open(a.csv, "w") as f:
            f.write(",".join(["target", "goal"] + sides + ["met"]) + "\n")
            for l in lines:
                f.write(",".join(f'"{x}"' for x in l) + "\n")


if __name__ == "__main__":
    main()
