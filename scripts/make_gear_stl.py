#!/usr/bin/python3
"""Writes a spur gear with a bore, as a closed binary STL, for examples/gear-press.yaml.

usage: /usr/bin/python3 scripts/make_gear_stl.py [OUT.stl] [--teeth N] [--tip R] [--root R]
       [--bore R] [--width W] [--center X Y Z] [--samples-per-tooth K]
Defaults (metres) write examples/geometry/gear.stl: 12 teeth, tip radius 0.02, root radius 0.016,
bore radius 0.006, width 0.01 along z, centred at (0.03, 0.0315, 0.0075).

The profile is star-shaped about the axis: the radius is a function of the angle (trapezoidal
teeth: a flank rising from root to tip over a quarter of the pitch, a flat tip, a falling flank, a
flat root), so the faces are made by sampling the angle: two caps (annuli between the bore and the
profile) and two walls, each a strip of quads split into two triangles, all facing outward.
"""
import argparse
import math
import os
import struct


def tooth_radius(theta, teeth, tip, root):
    pitch = 2 * math.pi / teeth
    s = (theta % pitch) / pitch  # 0..1 along one tooth
    if s < 0.25:
        return root + (tip - root) * s / 0.25
    if s < 0.5:
        return tip
    if s < 0.75:
        return tip - (tip - root) * (s - 0.5) / 0.25
    return root


def gear_triangles(teeth, tip, root, bore, width, center, per_tooth):
    n = teeth * per_tooth
    cx, cy, cz = center
    z0, z1 = cz - width / 2, cz + width / 2
    outer, inner = [], []
    for k in range(n):
        th = 2 * math.pi * k / n
        r = tooth_radius(th, teeth, tip, root)
        outer.append((cx + r * math.cos(th), cy + r * math.sin(th)))
        inner.append((cx + bore * math.cos(th), cy + bore * math.sin(th)))
    tris = []
    for k in range(n):
        j = (k + 1) % n
        o0, o1, i0, i1 = outer[k], outer[j], inner[k], inner[j]
        # top cap (+z): counter-clockwise seen from above
        tris.append(((*i0, z1), (*o0, z1), (*o1, z1)))
        tris.append(((*i0, z1), (*o1, z1), (*i1, z1)))
        # bottom cap (-z)
        tris.append(((*i0, z0), (*o1, z0), (*o0, z0)))
        tris.append(((*i0, z0), (*i1, z0), (*o1, z0)))
        # outer wall, facing away from the axis
        tris.append(((*o0, z0), (*o1, z0), (*o1, z1)))
        tris.append(((*o0, z0), (*o1, z1), (*o0, z1)))
        # bore wall, facing the axis
        tris.append(((*i0, z0), (*i1, z1), (*i1, z0)))
        tris.append(((*i0, z0), (*i0, z1), (*i1, z1)))
    return tris


def normal(t):
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = t
    ux, uy, uz, vx, vy, vz = bx - ax, by - ay, bz - az, cx - ax, cy - ay, cz - az
    n = (uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx)
    length = math.sqrt(sum(c * c for c in n)) or 1.0
    return tuple(c / length for c in n)


def write_binary_stl(path, tris, name):
    with open(path + ".tmp", "wb") as f:
        f.write(name.encode()[:80].ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<3f", *normal(t)))
            for v in t:
                f.write(struct.pack("<3f", *v))
            f.write(b"\0\0")
    os.replace(path + ".tmp", path)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out", nargs="?", default=os.path.join(here, "..", "examples", "geometry", "gear.stl"))
    p.add_argument("--teeth", type=int, default=12)
    p.add_argument("--tip", type=float, default=0.02)
    p.add_argument("--root", type=float, default=0.016)
    p.add_argument("--bore", type=float, default=0.006)
    p.add_argument("--width", type=float, default=0.01)
    p.add_argument("--center", type=float, nargs=3, default=(0.03, 0.0315, 0.0075))
    p.add_argument("--samples-per-tooth", type=int, default=16)
    a = p.parse_args()
    if not (0 < a.bore < a.root <= a.tip) or a.teeth < 1 or a.samples_per_tooth < 4:
        p.error("need 0 < bore < root <= tip, teeth >= 1, samples-per-tooth >= 4")
    tris = gear_triangles(a.teeth, a.tip, a.root, a.bore, a.width, a.center, a.samples_per_tooth)
    write_binary_stl(a.out, tris, f"gear: {a.teeth} teeth, tip {a.tip} m, root {a.root} m, bore {a.bore} m")
    # The exact volume of the polyhedron, for comparison with the particles' volume.
    vol = sum(
        (t[0][0] * (t[1][1] * t[2][2] - t[1][2] * t[2][1]) - t[0][1] * (t[1][0] * t[2][2] - t[1][2] * t[2][0])
         + t[0][2] * (t[1][0] * t[2][1] - t[1][1] * t[2][0])) for t in tris) / 6
    print(f"{os.path.normpath(a.out)}: {len(tris)} triangles, volume {vol:.6g} m^3")


if __name__ == "__main__":
    main()
