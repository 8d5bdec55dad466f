// The edge's check of a session input, before any session starts (startSession, the CLI through
// it, startLocalSession): the workflow's fixed shape check plus every rule that may change between
// releases (what a hook may say: hooks/config.ts). Rules that change live here, never in workflow
// code, so that a session started before a change keeps replaying and continuing-as-new on the new
// worker (DESIGN invariant 14; the workflow keeps only src/workflows/inputShape.ts, frozen).
import { DurableAgentError } from './engine/errors';
import { normalizeHooksConfig } from './hooks/config';
import { sessionInputShapeProblems } from './workflows/inputShape';
import { isTimeZone } from './tools/cronText';
import type { SessionInput } from './workflows/definitions';

/** A session input refused before the session started: nothing was started. */
export class InvalidSessionInputError extends DurableAgentError {
  constructor(readonly problems: string[]) {
    super('INVALID_SESSION_INPUT', `invalid session input: ${problems.join('; ')}`);
  }
}

/** Every problem of a session input as readable strings (empty when it may start). */
export function sessionInputProblems(input: unknown): string[] {
  const problems = sessionInputShapeProblems(input);
  const hooks = input && typeof input === 'object' ? (input as Partial<SessionInput>).hooks : undefined;
  if (hooks !== undefined && !problems.some((p) => p.startsWith('hooks '))) {
    try {
      normalizeHooksConfig({ hooks });
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  const timeZone = input && typeof input === 'object' ? (input as Partial<SessionInput>).timeZone : undefined;
  if (timeZone !== undefined && (typeof timeZone !== 'string' || !isTimeZone(timeZone)))
    problems.push(`timeZone ${JSON.stringify(timeZone)} is not an IANA time zone (e.g. Europe/Berlin, UTC)`);
  return problems;
}

/** Throws InvalidSessionInputError naming every problem; returns the input when it may start. */
export function checkSessionInput<T extends SessionInput>(input: T): T {
  const problems = sessionInputProblems(input);
  if (problems.length > 0) throw new InvalidSessionInputError(problems);
  return input;
}
