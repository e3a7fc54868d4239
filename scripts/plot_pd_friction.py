#!/usr/bin/python3
"""Effective friction coefficient of the PD friction models against the sliding speed.

Usage: /usr/bin/python3 scripts/plot_pd_friction.py [TRIBO] [OUT_PNG]
  TRIBO    the tribo executable (default build/tribo)
  OUT_PNG  where the plot goes (default docs/pd-friction-mu.png)

Runs examples/pd-friction-slide.yaml (a PMB block dragged over a rigid plate, mu = 0.3) for the
three friction models (bfcm, nfcm, objective) at several speeds v, each over 4 lattice periods
(4 h / v) after a 0.02 s start, and plots mu_eff = |<F_t>| / <F_n> of the contact force on the
block, averaged over those periods, against v. Dashed: the same with the literature's contact
constants (radius 0.9 h, stiffness 15 c), where the lattice washboard of the matched block and
plate lattices dominates (docs/pd-friction.md). Prints the table it plots.
"""
import copy
import csv
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import yaml  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEEDS = [0.01, 0.03, 0.1, 0.3, 1.0]
MODELS = ["objective", "nfcm", "bfcm"]
START = 0.02  # s before the averaging window
PERIODS = 4


def deck_for(base, model, speed, literature):
    deck = copy.deepcopy(base)
    h = float(deck["pd"]["spacing"])
    deck["pd"]["contact"]["friction_model"] = model
    window = PERIODS * h / speed
    deck["time"] = {"end": START + window}
    deck["output"]["every"] = window / 40.0  # each row also writes a VTK frame: keep few
    deck["output"]["fields"] = ["velocity"]
    deck["output"]["checkpoint_every"] = START + window  # one checkpoint, at the end
    block = next(b for b in deck["bodies"] if b["name"] == "block")
    block["velocity"] = [speed, 0]
    deck["boundary_conditions"][0]["velocity"] = [speed, None]
    if literature:
        # Rows 0.9 h apart less the weight's tiny penetration (15 c: W / k = 2e-4 h).
        deck["pd"]["contact"]["radius"] = 0.9
        deck["pd"]["contact"]["stiffness"] = 15
        lo, hi = block["geometry"]["box"]["min"], block["geometry"]["box"]["max"]
        shift = (0.9 - 1.0) * h - 1.9e-7 - lo[1]
        lo[1] += shift
        hi[1] += shift
        deck["boundary_conditions"][0]["region"]["box"]["min"][1] += shift
    return deck, START


def mu_eff(tribo, deck, t_from, workdir, tag):
    path = os.path.join(workdir, tag + ".yaml")
    out = os.path.join(workdir, tag)
    with open(path, "w") as f:
        yaml.safe_dump(deck, f)
    subprocess.run([tribo, "run", path, "--output", out, "--threads", "1"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "history.csv")) as f:
        rows = [r for r in csv.DictReader(f) if float(r["time"]) >= t_from]
    fx = sum(float(r["contact-force.block.plate.x"]) for r in rows) / len(rows)
    fy = sum(float(r["contact-force.block.plate.y"]) for r in rows) / len(rows)
    return abs(fx) / fy if fy > 0.0 else float("nan")  # nan: the block left the plate


def main(argv):
    tribo = argv[1] if len(argv) > 1 else os.path.join(ROOT, "build", "tribo")
    png = argv[2] if len(argv) > 2 else os.path.join(ROOT, "docs", "pd-friction-mu.png")
    with open(os.path.join(ROOT, "examples", "pd-friction-slide.yaml")) as f:
        base = yaml.safe_load(f)
    mu = float(base["pd"]["contact"]["friction"])
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for literature in (False, True):
            for model in MODELS:
                for v in SPEEDS:
                    deck, t_from = deck_for(base, model, v, literature)
                    tag = f"{model}_{v:g}_{'lit' if literature else 'soft'}"
                    results[(literature, model, v)] = mu_eff(tribo, deck, t_from, work, tag)
    print(f"{'contact':<22} {'model':<10} " + " ".join(f"{v:>8g}" for v in SPEEDS))
    for literature in (False, True):
        name = "0.9 h, 15 c" if literature else "2 h, soft (deck)"
        for model in MODELS:
            vals = " ".join(f"{results[(literature, model, v)]:8.4f}" for v in SPEEDS)
            print(f"{name:<22} {model:<10} {vals}")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    colors = {"objective": "C0", "nfcm": "C1", "bfcm": "C2"}
    for model in MODELS:
        ax.plot(SPEEDS, [results[(False, model, v)] for v in SPEEDS], "o-", color=colors[model],
                label=f"{model} (radius 2 h, soft contact)")
        ax.plot(SPEEDS, [results[(True, model, v)] for v in SPEEDS], "x--", color=colors[model],
                alpha=0.6, label=f"{model} (0.9 h, 15 c)")
    ax.axhline(mu, color="k", lw=0.8, ls=":", label=f"mu = {mu:g}")
    ax.set_xscale("log")
    ax.set_xlabel("sliding speed (m/s)")
    ax.set_ylabel("mu_eff = |<F_t>| / <F_n>")
    ax.set_title("PD friction models: block dragged over a rigid plate")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"plot: {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
