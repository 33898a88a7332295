#!/usr/bin/env python3
"""Generate crs/epsg_tables.txt and crs/epsg_tables.go from PROJ's database.

Reads proj.db (Debian's proj-data: /usr/share/proj/proj.db, PROJ 9.1.1 with
EPSG v10.076) with the standard library's sqlite3 and writes the EPSG
objects the engine needs, as a text table that crs/ embeds uncompressed
(indexed on first use, each record parsed on its first lookup, so a
process pays for the few CRSs it uses rather than for inflating and
parsing the whole table):

- every EPSG projected CRS (deprecated ones flagged) with its conversion (method and
  parameters, DMS values normalised to degrees as PROJ does), coordinate
  system (axis names, abbreviations, directions, units) and usages;
- every EPSG geographic 2D CRS (deprecated ones flagged) and every geographic CRS a
  projected CRS is based on, with datums (and datum ensembles), ellipsoids,
  prime meridians and angular units;
- the EPSG Helmert transformations (geocentric translations, position
  vector, coordinate frame, Molodensky-Badekas) from those geographic CRSs
  to WGS 84 (EPSG:4326), parameters normalised to metres, arc-seconds and
  parts per million, with the transformations EPSG says supersede each;
  grid-based transformations are left out;
- the longitude rotations linking a CRS on a non-Greenwich prime meridian
  to its Greenwich twin, units of measure, extents and scopes.

Rerunning the script on the same proj.db reproduces both files byte for
byte (rows are ordered by code within each kind, as crs/ requires, and
floats are written as Python's shortest round-trip repr).

Usage: /usr/bin/python3 conformance/crs/gen_tables.py [--db PATH] [--out DIR]
"""
import argparse
import math
import os
import sqlite3

HELMERT_METHODS = (9603, 9606, 9607, 9636, 1063)
FORMAT = "geodisaster-epsg-1"


def num(v):
    """Text of a number: the shortest repr that reads back exactly."""
    if v is None:
        return ""
    f = float(v)
    if f == int(f) and abs(f) < 1e15:
        return str(int(f))
    return repr(f)


def clean(s):
    if s is None:
        return ""
    if "\t" in s or "\n" in s:
        raise ValueError("field with tab or newline: %r" % s)
    return s


def dms_to_degrees(value):
    """EPSG:9110 sexagesimal DMS (DDD.MMSSsss) to degrees, with the same
    arithmetic as PROJ's normalizeMeasure (so the doubles are identical)."""
    v = float(value)
    formatted = "%.12f" % v
    dot = formatted.index(".")
    minutes = formatted[dot + 1:dot + 3]
    seconds = formatted[dot + 3:]
    sign = -1.0 if v < 0 else 1.0
    return sign * (math.floor(abs(v)) + float(minutes) / 60.0 +
                   (float(seconds) / math.pow(10, len(seconds) - 2)) / 3600.0)


