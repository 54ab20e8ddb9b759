import type { ProblemError } from './problem.js';
import { failureProblem } from './refusal-problem.js';

// Workflow refusals and Temporal's own failures are mapped in src/temporal/refusals.ts and rendered
// as any Refusal is (src/http/refusal-problem.ts). This name stays only for src/mcp/tools.ts, which
// passes every error it catches through it (phase 2 of docs/refusals.md moves it to
// src/mcp/refusal-result.ts and deletes this file).

/** @deprecated failureProblem (src/http/refusal-problem.ts): a Refusal, a workflow's refusal or a Temporal failure, as a ProblemError. */
export function temporalProblem(err: unknown): ProblemError | null {
  return failureProblem(err);
}
