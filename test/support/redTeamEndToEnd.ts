// The set-up of a file of end-to-end attack rows (integration/red-issue30-m, -n, -o, -p, -q, -r):
// while every row of the file is skipped nothing is started (no dev server, no worker); otherwise a
// look at the OS sandbox, the file's Temporal dev server and a control fixture (a bait HOME and the
// projects under its root), removed after the file. At the file's top level, after its ROWS:
//   const { allSkipped, setUp } = redTeamEndToEnd(ROWS, 'r');
//   let skip: string | false = false;
//   let fx: ControlFixture;
//   before(async () => ({ skip, fx } = await setUp()));
import * as fs from 'node:fs';
import { after } from 'node:test';
import { SandboxHost } from '../../src/sandbox/host';
import { closeTestEnv, getTestEnv } from './temporal';
import { sandboxSkip } from './systemPackages';
import { createControlFixture, type ControlFixture } from './controlAttacks';

export interface RedTeamEndToEnd {
  /** Every row is skipped: setUp starts nothing. */
  readonly allSkipped: boolean;
  /** Why to skip (no OS sandbox), or false; the fixture (left unset while every row is skipped). */
  setUp(): Promise<{ skip: string | false; fx: ControlFixture }>;
}

/** `round`: the sandbox check's words, `the issue 30 round <round> end-to-end attacks`. */
export function redTeamEndToEnd(rows: Readonly<Record<string, { skip?: string }>>, round: string): RedTeamEndToEnd {
  const allSkipped = Object.values(rows).every((o) => 'skip' in o);
  let fx: ControlFixture | undefined;
  after(async () => {
    if (allSkipped) return;
    if (fx) fs.rmSync(fx.root, { recursive: true, force: true });
    await closeTestEnv();
  });
  return {
    allSkipped,
    async setUp() {
      if (allSkipped) return { skip: false, fx: fx as ControlFixture };
      const host = new SandboxHost();
      const skip = await sandboxSkip(host, `the issue 30 round ${round} end-to-end attacks`);
      await host.close();
      await getTestEnv();
      fx = createControlFixture();
      return { skip, fx };
    },
  };
}