class Gen:
    def __init__(self, db):
        self.db = db
        self.units = {}
        self.ellipsoids = {}
        self.pms = {}
        self.datums = {}
        self.css = {}
        self.extents = {}
        self.scopes = {}

    def q(self, sql, *args):
        return self.db.execute(sql, args).fetchall()

    def unit(self, code):
        code = int(code)
        if code not in self.units:
            (name, typ, factor), = self.q(
                "SELECT name, type, conv_factor FROM unit_of_measure "
                "WHERE auth_name='EPSG' AND code=?", code)
            self.units[code] = (name, typ, factor)
        return code

    def measure(self, value, uom):
        """A (value, unit) pair with DMS normalised to degree (EPSG:9122)."""
        if value is None:
            return None, None
        uom = int(uom)
        if uom == 9110:
            return dms_to_degrees(value), self.unit(9122)
        return float(value), self.unit(uom)

    def ellipsoid(self, code):
        code = int(code)
        if code not in self.ellipsoids:
            (name, a, uom, invf, b), = self.q(
                "SELECT name, semi_major_axis, uom_code, inv_flattening, semi_minor_axis "
                "FROM ellipsoid WHERE auth_name='EPSG' AND code=?", code)
            self.ellipsoids[code] = (name, a, self.unit(uom), invf, b)
        return code

    def pm(self, code):
        code = int(code)
        if code not in self.pms:
            (name, lon, uom), = self.q(
                "SELECT name, longitude, uom_code FROM prime_meridian "
                "WHERE auth_name='EPSG' AND code=?", code)
            lon, uom = self.measure(lon, uom)
            self.pms[code] = (name, lon, uom)
        return code

    def datum(self, code):
        code = int(code)
        if code in self.datums:
            return code
        (name, ell, pm, epoch, acc, anchor), = self.q(
            "SELECT name, ellipsoid_code, prime_meridian_code, frame_reference_epoch, "
            "ensemble_accuracy, anchor FROM geodetic_datum WHERE auth_name='EPSG' AND code=?", code)
        self.datums[code] = None  # reserve (members recurse)
        members = [m for (m,) in self.q(
            "SELECT member_code FROM geodetic_datum_ensemble_member "
            "WHERE ensemble_auth_name='EPSG' AND ensemble_code=? ORDER BY sequence", code)]
        for m in members:
            self.datum(m)
        self.datums[code] = (name, self.ellipsoid(ell), self.pm(pm), epoch, acc, anchor,
                             [int(m) for m in members])
        return code

    def cs(self, code):
        code = int(code)
        if code not in self.css:
            (typ, dim), = self.q(
                "SELECT type, dimension FROM coordinate_system WHERE auth_name='EPSG' AND code=?", code)
            axes = []
            for name, abbrev, orient, uom in self.q(
                    "SELECT name, abbrev, orientation, uom_code FROM axis "
                    "WHERE coordinate_system_auth_name='EPSG' AND coordinate_system_code=? "
                    "ORDER BY coordinate_system_order", code):
                axes.append((name, abbrev, orient, self.unit(uom)))
            self.css[code] = (typ, axes)
        return code

    def extent(self, code):
        code = int(code)
        if code not in self.extents:
            (name, desc, s, n, w, e), = self.q(
                "SELECT name, description, south_lat, north_lat, west_lon, east_lon "
                "FROM extent WHERE auth_name='EPSG' AND code=?", code)
            self.extents[code] = (name, desc, s, n, w, e)
        return code

    def scope(self, code):
        code = int(code)
        if code not in self.scopes:
            (text,), = self.q("SELECT scope FROM scope WHERE auth_name='EPSG' AND code=?", code)
            self.scopes[code] = text
        return code

    def usages(self, table, code):
        out = []
        for ext, sc in self.q(
                "SELECT extent_code, scope_code FROM usage WHERE object_table_name=? "
                "AND object_auth_name='EPSG' AND object_code=? AND extent_auth_name='EPSG' "
                "AND scope_auth_name='EPSG' ORDER BY rowid", table, code):
            out.append("%d:%d" % (self.extent(ext), self.scope(sc)))
        return ",".join(out)


