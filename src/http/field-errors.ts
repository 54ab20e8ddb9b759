// A zod validation issue as the fields a sender must fix, in plain words: one wording for every
// route's 400 (src/plugins/error-handler.ts) and for each rejected item of a partner batch
// (src/partners/intake.ts), which is parsed one job at a time.

/** The part of a zod issue read here (fastify-type-provider-zod passes the rest as a validation error's params). */
export interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  /** invalid_union: each alternative's issues. */
  errors?: Issue[][];
}

/**
 * One validation error as the fields a sender must fix. A body that fits none of a union's forms
 * (the v1 booking: a quote_id, or the direct form) is told about the form it came nearest to, the
 * one with the fewest issues, field by field, not "body: Invalid input". A field left out is "is
 * required", not zod's "expected string, received undefined".
 */
export function fieldErrors(
  issue: Partial<Issue> & Record<string, unknown>,
  path: string[],
  message: string | undefined,
  input: unknown,
): { path: string[]; message: string }[] {
  const alternatives = issue.errors?.filter((e) => e.length > 0);
  if (alternatives?.length) {
    const nearest = alternatives.reduce((a, b) => (b.length < a.length ? b : a));
    return nearest.flatMap((i) =>
      fieldErrors(i as Issue & Record<string, unknown>, [...path, ...i.path.map(String)], i.message, input),
    );
  }
  const missing =
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') && valueAt(input, path) === undefined;
  return [{ path, message: missing ? 'is required' : plainMessage(issue, message) }];
}

/**
 * Our schemas' own messages ("must be an email address") as written; zod's defaults ("Too small:
 * expected string to have >=5 characters", "Invalid option: expected one of ...") in the same
 * plain words, since pages show them beside the field.
 */
function plainMessage(issue: Partial<Issue> & Record<string, unknown>, message: string | undefined): string {
  if (message && !/^(Too (small|big)|Invalid|Expected|Unrecognized)\b/.test(message)) return message;
  const origin = issue.origin;
  const size = (n: unknown) =>
    origin === 'string' ? `${String(n)} characters` : origin === 'array' ? `${String(n)} items` : String(n);
  switch (issue.code) {
    case 'too_small':
      return origin === 'string' && issue.minimum === 1
        ? 'must not be empty'
        : `must be at least ${size(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${size(issue.maximum)}`;
    case 'invalid_value':
      return Array.isArray(issue.values) && issue.values.length > 0
        ? `must be one of: ${issue.values.map(String).join(', ')}`
        : 'is not an allowed value';
    case 'invalid_type':
      return typeof issue.expected === 'string' ? `must be ${article(issue.expected)}` : 'is invalid';
    case 'invalid_format':
      return typeof issue.format === 'string' ? `must be ${article(issue.format.replace(/_/g, ' '))}` : 'is invalid';
    case 'unrecognized_keys':
      return Array.isArray(issue.keys)
        ? `has fields this request does not take: ${issue.keys.join(', ')}`
        : 'is invalid';
    default:
      return 'is invalid';
  }
}

const article = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

function valueAt(input: unknown, path: string[]): unknown {
  let at = input;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
