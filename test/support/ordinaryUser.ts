// Runs a test support script (built, under dist/test/support; with `args`) as an ordinary user: uid 65534 through
// setpriv when the suite runs as root (CI does: root ignores file modes, so an attack that takes
// rights away from what it made is seen only this way), else as the current user. The script prints
// one JSON line last; that line is returned, or the reason the row is skipped.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isCI } from './systemPackages';

export const NOBODY = 65534;

/** The report every such script prints: its uid, whether the sandbox was available, its results. */
export interface OrdinaryUserReport<R> {
  uid: number;
  available: boolean;
  reason?: string;
  results: R[];
}

/**
 * Runs `script` (a path under dist/test/support) as an ordinary user with a scratch HOME and TMPDIR;
 * returns its report, or `{ skip }` (setpriv missing, the build unreadable to that user, no sandbox
 * there — each a failure under CI where it must run).
 */
export async function runAsOrdinaryUser<R>(
  script: string,
  args: readonly string[] = [],
): Promise<{ report: OrdinaryUserReport<R> } | { skip: string }> {
  const root = process.getuid?.() === 0;
  if (root && spawnSync('setpriv', ['--version']).status !== 0) {
    if (isCI()) assert.fail('setpriv (util-linux) is needed to run this row as an ordinary user');
    return { skip: 'setpriv is not installed' };
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'da-owner-run-'));
  fs.chmodSync(scratch, 0o755);
  if (root) fs.chownSync(scratch, NOBODY, NOBODY);
  const argv = root
    ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, script]
    : [process.execPath, script];
  const env = { ...process.env, HOME: scratch, TMPDIR: scratch };
  try {
    // The build must be readable by that user (a checkout under a private directory is not): else skipped.
    const reach = spawnSync(argv[0]!, [...argv.slice(1, -1), '-e', `require(${JSON.stringify(script)})`], {
      env,
      encoding: 'utf8',
    });
    if (root && reach.status !== 0)
      return {
        skip: `uid ${NOBODY} cannot load the build here: ${reach.stderr.split('\n').find((l) => /Error/.test(l))}`,
      };
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(argv[0]!, [...argv.slice(1), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}: ${stderr}`))));
    });
    const report = JSON.parse(out.trim().split('\n').pop()!) as OrdinaryUserReport<R>;
    assert.notEqual(report.uid, 0, 'the attacks ran as an ordinary user');
    if (!report.available) {
      if (isCI()) assert.fail(`the sandbox must run as an ordinary user in CI: ${report.reason}`);
      return { skip: `no sandbox as uid ${report.uid}: ${report.reason}` };
    }
    return { report };
  } finally {
    spawnSync('chmod', ['-R', 'u+rwx', scratch]);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