def generate(dbpath):
    db = sqlite3.connect(dbpath)
    g = Gen(db)
    meta = dict(db.execute("SELECT key, value FROM metadata").fetchall())
    lines = ["F\t%s\tEPSG %s\tPROJ %s" % (FORMAT, meta.get("EPSG.VERSION", "?"),
                                          meta.get("PROJ.VERSION", "?"))]

    projected = g.q(
        "SELECT p.code, p.name, p.geodetic_crs_code, p.coordinate_system_code, p.conversion_code, p.deprecated "
        "FROM projected_crs p WHERE p.auth_name='EPSG' "
        "AND p.geodetic_crs_auth_name='EPSG' AND p.conversion_auth_name='EPSG' ORDER BY p.code")
    geog_codes = {int(r[2]) for r in projected}
    for (c,) in g.q("SELECT code FROM geodetic_crs WHERE auth_name='EPSG' AND type='geographic 2D'"):
        geog_codes.add(int(c))

    # Longitude rotations to the Greenwich twin of a CRS on another prime meridian.
    rotations = {}
    for src, dst, val, uom in g.q(
            "SELECT source_crs_code, target_crs_code, param1_value, param1_uom_code "
            "FROM other_transformation WHERE method_auth_name='EPSG' AND method_code='9601' "
            "AND deprecated=0 AND source_crs_auth_name='EPSG' AND target_crs_auth_name='EPSG' "
            "ORDER BY code"):
        src, dst = int(src), int(dst)
        if src in geog_codes and src not in rotations:
            rotations[src] = (dst, val, uom)
            geog_codes.add(dst)

    geog_rows = []
    for code in sorted(geog_codes):
        (name, typ, cs, datum, dep), = g.q(
            "SELECT name, type, coordinate_system_code, datum_code, deprecated FROM geodetic_crs "
            "WHERE auth_name='EPSG' AND code=?", code)
        geog_rows.append("G\t%d\t%s\t%d\t%d\t%s\t%d\t%s" % (
            code, clean(name), g.datum(datum), g.cs(cs), clean(typ), dep,
            g.usages("geodetic_crs", code)))

    conv_rows = {}
    method_names = {}
    param_names = {}
    proj_rows = []
    for code, name, geog, cs, conv, dep in projected:
        conv = int(conv)
        if conv not in conv_rows:
            row = g.q("SELECT * FROM conversion WHERE auth_name='EPSG' AND code=?", conv)[0]
            cols = [d[0] for d in db.execute("SELECT * FROM conversion LIMIT 0").description]
            r = dict(zip(cols, row))
            params = []
            for i in range(1, 8):
                pc = r["param%d_code" % i]
                if pc is None:
                    continue
                v, u = g.measure(r["param%d_value" % i], r["param%d_uom_code" % i])
                params.append("%s|%s|%d" % (pc, num(v), u))
                param_names[int(pc)] = clean(r["param%d_name" % i])
            method_names[int(r["method_code"])] = clean(r["method_name"])
            conv_rows[conv] = "V\t%d\t%s\t%s\t%s" % (
                conv, clean(r["name"]), r["method_code"], ";".join(params))
        proj_rows.append("P\t%d\t%s\t%d\t%d\t%d\t%d\t%s" % (
            code, clean(name), int(geog), g.cs(cs), conv, dep, g.usages("projected_crs", code)))

    helmert_rows = []
    for row in g.q(
            "SELECT code, name, method_code, source_crs_code, accuracy, tx, ty, tz, translation_uom_code, "
            "rx, ry, rz, rotation_uom_code, scale_difference, scale_difference_uom_code, px, py, pz, "
            "pivot_uom_code, operation_version FROM helmert_transformation WHERE auth_name='EPSG' "
            "AND deprecated=0 AND source_crs_auth_name='EPSG' AND target_crs_auth_name='EPSG' "
            "AND target_crs_code='4326' ORDER BY code"):
        (code, name, method, src, acc, tx, ty, tz, tu, rx, ry, rz, ru, ds, su, px, py, pz, pu, ver) = row
        src = int(src)
        if src not in geog_codes or int(method) not in HELMERT_METHODS:
            continue
        t = g.units[g.unit(tu)][2]
        vals = [tx * t, ty * t, tz * t]
        if rx is not None:
            r_ = g.units[g.unit(ru)][2] / g.units[g.unit(9104)][2]
            s_ = g.units[g.unit(su)][2] / g.units[g.unit(9202)][2]
            vals += [rx * r_, ry * r_, rz * r_, ds * s_]
        else:
            vals += [0, 0, 0, 0]
        if px is not None:
            p_ = g.units[g.unit(pu)][2]
            vals += [px * p_, py * p_, pz * p_]
        else:
            vals += [0, 0, 0]
        usage = g.usages("helmert_transformation", code)
        repl = [str(int(c)) for (c,) in g.q(
            "SELECT replacement_code FROM supersession WHERE superseded_table_name='helmert_transformation' "
            "AND superseded_auth_name='EPSG' AND superseded_code=? AND replacement_auth_name='EPSG' "
            "AND same_source_target_crs=1 ORDER BY replacement_code", code)]
        helmert_rows.append("H\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s" % (
            int(code), clean(name), int(method), src, num(acc), usage,
            ",".join(num(v) for v in vals), clean(ver), ",".join(repl)))

    rot_rows = []
    for src in sorted(rotations):
        dst, val, uom = rotations[src]
        v, u = g.measure(val, uom)
        rot_rows.append("R\t%d\t%d\t%s\t%d" % (src, dst, num(v), u))

    out = lines
    for code in sorted(g.units):
        name, typ, factor = g.units[code]
        out.append("U\t%d\t%s\t%s\t%s" % (code, clean(name), typ, num(factor)))
    for code in sorted(g.ellipsoids):
        name, a, uom, invf, b = g.ellipsoids[code]
        out.append("E\t%d\t%s\t%s\t%d\t%s\t%s" % (code, clean(name), num(a), uom, num(invf), num(b)))
    for code in sorted(g.pms):
        name, lon, uom = g.pms[code]
        out.append("M\t%d\t%s\t%s\t%d" % (code, clean(name), num(lon), uom))
    for code in sorted(g.datums):
        name, ell, pm, epoch, acc, anchor, members = g.datums[code]
        out.append("D\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s" % (
            code, clean(name), ell, pm, num(epoch), "" if acc is None else repr(float(acc)), clean(anchor),
            ",".join(str(m) for m in members)))
    for code in sorted(g.css):
        typ, axes = g.css[code]
        out.append("C\t%d\t%s\t%s" % (code, typ, ";".join(
            "%s|%s|%s|%d" % (clean(n), clean(a), clean(o), u) for n, a, o, u in axes)))
    for code in sorted(g.extents):
        name, desc, s, n, w, e = g.extents[code]
        out.append("A\t%d\t%s\t%s\t%s" % (code, clean(name), clean(desc),
                                          ",".join(num(v) for v in (s, w, n, e))))
    for code in sorted(g.scopes):
        out.append("S\t%d\t%s" % (code, clean(g.scopes[code])))
    for code in sorted(method_names):
        out.append("K\t%d\t%s" % (code, method_names[code]))
    for code in sorted(param_names):
        out.append("Q\t%d\t%s" % (code, param_names[code]))
    out += geog_rows
    out += rot_rows
    out += [conv_rows[c] for c in sorted(conv_rows)]
    out += proj_rows
    out += helmert_rows
    text = ("\n".join(out) + "\n").encode("utf-8")
    counts = {"projected": len(proj_rows), "projected non-deprecated": sum(1 for r in projected if not r[5]),
              "geographic": len(geog_rows),
              "helmert": len(helmert_rows)}
    return text, counts, meta


