import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ProblemError } from '../http/problem.js';
import { Refusal } from '../refusal.js';
import { refusalFromTemporal } from '../temporal/refusals.js';

// The one translation of a refusal into what an MCP tool answers (docs/refusals.md): an isError
// result whose text is {"error": {code, message, fields?, suggestions?}}. Fields are named as the
// tool's own arguments are, which is how the Refusal already names them ("pickup", never
// "body.pickup"). A refusal the caller cannot act on (the service unavailable) and anything
// unexpected are logged and told as one "try again in a minute".

/** A tool error, as the assistant reads it. */
export function toolError(code: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: { code, message, ...extra } }) }] };
}

/** A Refusal as the tool error the assistant is told; null for the kinds it cannot act on. */
export function refusalResult(r: Refusal): CallToolResult | null {
  if (r.kind === 'unavailable') return null;
  const suggestions = r.details.suggestions;
  return toolError(r.code, r.message, {
    ...(r.fields.length > 0 ? { fields: r.fields.map((f) => ({ field: f.name, message: f.message })) } : {}),
    ...(Array.isArray(suggestions) && suggestions.length > 0 ? { suggestions } : {}),
    ...(typeof r.details.question === 'string' ? { question: r.details.question } : {}),
  });
}

/** Request-shaped field names ("body.pickup") as the tool's own ("pickup"): for ProblemErrors only. */
const argumentName = (field: string) => field.replace(/^(body|querystring)\./, '');

/**
 * A ProblemError is HTTP's own (use cases refuse with a Refusal, and ESLint keeps them from
 * importing ProblemError): should one reach a tool through shared code, it is told the same way,
 * its fields without the request location HTTP gave them.
 */
function problemResult(p: ProblemError): CallToolResult | null {
  if (p.status >= 500) return null;
  const { errors, suggestions } = p.extra;
  return toolError(p.code, p.message, {
    ...(errors ? { fields: errors.map((e) => ({ field: argumentName(e.field), message: e.message })) } : {}),
    ...(Array.isArray(suggestions) && suggestions.length > 0 ? { suggestions } : {}),
  });
}

/** Anything a tool threw that the caller can act on (a workflow's refusal included), as its tool error; null for the rest. */
export function toolRefusal(caught: unknown): CallToolResult | null {
  if (caught instanceof ProblemError) return problemResult(caught);
  const refusal = caught instanceof Refusal ? caught : refusalFromTemporal(caught);
  return refusal ? refusalResult(refusal) : null;
}

/** What a tool answers for anything it threw: its refusal, or (logged for the operators) "try again". */
export function toolFailure(caught: unknown, logError: (message: string, err: unknown) => void): CallToolResult {
  const refused = toolRefusal(caught);
  if (refused) return refused;
  logError('mcp tool failed', caught);
  return toolError(
    'temporarily_unavailable',
    'The taxi service could not complete this just now. Try again in a minute.',
  );
}
