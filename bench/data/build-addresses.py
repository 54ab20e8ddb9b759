"""Builds bench/data/addresses.csv: real street addresses with full postcodes, each with where it
comes from and its published position, for the geocoding benchmark (bench/geocode-addresses.ts,
test/unit/geo/addresses-benchmark.test.ts). ADDRESSES-SOURCES.md describes the sources.

    python3 bench/data/build-addresses.py NHS_HOSPITAL_CSV PHS_HOSPITAL_CSV MAPPING_MUSEUMS_CSV

The three inputs are files of public repositories, pinned:
  TheRealMolen/nhs @ 47998184de5f        data/Hospital.csv  (NHS Choices, Feb 2018, OGL v3)
  lllucy-lpl/Waiting-time @ 9e83aa955cae data/hospital_codes.csv (Public Health Scotland, OGL v3)
  Aron-Data/Museums @ 222cf3bd2af6       MappingMuseumsData2021_09_30.csv (Mapping Museums, CC BY 4.0)
(e.g. `git show <commit>:<path> > file` in a clone). Same inputs, same output bytes.

Each address gives two queries: the address as written without its postcode (kind
`street_address`) and with it (kind `full_postcode`). Positions are the source's own: NHS
Choices' latitude/longitude, PHS's British National Grid point (converted to WGS84 as in
scripts/build-postcodes.py), Mapping Museums' latitude/longitude. No position was geocoded here.
"""

import csv
import hashlib
import importlib.util
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUTPUT = HERE / "addresses.csv"

spec = importlib.util.spec_from_file_location("build_postcodes", ROOT / "scripts" / "build-postcodes.py")
assert spec and spec.loader
build_postcodes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_postcodes)

NHS = "NHS Choices Hospital.csv (Feb 2018, OGL v3) via github TheRealMolen/nhs@47998184de5f data/Hospital.csv"
PHS = "Public Health Scotland Current NHS Hospitals in Scotland (OGL v3) via github lllucy-lpl/Waiting-time@9e83aa955cae data/hospital_codes.csv"
MM = "Mapping Museums 2021-09-30 (Birkbeck, CC BY 4.0) via github Aron-Data/Museums@222cf3bd2af6 MappingMuseumsData2021_09_30.csv"

INNER_LONDON_AREAS = {"E", "EC", "N", "NW", "SE", "SW", "W", "WC"}
GM_AREAS = {"M", "BL", "OL", "WN"}
WY_AREAS = {"LS", "BD", "HD", "HX", "WF"}
STREET_ENDINGS = r"(?:Road|Street|Lane|Avenue|Way|Rd|St)"

# Addresses per region and source, taken in id order: enough for a benchmark that runs in CI.
CAPS = {
    ("London", "nhs"): 40,
    ("London", "mm"): 40,
    ("Greater Manchester", "nhs"): 30,
    ("Greater Manchester", "mm"): 25,
    ("West Yorkshire", "nhs"): 30,
    ("West Yorkshire", "mm"): 25,
    ("Birmingham", "nhs"): 25,
    ("Birmingham", "mm"): 20,
    ("Glasgow", "phs"): 40,
    ("Glasgow", "mm"): 20,
    ("Cardiff", "mm"): 20,
    ("Belfast", "mm"): 25,
    ("Crown Dependencies", "mm"): 40,
    ("Northern Ireland (other)", "mm"): 30,
    ("Wales (other)", "mm"): 20,
}


