"""What the geodesy/CRS golden generators share: deterministic point sets
and the writer of their goldens files.

No randomness from library RNGs: a fixed 64-bit LCG so the sets are the same
on every Python/NumPy version.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


class LCG:
    """Knuth MMIX linear congruential generator, uniform floats in [0, 1)."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.s = (6364136223846793005 * self.s + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (self.s >> 11) / float(1 << 53)

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.next()


def geodesic_pairs(n_random=400, seed=1):
    """(lat1, lon1, lat2, lon2) pairs: special cases then random ones."""
    special = [
        (0, 0, 0, 0),
        (0, 0, 0, 1),
        (0, 0, 0, 179.5),
        (0, 0, 0, 180),
        (0, 0, 0.5, 179.7),  # near antipodal
        (90, 0, -90, 0),
        (90, 10, 89.999, -170),
        (-90, 0, -89.5, 45),
        (89.9999, 0, 89.9999, 180),
        (10, 179.9, 10, -179.9),  # antimeridian
        (-33.9, 151.2, 51.5, -0.12),
        (40.64, -73.78, 1.36, 103.99),
        (0, -180, 0, 180),
        (45, 0, 45, 0.00001),
        (-45, 0, -45.0000001, 0),
        (30, 0, -30, 179.9),
        (1e-10, 0, -1e-10, 179.99999),
        (60, 6, 60, 12),  # UTM zone edges
        (-80, -180, 84, 180),
    ]
    r = LCG(seed)
    out = list(special)
    for _ in range(n_random):
        out.append((r.uniform(-90, 90), r.uniform(-180, 180), r.uniform(-90, 90), r.uniform(-180, 180)))
    # short lines (the benchmark's typical case: within 50 km)
    for _ in range(n_random // 2):
        lat1, lon1 = r.uniform(-85, 85), r.uniform(-180, 180)
        out.append((lat1, lon1, lat1 + r.uniform(-0.4, 0.4), lon1 + r.uniform(-0.4, 0.4)))
    return out


def direct_cases(n_random=300, seed=2):
    """(lat1, lon1, azi1, s12) cases."""
    special = [
        (0, 0, 90, 1e6),
        (0, 0, 0, 10001965.729),
        (90, 0, 180, 1000),
        (-90, 30, 0, 5000),
        (10, 179.99, 90, 5000),
        (45, -170, -90, 2e7),
        (0, 0, 45, 0),
        (-30, 20, 135, -50000),
    ]
    r = LCG(seed)
    out = list(special)
    for _ in range(n_random):
        out.append((r.uniform(-90, 90), r.uniform(-180, 180), r.uniform(-180, 180), r.uniform(0, 2e7)))
    return out


def write_goldens(name, doc, indent=None):
    """Write doc as JSON to name beside these scripts, with a final newline:
    compact, or indented by indent spaces."""
    with open(os.path.join(HERE, name), "w") as f:
        if indent is None:
            json.dump(doc, f, separators=(",", ":"))
        else:
            json.dump(doc, f, indent=indent)
        f.write("\n")
