// Every GB unit postcode to a point: data/gazetteer/postcode_units.bin.gz, built from OS Code-Point
// Open by scripts/build-postcodes.py (its docstring gives the format; licence and attribution in
// data/gazetteer/LICENCES.md). 1.74 million units in about 6.6 MB once unzipped.
//
// The unzipped file is kept as one buffer and read in place: a sector's units are decoded only
// when a query asks for one of them (at most 400 varint pairs), so a process pays about 7 MB
// and one gunzip for the lot, not a Map of 1.7 million strings. Loaded on first need, or off the
// event loop at API start (preloadPostcodeUnits: zlib's async gunzip runs on the thread pool).
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { gunzip, gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';

export const DEFAULT_POSTCODE_UNITS_PATH = new URL('../../data/gazetteer/postcode_units.bin.gz', import.meta.url);

const MAGIC = 'PCU1';
const UNIT_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';
const BITMAP_BYTES = 50;
const SCALE = 1e5;
const gunzipAsync = promisify(gunzip);

/** A unit postcode's point (WGS84). */
export interface UnitPoint {
  postcode: string;
  lat: number;
  lon: number;
}

export class PostcodeUnits {
  private readonly sectorIndex = new Map<string, number>();
  private readonly offsets: Uint32Array;
  private readonly bitmapsAt: number;
  private readonly coordsAt: number;
  readonly sectorCount: number;
  readonly unitCount: number;

  constructor(private readonly data: Uint8Array) {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (new TextDecoder().decode(data.subarray(0, 4)) !== MAGIC) throw new Error('postcode units: not a PCU1 file');
    this.sectorCount = view.getUint32(4, true);
    this.unitCount = view.getUint32(8, true);
    const namesLength = view.getUint32(12, true);
    const names = new TextDecoder()
      .decode(data.subarray(16, 16 + namesLength))
      .trimEnd()
      .split('\n');
    if (names.length !== this.sectorCount) throw new Error('postcode units: sector table does not match its count');
    names.forEach((name, i) => this.sectorIndex.set(name, i));
    const offsetsAt = 16 + namesLength;
    this.offsets = new Uint32Array(this.sectorCount + 1);
    for (let i = 0; i <= this.sectorCount; i++) this.offsets[i] = view.getUint32(offsetsAt + i * 4, true);
    this.bitmapsAt = offsetsAt + (this.sectorCount + 1) * 4;
    this.coordsAt = this.bitmapsAt + this.sectorCount * BITMAP_BYTES;
  }

  static fromGzip(gz: Uint8Array): PostcodeUnits {
    return new PostcodeUnits(gunzipSync(gz));
  }

  /** Bytes held once loaded. */
  get byteLength(): number {
    return this.data.byteLength;
  }

  /** Whether the data has any unit in this sector ("M14 5"). */
  hasSector(sector: string): boolean {
    return this.sectorIndex.has(sector.toUpperCase());
  }

  /**
   * The point of a full unit postcode in any spacing or case ("M14 5TQ", "m145tq"), or null when
   * the unit is not in the data (not a postcode, retired, newer than the data, Northern Ireland,
   * the Crown dependencies, or a unit Code-Point places only at its sector's mean).
   */
  find(postcode: string): UnitPoint | null {
    const compact = postcode.toUpperCase().replace(/\s+/g, '');
    if (compact.length < 5 || compact.length > 7) return null;
    const inward = compact.slice(-3);
    const outward = compact.slice(0, -3);
    const sector = this.sectorIndex.get(`${outward} ${inward[0]}`);
    const first = UNIT_LETTERS.indexOf(inward[1] ?? '');
    const second = UNIT_LETTERS.indexOf(inward[2] ?? '');
    if (sector === undefined || first < 0 || second < 0) return null;
    const slot = first * 20 + second;
    const bitmap = this.bitmapsAt + sector * BITMAP_BYTES;
    if (((this.data[bitmap + (slot >> 3)] ?? 0) & (1 << (slot & 7))) === 0) return null;
    // Its rank among the sector's units: how many lat/lon pairs to read past.
    let rank = 0;
    for (let b = 0; b < slot >> 3; b++) rank += popcount8(this.data[bitmap + b] ?? 0);
    rank += popcount8((this.data[bitmap + (slot >> 3)] ?? 0) & ((1 << (slot & 7)) - 1));
    let at = this.coordsAt + (this.offsets[sector] ?? 0);
    let lat = 0;
    let lon = 0;
    for (let i = 0; i <= rank; i++) {
      const dLat = this.varint(at);
      const dLon = this.varint(dLat.next);
      lat += dLat.value;
      lon += dLon.value;
      at = dLon.next;
    }
    return { postcode: `${outward} ${inward}`, lat: lat / SCALE, lon: lon / SCALE };
  }

  private varint(at: number): { value: number; next: number } {
    let z = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = this.data[at++] ?? 0;
      z += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return { value: z % 2 === 0 ? z / 2 : -(z + 1) / 2, next: at };
  }
}

function popcount8(byte: number): number {
  let n = 0;
  for (let b = byte; b !== 0; b &= b - 1) n++;
  return n;
}

let units: PostcodeUnits | null | undefined;
let loading: Promise<PostcodeUnits | null> | undefined;

/** The shared index, read synchronously on first use if the background load has not finished; null without the file. */
export function postcodeUnits(path: URL = DEFAULT_POSTCODE_UNITS_PATH): PostcodeUnits | null {
  if (units === undefined) units = existsSync(path) ? PostcodeUnits.fromGzip(readFileSync(path)) : null;
  return units;
}

/** Loads the index off the request path (API start), unzipping on the thread pool. */
export function preloadPostcodeUnits(path: URL = DEFAULT_POSTCODE_UNITS_PATH): Promise<PostcodeUnits | null> {
  loading ??= (async () => {
    if (!existsSync(path)) return (units = null);
    const built = new PostcodeUnits(await gunzipAsync(await readFile(path)));
    // A query that could not wait may have read the file synchronously meanwhile: keep that one.
    units ??= built;
    return units;
  })();
  return loading;
}
