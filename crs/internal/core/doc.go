// Package core is the model of package crs: the EPSG registry parsed from
// the tables generated from PROJ's database (crs embeds them and parses
// them once with ParseRegistry), geodetic datums with the Helmert shifts
// to WGS 84 PROJ would choose, geographic and projected CRSs built from
// the registry or from a user's definition, the aeqd:LAT,LON systems,
// identification of a user-defined CRS as PROJ identifies it, and the
// PROJ string a user-defined CRS prints as its name, with PROJ's named
// ellipsoids, datums, prime meridians and units.
//
// The readers and writers of definitions (crs/internal/wkt,
// crs/internal/projstring) build and read these types; crs exposes them
// through its CRS interface. Nothing here keeps global state: the
// registry is an argument.
package core
