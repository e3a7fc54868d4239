#!/usr/bin/python3
"""Writes a point cloud of a ring (an annulus) in polar layout, with each point's area, as the CSV
that `geometry: {points: FILE}` reads, for examples/ring-cloud.yaml.

usage: /usr/bin/python3 scripts/make_point_cloud.py [OUT.csv] [--center X Y] [--inner R]
       [--outer R] [--spacing H]
Defaults (metres) write examples/geometry/ring.csv: centre (0.06, 0.09), radii 0.03 and 0.04,
spacing 0.0025. Points sit at the centres of polar cells (rings of width H, each cut into arcs
about H long); a point's area is its cell's, r dr dtheta, so the areas add up to the annulus's
pi (R^2 - r^2) exactly. No built-in shape gives a ring: this is what a point cloud from another
tool looks like to Tribo.
"""
import argparse
import math
import os


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out", nargs="?", default=os.path.join(here, "..", "examples", "geometry", "ring.csv"))
    p.add_argument("--center", type=float, nargs=2, default=(0.06, 0.09))
    p.add_argument("--inner", type=float, default=0.03)
    p.add_argument("--outer", type=float, default=0.04)
    p.add_argument("--spacing", type=float, default=0.0025)
    a = p.parse_args()
    if not (0 <= a.inner < a.outer) or not a.spacing > 0:
        p.error("need 0 <= inner < outer and spacing > 0")
    rings = max(1, round((a.outer - a.inner) / a.spacing))
    dr = (a.outer - a.inner) / rings
    lines, total = ["# ring: centre ({:g}, {:g}), radii {:g}..{:g} m".format(*a.center, a.inner, a.outer),
                    "x, y, volume"], 0.0
    for k in range(rings):
        r = a.inner + (k + 0.5) * dr
        arcs = max(3, round(2 * math.pi * r / a.spacing))
        dth = 2 * math.pi / arcs
        area = r * dr * dth  # exact: the polar cell's area is (r_out^2 - r_in^2) dth / 2 = r dr dth
        for j in range(arcs):
            th = (j + 0.5 * (k % 2)) * dth  # stagger alternate rings
            lines.append(f"{a.center[0] + r * math.cos(th):.9g}, {a.center[1] + r * math.sin(th):.9g}, {area:.9g}")
            total += area
    with open(a.out + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(a.out + ".tmp", a.out)
    print(f"{os.path.normpath(a.out)}: {len(lines) - 2} points, area {total:.6g} m^2 "
          f"(annulus {math.pi * (a.outer ** 2 - a.inner ** 2):.6g} m^2)")


if __name__ == "__main__":
    main()
