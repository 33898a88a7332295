// Package wkt reads and writes CRS descriptions: WKT1 (GDAL and ESRI
// flavours) and WKT2 (2015 and 2019, BOUNDCRS included) into the CRSs of
// crs/internal/core (Parse), and WKT2:2019 (NodeOf, Node.Write) and
// PROJJSON (PROJJSON) as PROJ 9.1 prints them. crs's GeoTIFF code builds
// GDAL's variants of the WKT from the same nodes.
package wkt
