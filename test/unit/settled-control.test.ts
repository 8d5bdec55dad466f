// unit: `run` reads the project's control files only once they have settled (red team, issue 30,
// L2: src/cli/settledControl.ts). Real files and their change times (which no process can set back):
// a file written just now is waited for once; one written again meanwhile, or gone, is refused.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  CONTROL_SETTLE_MS,
  checkSettledControlFiles,
  projectControlFiles,
  waitForSettledControlFiles,
} from '../../src/cli/settledControl';
import { UsageError } from '../../src/cli/options';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-settled-')));
  dirs.push(d);
  return d;
}

test('settled control files: the settings files of the directory and every .mcp.json up to the root', () => {
  const files = projectControlFiles('/a/b');
  assert.deepEqual(files, [
    '/a/b/.claude/settings.json',
    '/a/b/.durable-agent/settings.json',
    '/a/b/.claude/settings.local.json',
    '/a/b/.mcp.json',
    '/a/.mcp.json',
  ]);
});

test('settled control files: nothing young, no wait and no note; a file just written is waited for once, then read', async () => {
  const root = tmp();
  const files = projectControlFiles(root);
  const notes: string[] = [];
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  await waitForSettledControlFiles(files, (l) => notes.push(l), sleep);
  assert.deepEqual([notes, waits], [[], []]);
  mkdirSync(path.join(root, '.claude'));
  writeFileSync(path.join(root, '.claude', 'settings.json'), '{}');
  await waitForSettledControlFiles(files, (l) => notes.push(l), sleep);
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /settings\.json changed just now; reading it once it has settled/);
  assert.ok(waits[0]! > 0 && waits[0]! <= CONTROL_SETTLE_MS + 10, String(waits[0]));
  // Read before it settled: refused; once settled: read.
  assert.throws(
    () => checkSettledControlFiles([path.join(root, '.claude', 'settings.json')]),
    (e: unknown) => e instanceof UsageError && /changed again while it was being read/.test(e.message),
  );
  await new Promise((r) => setTimeout(r, CONTROL_SETTLE_MS + 50));
  checkSettledControlFiles([path.join(root, '.claude', 'settings.json')]);
  // Read, then gone (a live undo after the read): refused.
  assert.throws(
    () => checkSettledControlFiles([path.join(root, '.claude', 'settings.local.json')]),
    /disappeared just after it was read/,
  );
});

test('settled control files: a loop rewriting packages/x/.claude/settings.json is refused after the one wait', async () => {
  const root = tmp();
  const x = path.join(root, 'packages', 'x');
  mkdirSync(path.join(x, '.claude'), { recursive: true });
  const loop = spawn(
    'sh',
    [
      '-c',
      'while :; do printf "{}" > .claude/settings.json.tmp && mv .claude/settings.json.tmp .claude/settings.json; sleep 0.05; done',
    ],
    { cwd: x, detached: true, stdio: 'ignore' },
  );
  try {
    await new Promise((r) => setTimeout(r, 200));
    const files = projectControlFiles(x);
    await waitForSettledControlFiles(files, () => undefined);
    assert.throws(() => checkSettledControlFiles([files[0]!]), UsageError);
  } finally {
    process.kill(-loop.pid!, 'SIGKILL');
  }
});

test('settled control files: a settings file with a second name (a hard link) is refused, however old; its own copy is read', () => {
  const d = tmp();
  const settings = path.join(d, '.claude', 'settings.json');
  mkdirSync(path.dirname(settings));
  writeFileSync(settings, '{"hooks":{}}');
  const old = new Date(Date.now() - 60_000);
  utimesSync(settings, old, old); // its mtime; the check reads the change time, which a link moves anyway
  linkSync(settings, path.join(d, 'notes.txt'));
  assert.throws(
    () => checkSettledControlFiles([settings]),
    (e: unknown) =>
      e instanceof UsageError && /another name \(a hard link\)/.test(e.message) && !e.message.includes('\n'),
  );
  // Replaced by a copy of itself (a new inode), as the message says: read once it has settled.
  const copy = `${settings}.copy`;
  copyFileSync(settings, copy);
  renameSync(copy, settings);
  assert.throws(() => checkSettledControlFiles([settings]), /changed again/);
});