def town_names() -> list[str]:
    names = set()
    with open(ROOT / "data" / "gazetteer" / "gb_places.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["local_type"] in ("City", "Town") and re.fullmatch(r"[A-Za-z][A-Za-z ]+", row["name"]):
                names.add(row["name"])
    return sorted(names, key=lambda n: (-len(n), n))


TOWNS = town_names()
TOWN_STREET = re.compile(r"\b(" + "|".join(re.escape(t) for t in TOWNS) + r") " + STREET_ENDINGS + r"\b")


def area_of(postcode: str) -> str:
    m = re.match(r"[A-Z]+", postcode)
    return m.group(0) if m else ""


WELSH_AREAS = {"CF", "SA", "NP", "LD", "LL"}
SCOTTISH_AREAS = {"G", "KA", "PA", "ML", "FK", "EH", "DG", "TD", "KY", "AB", "DD", "IV", "PH", "KW", "HS", "ZE"}


def country_of(postcode: str, admin: str = "") -> str:
    """The country of the address: the source's own admin path when it has one, else the postcode area."""
    for name in ("England", "Wales", "Scotland", "Northern Ireland", "Isle of Man"):
        if admin.startswith(f"/{name}"):
            return name
    area = area_of(postcode)
    if area in ("BT", "JE", "GY", "IM"):
        return {"BT": "Northern Ireland", "JE": "Jersey", "GY": "Guernsey", "IM": "Isle of Man"}[area]
    return "Wales" if area in WELSH_AREAS else "Scotland" if area in SCOTTISH_AREAS else "England"


def clean(parts: list[str]) -> list[str]:
    out: list[str] = []
    for p in parts:
        p = re.sub(r"\s+", " ", p or "").strip().strip(",")
        if p and p.lower() not in (o.lower() for o in out):
            out.append(p)
    return out


def nhs_rows(path: str):
    with open(path, encoding="latin-1") as f:
        for r in csv.DictReader(f, delimiter="\u00ac", quoting=csv.QUOTE_NONE):
            pc = r["Postcode"].strip()
            if not r["Latitude"] or not r["Longitude"]:
                continue
            area = area_of(pc)
            region = (
                "London" if area in INNER_LONDON_AREAS
                else "Greater Manchester" if area in GM_AREAS or (area == "SK" and r["County"] == "Greater Manchester")
                else "West Yorkshire" if area in WY_AREAS
                else "Birmingham" if area == "B" and r["City"].strip().lower() == "birmingham"
                else "elsewhere"
            )
            lines = [p for p in clean([r["Address1"], r["Address2"], r["Address3"]]) if p.lower() != r["OrganisationName"].strip().lower()]
            yield {
                "source_key": "nhs", "id": r["OrganisationCode"], "name": r["OrganisationName"].strip(), "lines": lines,
                "town": r["City"].strip(), "postcode": pc, "lat": float(r["Latitude"]), "lon": float(r["Longitude"]),
                "region": region, "source": f"{NHS} OrganisationCode {r['OrganisationCode']}",
            }


def phs_rows(path: str):
    with open(path, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            address = r["AddressLine"]
            if "Glasgow" not in address or not r["XCoordinate"]:
                continue
            lat, lon = build_postcodes.osgb36_to_wgs84(float(r["XCoordinate"]), float(r["YCoordinate"]))
            parts = clean(address.split(","))
            yield {
                "source_key": "phs", "id": r["Location"], "name": r["LocationName"].strip(), "lines": parts[:-1],
                "town": parts[-1], "postcode": r["Postcode"].strip(), "lat": lat, "lon": lon, "region": "Glasgow",
                "source": f"{PHS} Location {r['Location']} (BNG {r['XCoordinate']},{r['YCoordinate']})",
            }


def mm_rows(path: str):
    with open(path, encoding="utf-8", errors="replace") as f:
        rows = [r for r in csv.DictReader(f) if r["Year_closed"].startswith("9999")]
    # A few rows carry a stand-in position shared by unrelated places (49.22077,-2.10712 for
    # several Jersey museums): a position that more than one postcode shares is not a position.
    postcodes_at: dict[tuple[str, str], set[str]] = {}
    for r in rows:
        postcodes_at.setdefault((r["Latitude"], r["Longitude"]), set()).add(r["Postcode"].strip())
    for r in rows:
        admin = r["Admin_area"]
        region = (
            "London" if "/London (English Region)" in admin
            else "Greater Manchester" if "Greater Manchester" in admin
            else "West Yorkshire" if "West Yorkshire" in admin
            else "Birmingham" if "/Birmingham (" in admin
            else "Glasgow" if "Glasgow City" in admin
            else "Cardiff" if "Cardiff" in admin
            else "Belfast" if "/Belfast (" in admin
            else "Crown Dependencies" if "Channel Islands" in admin or "Isle of Man" in admin
            else "Northern Ireland (other)" if admin.startswith("/Northern Ireland")
            else "Wales (other)" if admin.startswith("/Wales")
            else "elsewhere"
        )
        try:
            lat, lon = float(r["Latitude"]), float(r["Longitude"])
        except ValueError:
            continue
        pc = r["Postcode"].strip().upper()
        if not (49 < lat < 61) or len(postcodes_at[(r["Latitude"], r["Longitude"])]) > 1 or not re.fullmatch(r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}", pc):
            continue
        lines = clean([r["Street_Address"], r["Address_line_2"]])
        yield {
            "source_key": "mm", "id": r["Museum_ID"], "name": r["Museum_Name"].strip(), "lines": lines,
            "town": r["City"].strip(), "postcode": pc, "lat": lat, "lon": lon, "region": region,
            "source": f"{MM} Museum_ID {r['Museum_ID']}", "admin": admin,
        }


# A published position this far from the middle of its own postcode sector contradicts its
# postcode (Newry and Mourne Museum is given 12 km from Castle Street, Newry): the source's slip,
# so the row is left out rather than used as the truth.
SECTOR_DISAGREEMENT_KM = 8


def sector_centres() -> dict[str, tuple[float, float]]:
    with open(ROOT / "data" / "gazetteer" / "postcode_sectors.csv", encoding="utf-8") as f:
        return {r["sector"]: (float(r["latitude"]), float(r["longitude"])) for r in csv.DictReader(f)}


def km(a: tuple[float, float], b: tuple[float, float]) -> float:
    import math
    dlat, dlon = math.radians(b[0] - a[0]), math.radians(b[1] - a[1])
    h = math.sin(dlat / 2) ** 2 + math.cos(math.radians(a[0])) * math.cos(math.radians(b[0])) * math.sin(dlon / 2) ** 2
    return 12742 * math.asin(math.sqrt(h))


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sectors = sector_centres()
    records = [*nhs_rows(sys.argv[1]), *phs_rows(sys.argv[2]), *mm_rows(sys.argv[3])]
    dropped = [r for r in records if r["postcode"][:-2] in sectors and km(sectors[r["postcode"][:-2]], (r["lat"], r["lon"])) > SECTOR_DISAGREEMENT_KM]
    records = [r for r in records if r not in dropped]
    print(f"left out {len(dropped)} rows whose position is over {SECTOR_DISAGREEMENT_KM} km from their postcode sector: "
          + "; ".join(f"{r['name']} {r['postcode']}" for r in dropped[:20]))
    taken: list[dict] = []
    counts: dict[tuple[str, str], int] = {}
    seen_postcodes: set[str] = set()
    for rec in sorted(records, key=lambda r: (r["source_key"], r["id"])):
        if not rec["town"] or not rec["postcode"] or rec["postcode"] in seen_postcodes:
            continue
        street_text = ", ".join(rec["lines"])
        named_after_town = bool(TOWN_STREET.search(street_text))
        key = (rec["region"], rec["source_key"])
        if rec["region"] == "elsewhere":
            # Outside the regions, only streets named after towns ("London Road, Derby").
            if not named_after_town or counts.get(key, 0) >= 40:
                continue
        elif counts.get(key, 0) >= CAPS.get(key, 0) and not named_after_town:
            continue
        counts[key] = counts.get(key, 0) + 1
        seen_postcodes.add(rec["postcode"])
        rec["named_after_town"] = named_after_town
        taken.append(rec)

    header = ["id", "region", "kind", "query", "town", "postcode", "country", "lat", "lon", "street_named_after_town", "place", "source"]
    with open(OUTPUT, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for rec in taken:
            lines = [*rec["lines"], rec["town"]] if rec["town"].lower() not in (l.lower() for l in rec["lines"]) else rec["lines"]
            # In the Crown dependencies the island is the post town, and every postal address ends with it.
            island = {"JE": "Jersey", "GY": "Guernsey", "IM": "Isle of Man"}.get(area_of(rec["postcode"]))
            if island and island.lower() not in lines[-1].lower():
                lines = [*lines, island]
            address = ", ".join(lines)
            country = country_of(rec["postcode"], rec.get("admin", ""))
            for kind, query in (("street_address", address), ("full_postcode", f"{address} {rec['postcode']}")):
                w.writerow([
                    f"{rec['source_key']}:{rec['id']}:{kind}", rec["region"], kind, query, rec["town"], rec["postcode"], country,
                    f"{rec['lat']:.5f}", f"{rec['lon']:.5f}", int(rec["named_after_town"]), rec["name"], rec["source"],
                ])
    by_region: dict[str, int] = {}
    for rec in taken:
        by_region[rec["region"]] = by_region.get(rec["region"], 0) + 1
    digest = hashlib.sha256(OUTPUT.read_bytes()).hexdigest()[:12]
    print(f"wrote {OUTPUT}: {len(taken)} addresses, {2 * len(taken)} queries, sha256 {digest}…; per region {by_region}; "
          f"streets named after towns {sum(r['named_after_town'] for r in taken)}")


if __name__ == "__main__":
    main()
