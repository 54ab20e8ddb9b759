/**
 * Terminals people name when they book ("Manchester Airport T2", "Gatwick North Terminal"), placed
 * at the terminal's entrance as NaPTAN publishes it: the airport entrance points (stop type GAT) of
 * NaPTAN's national air file, 920Stops.csv (DfT, Open Government Licence v3.0; read from
 * ldjb/naptan-nptg-history at 57019648e5ebb898d921623d4b37eeb0bb23a5f0). Heathrow's terminals
 * come from their rail stations (gazetteer.ts); only terminals in use today are listed (Heathrow
 * T1 closed in 2015, Birmingham's two became one in 2011).
 */
export interface AirportTerminal {
  iata: string;
  /** How people name the airport before the terminal ("manchester", "gatwick"). */
  short: string;
  /** "1", "2" (said "Terminal 2", "T2") or "north", "south" (said "North Terminal"). */
  terminal: string;
  naptan: string;
  lat: number;
  lon: number;
}

export const AIRPORT_TERMINALS: readonly AirportTerminal[] = [
  { iata: 'MAN', short: 'manchester', terminal: '1', naptan: '9200MAN1', lat: 53.36273, lon: -2.27345 },
  { iata: 'MAN', short: 'manchester', terminal: '2', naptan: '9200MAN2', lat: 53.36712, lon: -2.27949 },
  { iata: 'MAN', short: 'manchester', terminal: '3', naptan: '9200MAN3', lat: 53.36058, lon: -2.27013 },
  { iata: 'LGW', short: 'gatwick', terminal: 'north', naptan: '9200LGW1', lat: 51.1607, lon: -0.17938 },
  { iata: 'LGW', short: 'gatwick', terminal: 'south', naptan: '9200LGW2', lat: 51.1562, lon: -0.16397 },
];

/** A terminal in words, after the airport's name: "Terminal 2", "North Terminal". */
export const terminalWords = (t: string): string =>
  /^\d+$/.test(t) ? `Terminal ${t}` : `${t[0]?.toUpperCase()}${t.slice(1)} Terminal`;