GO_TEMPLATE = """// Code generated by conformance/crs/gen_tables.py from PROJ's database; DO NOT EDIT.

package crs

import _ "embed"

// epsgTables is the EPSG table (format %s)
// read from proj.db of PROJ %s (EPSG %s, %s): %d projected
// CRSs, %d geographic CRSs, %d Helmert transformations to WGS 84;
// %d bytes. It is embedded uncompressed: internal/core/epsgtables.go
// indexes it on first use and parses each record on its first lookup.
//
//go:embed epsg_tables.txt
var epsgTables string

// epsgTablesSource names the database the tables were generated from.
const epsgTablesSource = "PROJ %s, EPSG %s"
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", default="/usr/share/proj/proj.db")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "..", "crs"))
    args = ap.parse_args()
    text, counts, meta = generate(args.db)
    with open(os.path.join(args.out, "epsg_tables.txt"), "wb") as f:
        f.write(text)
    go = GO_TEMPLATE % (FORMAT, meta.get("PROJ.VERSION"), meta.get("EPSG.VERSION"),
                        meta.get("EPSG.DATE"), counts["projected"], counts["geographic"],
                        counts["helmert"], len(text),
                        meta.get("PROJ.VERSION"), meta.get("EPSG.VERSION"))
    with open(os.path.join(args.out, "epsg_tables.go"), "w") as f:
        f.write(go)
    print("wrote %d bytes: %s" % (len(text), counts))


if __name__ == "__main__":
    main()
