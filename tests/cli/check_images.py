#!/usr/bin/python3
"""Checks pictures written by `tribo plot`: each file exists, is at least MIN_BYTES long, is a PNG
of the given size in pixels (a GIF: an animation of at least 2 frames), and is not blank: it has
at least MIN_COLOURS distinct colours, more than 1% of its pixels differ from its most common
colour (the background), and more than 0.2% are coloured (not grey: lines, particles), since
axes and text alone are black on white.

usage: check_images.py FILE[@WIDTHxHEIGHT] [...]     (HEIGHT may be *: any height from 200 to 1000)
Exit 0 when every file passes, 1 otherwise (the reasons on stderr).
"""
import os
import sys

import numpy as np
from PIL import Image

MIN_BYTES = 2000
MIN_COLOURS = 8


def check(path, size):
    problems = []
    if not os.path.isfile(path):
        return [f"{path}: missing"]
    if os.path.getsize(path) < MIN_BYTES:
        problems.append(f"{path}: only {os.path.getsize(path)} bytes")
    with Image.open(path) as image:
        if path.endswith(".png"):
            if image.format != "PNG":
                problems.append(f"{path}: format {image.format}, expected PNG")
            if size and size[1] is None and (image.size[0] != size[0] or not 200 <= image.size[1] <= 1000):
                problems.append(f"{path}: {image.size[0]}x{image.size[1]} pixels, expected {size[0]}x200..1000")
            elif size and size[1] is not None and image.size != size:
                problems.append(f"{path}: {image.size[0]}x{image.size[1]} pixels, expected {size[0]}x{size[1]}")
        else:
            frames = getattr(image, "n_frames", 1)
            if frames < 2:
                problems.append(f"{path}: {frames} frame(s), expected an animation")
        pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
    colours, counts = np.unique(pixels, axis=0, return_counts=True)
    coloured = np.mean(pixels.max(axis=1).astype(int) - pixels.min(axis=1) > 40)
    if coloured < 0.002:
        problems.append(f"{path}: only {coloured:.3%} of the pixels are coloured")
    if len(colours) < MIN_COLOURS:
        problems.append(f"{path}: only {len(colours)} colours")
    drawn = 1.0 - counts.max() / len(pixels)
    if drawn < 0.01:
        problems.append(f"{path}: {drawn:.2%} of the pixels differ from the background")
    return problems


def main(argv):
    problems = []
    for arg in argv[1:]:
        path, _, size = arg.partition("@")
        problems += check(path, tuple(None if v == "*" else int(v) for v in size.split("x")) if size else None)
    for p in problems:
        print("check_images.py: " + p, file=sys.stderr)
    print(f"checked {len(argv) - 1} picture(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
