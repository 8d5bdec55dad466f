// The checks after a call that threw (afterCall.ts), kept until they pass: the fail-closed half of
// "each screen in its own try" (session 26, round t's lead). Before the next sandboxed command in the
// same directories (sessionPlan.ts sessionSandboxPlan) each is run again: passed, its notes go with
// that command's result; still throwing, the command does not run. The state that makes a screen
// throw is the command's (a FILE where a directory was): the person can remove it; the agent, whose
// sandboxed commands are refused meanwhile, is told which.

/** A call whose checks after it did not all run. */
export interface Unchecked {
  /** The call's working directories (real paths). */
  roots: readonly string[];
  /** What threw, for the refusal (updated at each retry). */
  why: string;
  /** Runs the screens that threw again: their notes, and those that threw again (none: done). */
  retry: () => Promise<{ notes: string[]; failed: string[] }>;
}

const pending = new Set<Unchecked>();

export function recordUnchecked(u: Unchecked): void {
  pending.add(u);
}

const overlaps = (a: readonly string[], b: readonly string[]) =>
  a.some((x) => b.some((y) => x === y || x.startsWith(y.endsWith('/') ? y : `${y}/`) || y.startsWith(`${x}/`)));

/**
 * Before a sandboxed command in `roots`: the checks after earlier calls there that threw, run again.
 * Their notes (for this command's result); throws — the command does not run — while one still throws.
 */
export async function recheckUnchecked(roots: readonly string[], who: string): Promise<string[]> {
  const notes: string[] = [];
  for (const u of [...pending]) {
    if (!overlaps(u.roots, roots)) continue;
    const again = await u.retry();
    notes.push(...again.notes);
    if (again.failed.length === 0) {
      pending.delete(u);
      continue;
    }
    u.why = again.failed.join('; ');
    throw new Error(
      `${who} did not run: the check after an earlier sandboxed command in ${u.roots.join(', ')} still cannot run (${u.why}); until it passes no sandboxed command runs there (it may have left writes the check would undo). Remove what makes it fail — the path named — and try again.`,
    );
  }
  return notes;
}

/** Checks that did not pass yet, for tests and status. */
export function uncheckedCount(): number {
  return pending.size;
}
