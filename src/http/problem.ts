import { z } from 'zod';
import { PRECISIONS } from '../geo/types.js';

// One error body for every error: RFC 9457 problem details, plus a stable machine code and,
// for input errors, the offending fields.

export const FieldErrorSchema = z.object({
  field: z.string().describe('Dotted path of the offending field, e.g. "body.passengers"'),
  message: z.string(),
});

export const PlaceSuggestionSchema = z
  .object({
    label: z.string(),
    kind: z.string().describe('place, station, airport, poi, street, postcode, postcode_district, postcode_sector'),
    town: z.string().nullable(),
    precision: z.enum(PRECISIONS),
  })
  .meta({ id: 'PlaceSuggestion' });

export const ProblemSchema = z
  .object({
    type: z.string().describe('URI naming the problem type'),
    title: z.string(),
    status: z.number().int(),
    code: z.string().describe('Stable machine-readable code, e.g. validation_failed, quote_expired'),
    detail: z.string().optional(),
    instance: z.string().optional(),
    request_id: z.string().optional(),
    errors: z.array(FieldErrorSchema).optional(),
    suggestions: z
      .array(PlaceSuggestionSchema)
      .max(5)
      .optional()
      .describe(
        'With address_uncertain and address_not_found: up to five places the caller may have meant, best first',
      ),
    question: z
      .enum(['postcode'])
      .optional()
      .describe(
        'With address_uncertain: what would settle the address. "postcode": a house number on a street we cannot place; send the same address with its postcode',
      ),
  })
  .catchall(z.unknown())
  .meta({ id: 'Problem' });

export type Problem = z.infer<typeof ProblemSchema>;
export type FieldError = z.infer<typeof FieldErrorSchema>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Thrown anywhere in a request; the error handler renders it as application/problem+json. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; [k: string]: unknown } = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
  }

  toProblem(requestId: string, instance: string): Problem {
    const { headers: _headers, ...rest } = this.extra;
    return {
      type: `https://docs.direct-taxi.invalid/problems/${this.code.replace(/_/g, '-')}`,
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      code: this.code,
      detail: this.message,
      instance,
      request_id: requestId,
      ...rest,
    };
  }
}

/** Shorthand for route schemas: the problem body under every listed error status. */
export function problemResponses<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((s) => [s, ProblemSchema.describe(TITLES[s] ?? 'Error')])) as {
    [K in S[number]]: typeof ProblemSchema;
  };
}
