#!/usr/bin/env python3
"""Record Shapely's representative_point() of many geometries:
vector/testdata/shapely_interior.json.

Usage (Debian: apt-get install python3-shapely):

    /usr/bin/python3 conformance/vector/gen_interior.py > vector/testdata/shapely_interior.json

The geometries are seeded and OSM-like (lon/lat degrees, building- to
district-sized): convex, concave and star polygons with and without holes,
multipolygons, rectangles (horizontal edges on the scan line), vertices on
the centre line, zero-area polygons, unclosed rings (Shapely closes them),
line strings and multi line strings (with and without interior
vertices), points and multipoints, and geometry collections. Coordinates
are written with repr() and the point as float.hex, so that
`go test ./vector/` can require vector.InteriorPoint to equal GEOS bit
for bit.
"""
import json
import math
import random
import sys

import shapely
from shapely.geometry import (GeometryCollection, LineString, MultiLineString, MultiPoint, MultiPolygon, Point,
                              Polygon, mapping, shape)


def star(rng, cx, cy, r, n, spikes):
    pts = []
    for k in range(n):
        a = 2 * math.pi * k / n + rng.uniform(-0.2, 0.2) / n
        rr = r * (rng.uniform(0.3, 1.0) if spikes else rng.uniform(0.9, 1.0))
        pts.append((round(cx + rr * math.cos(a), 7), round(cy + rr * math.sin(a), 7)))
    return pts


def geometries(rng):
    out = []
    for i in range(300):
        cx, cy = rng.uniform(-170, 170), rng.uniform(-70, 70)
        r = 10 ** rng.uniform(-4.5, -1.5)
        kind = i % 12
        if kind == 0:
            out.append(Polygon(star(rng, cx, cy, r, rng.randint(3, 8), False)))
        elif kind == 1:
            out.append(Polygon(star(rng, cx, cy, r, rng.randint(5, 30), True)))
        elif kind == 2:
            hole = star(rng, cx, cy, r * 0.3, rng.randint(3, 9), False)
            out.append(Polygon(star(rng, cx, cy, r, rng.randint(8, 20), False), [hole]))
        elif kind == 3:
            x0, y0 = round(cx, 6), round(cy, 6)
            w, h = round(r, 6), round(r * rng.uniform(0.2, 2), 6)
            out.append(Polygon([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]))
        elif kind == 4:  # L-shape and U-shape (horizontal edges, vertex on the centre line)
            x0, y0, s = round(cx, 5), round(cy, 5), round(r, 5)
            if rng.random() < 0.5:
                out.append(Polygon([(x0, y0), (x0 + 2 * s, y0), (x0 + 2 * s, y0 + s), (x0 + s, y0 + s), (x0 + s, y0 + 2 * s), (x0, y0 + 2 * s)]))
            else:
                out.append(Polygon([(x0, y0), (x0 + 3 * s, y0), (x0 + 3 * s, y0 + 2 * s), (x0 + 2 * s, y0 + 2 * s), (x0 + 2 * s, y0 + s), (x0 + s, y0 + s), (x0 + s, y0 + 2 * s), (x0, y0 + 2 * s)]))
        elif kind == 5:
            polys = [Polygon(star(rng, cx + k * 3 * r, cy + rng.uniform(-r, r), r * rng.uniform(0.3, 1.2), rng.randint(3, 12), rng.random() < 0.5)) for k in range(rng.randint(2, 4))]
            out.append(MultiPolygon(polys))
        elif kind == 6:
            n = rng.randint(2, 9)
            out.append(LineString([(round(cx + k * r * rng.uniform(0.2, 1), 7), round(cy + rng.uniform(-r, r), 7)) for k in range(n)]))
        elif kind == 7:
            ls = []
            for k in range(rng.randint(2, 4)):
                n = rng.randint(2, 5)
                ls.append([(round(cx + k * r + j * r * 0.3, 7), round(cy + rng.uniform(-r, r), 7)) for j in range(n)])
            out.append(MultiLineString(ls))
        elif kind == 8:
            out.append(Point(round(cx, 7), round(cy, 7)))
        elif kind == 9:
            out.append(MultiPoint([(round(cx + rng.uniform(-r, r), 7), round(cy + rng.uniform(-r, r), 7)) for _ in range(rng.randint(2, 7))]))
        elif kind == 10:  # zero-area and degenerate polygons
            x0, y0, s = round(cx, 6), round(cy, 6), round(r, 6)
            if rng.random() < 0.5:
                out.append(Polygon([(x0, y0), (x0 + s, y0 + s), (x0 + 2 * s, y0 + 2 * s), (x0, y0)]))
            else:
                out.append(Polygon([(x0, y0), (x0 + s, y0), (x0 + s, y0), (x0 + s, y0 + s), (x0, y0 + s)]))
        else:
            out.append(GeometryCollection([Point(round(cx, 7), round(cy, 7)),
                                           LineString([(round(cx, 7), round(cy, 7)), (round(cx + r, 7), round(cy + r / 2, 7)), (round(cx + 2 * r, 7), round(cy, 7))])]))
    return out


def geos_version():
    v = getattr(shapely, "geos_version_string", None)  # Shapely 2
    if v is None:
        from shapely.geos import geos_version_string as v  # Shapely 1.8
    return v


def main():
    rng = random.Random(22)
    cases = []
    for g in geometries(rng):
        p = g.representative_point()
        cases.append({"geometry": json.loads(json.dumps(mapping(g))), "point": [p.x.hex(), p.y.hex()]})
    # An unclosed ring as GeoJSON writers emit it (Shapely closes it).
    raw = {"type": "Polygon", "coordinates": [[[10.0, 45.0], [10.002, 45.0], [10.001, 45.0015]]]}
    p = shape(raw).representative_point()
    cases.append({"geometry": raw, "point": [p.x.hex(), p.y.hex()]})
    sys.stdout.write('{"generator": "conformance/vector/gen_interior.py", "shapely": %s, "geos": %s, "cases": [\n'
                     % (json.dumps(shapely.__version__), json.dumps(geos_version())))
    sys.stdout.write(",\n".join(json.dumps(c) for c in cases))
    sys.stdout.write("\n]}\n")


if __name__ == "__main__":
    main()
