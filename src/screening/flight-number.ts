// A flight number lets the driver track a late arrival, so it must be one a flight tracker can
// look up: an airline designator, IATA (two characters, at least one a letter: BA, U2, 3U) or
// ICAO (three letters: BAW, EZY), then 1-4 digits and an optional operational suffix letter.
// Anything else in the field is refused rather than screened as free text.

export type FlightNumberCheck = { ok: true; value: string } | { ok: false; reason: string };

const MAX_INPUT_LENGTH = 16;
// A space or hyphen, when given, ends the designator: "B 283" is not Belavia's B2 flight 83.
const FLIGHT_NUMBER = /^(?<airline>[A-Z]{3}|[A-Z][A-Z0-9]|[0-9][A-Z])[ -]?(?<number>[0-9]{1,4})(?<suffix>[A-Z]?)$/;

/** "BA 283", "ba283" and "BA0283" all become "BA283": leading zeros are dropped so each flight has one spelling. */
export function normaliseFlightNumber(input: string): FlightNumberCheck {
  if (input.length > MAX_INPUT_LENGTH) return { ok: false, reason: 'flight number is too long' };
  const groups = FLIGHT_NUMBER.exec(input.trim().toUpperCase().replace(/\s+/g, ' '))?.groups;
  if (!groups) {
    return {
      ok: false,
      reason: 'flight number must be an airline code and 1-4 digits, e.g. BA 283, U2 8123 or EZY1234',
    };
  }
  const { airline = '', number = '', suffix = '' } = groups;
  return { ok: true, value: `${airline}${String(Number(number))}${suffix}` };
}
