#!/usr/bin/python3
"""Plot a block's travel along the incline against the analytic line 0.5 g (sin th - mu cos th) t^2.

Usage: /usr/bin/python3 scripts/plot_incline.py OUT_DIR [OUT_DIR ...]
Each OUT_DIR is a `tribo run` output folder (deck.yaml + history.csv) of an incline deck whose
history has centroid.block.x; the plot goes to the first folder as incline.png, and the table of
travel against the analytic value is printed.
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import yaml  # noqa: E402


def friction_of(deck):
    """Kinetic friction of the block's contact law (MPM pair or PD contact)."""
    if deck.get("method") == "pd":
        return float(deck.get("pd", {}).get("contact", {}).get("friction", 0.0))
    for pair in deck.get("mpm", {}).get("contact", {}).get("pairs", []):
        if "block" in pair.get("materials", []):
            return 0.0 if pair.get("law") == "frictionless" else float(pair.get("friction", 0.0))
    return 0.0


def main(folders):
    folders = [f for f in folders if os.path.isfile(os.path.join(f, "history.csv"))]
    if not folders:
        print("plot_incline: no history.csv found")
        return 1
    fig, ax = plt.subplots(figsize=(6, 4))
    for folder in folders:
        with open(os.path.join(folder, "deck.yaml")) as f:
            deck = yaml.safe_load(f)
        with open(os.path.join(folder, "history.csv")) as f:
            rows = list(csv.DictReader(f))
        t = [float(r["time"]) for r in rows]
        x = [float(r["centroid.block.x"]) for r in rows]
        gx, gy = deck["gravity"][0], deck["gravity"][1]
        g, theta, mu = math.hypot(gx, gy), math.atan2(gx, -gy), friction_of(deck)
        accel = max(g * (math.sin(theta) - mu * math.cos(theta)), 0.0)
        ax.plot(t, [xi - x[0] for xi in x], "o", ms=3, label=f"{deck.get('method', '?').upper()} (mu = {mu:g})")
        ax.plot(t, [0.5 * accel * ti * ti for ti in t], "-", lw=1, label=f"0.5 g (sin th - mu cos th) t^2")
        ref = 0.5 * accel * t[-1] ** 2
        err = (x[-1] - x[0] - ref) / ref if ref > 0 else float("nan")
        print(f"{folder}: travel {x[-1] - x[0]:.6f} m at t = {t[-1]:.4g} s, analytic {ref:.6f} m, error {err:+.2%}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("travel along the incline (m)")
    ax.set_title("Block on a 30 degree incline")
    ax.legend()
    fig.tight_layout()
    out = os.path.join(folders[0], "incline.png")
    fig.savefig(out, dpi=120)
    print(f"plot: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
