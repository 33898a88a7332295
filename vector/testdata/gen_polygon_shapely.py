#!/usr/bin/python3
"""Goldens for vector's polygon area, centroid and rectangle clipping.

Writes polygon_shapely.json: WKT polygons (convex, non-convex, holed,
multi-part, both orientations, fractional and integer coordinates) with
Shapely/GEOS area, centroid and intersection areas with axis-aligned boxes.

    /usr/bin/python3 vector/testdata/gen_polygon_shapely.py > vector/testdata/polygon_shapely.json
"""
import json
import math
import random

import shapely
from shapely import wkt
from shapely.geometry import box

rnd = random.Random(20261130)


def ring_wkt(pts):
    pts = pts + [pts[0]]
    return "(" + ", ".join("%r %r" % (x, y) for x, y in pts) + ")"


def star(cx, cy, r0, r1, n):
    pts = []
    for k in range(2 * n):
        r = r0 if k % 2 == 0 else r1
        a = math.pi * k / n + rnd.random() * 0.1
        pts.append((round(cx + r * math.cos(a), 4), round(cy + r * math.sin(a), 4)))
    return pts


cases = []
for i in range(120):
    cx, cy = rnd.uniform(-50, 1100), rnd.uniform(-50, 1100)
    kind = i % 6
    if kind == 0:
        w, h, t = rnd.uniform(3, 80), rnd.uniform(3, 80), rnd.uniform(0, math.pi)
        c, s = math.cos(t), math.sin(t)
        pts = [(round(cx + dx * c - dy * s, 4), round(cy + dx * s + dy * c, 4))
               for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]
        g = "POLYGON (%s)" % ring_wkt(pts)
    elif kind == 1:
        g = "POLYGON (%s)" % ring_wkt(list(reversed(star(cx, cy, 30, 12, 5))))
    elif kind == 2:
        x, y = round(cx), round(cy)
        g = "POLYGON (%s, %s)" % (ring_wkt([(x, y), (x + 40, y), (x + 40, y + 30), (x, y + 30)]),
                                  ring_wkt([(x + 10, y + 10), (x + 10, y + 20), (x + 30, y + 20), (x + 30, y + 10)]))
    elif kind == 3:
        x, y = round(cx, 2), round(cy, 2)
        g = "POLYGON (%s)" % ring_wkt([(x, y), (x + 50.5, y), (x + 50.5, y + 20.25), (x + 25.25, y + 20.25), (x + 25.25, y + 60.75), (x, y + 60.75)])
    elif kind == 4:
        g = "MULTIPOLYGON ((%s), (%s))" % (ring_wkt(star(cx, cy, 20, 9, 4)), ring_wkt(star(cx + 70, cy, 15, 7, 3)))
    else:
        pts = star(cx, cy, rnd.uniform(5, 40), rnd.uniform(3, 20), rnd.randint(3, 9))
        g = "POLYGON (%s)" % ring_wkt(pts)
    geom = wkt.loads(g)
    boxes = [[0, 0, 512, 512], [512, 0, 1024, 512], [0, 512, 512, 1024], [512, 512, 1024, 1024],
             [256, 256, 768, 768], [round(cx) - 8, round(cy) - 8, round(cx) + 8, round(cy) + 8]]
    c = geom.centroid
    cases.append({"wkt": g, "area": geom.area, "centroid": [c.x, c.y],
                  "clips": [{"box": b, "area": geom.intersection(box(*b)).area} for b in boxes]})

json.dump({"generator": "vector/testdata/gen_polygon_shapely.py", "shapely": shapely.__version__, "cases": cases},
          __import__("sys").stdout, indent=1)
