// unit: the person's `run` does not read a control file that a running sandboxed command may have
// written (red team, issue 30, L10: a tree past the watch budget is walked, not watched, so the live
// guard's undo can come after `run` has read the file): src/sandbox/liveWriters.ts reads the live
// calls from their bwrap processes, src/cli/settledControl.ts checkNoLiveWriter refuses. A real
// sandboxed Bash (bubblewrap) held open by a fifo; oracles: the refusal and what it names.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import {
  callEnding,
  callStarted,
  ENDING_TTL_MS,
  endedChecked,
  liveSandboxWriters,
  writableBinds,
} from '../../src/sandbox/liveWriters';
import { ownerId } from '../../src/sandbox/reaper';
import { sessionTempRoot } from '../../src/sandbox/sessionTemp';
import { checkNoLiveWriter } from '../../src/cli/settledControl';
import { closeTreeWatches } from '../../src/sandbox/treeWatch';
import { redTool } from '../support/redTool';
import { sandboxSkip } from '../support/systemPackages';

let host: SandboxHost;
let skip: string | false = false;
const dirs: string[] = [];
before(async () => {
  host = new SandboxHost();
  skip = await sandboxSkip(host, 'the live writers tests');
});
after(async () => {
  await host.close();
  closeTreeWatches();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const tool = redTool(() => host, 'lwriters');

function tmp(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'da-livewriters-')));
  dirs.push(d);
  return d;
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(cond(), `timed out waiting for ${what}`);
}

test('writableBinds: the read-write directory binds of a bwrap command line, nothing else', () => {
  const root = tmp();
  fs.writeFileSync(path.join(root, 'proxy.sock'), '');
  const argv = ['bwrap', '--bind', `${root}/proxy.sock`, `${root}/proxy.sock`, '--ro-bind', '/', '/'];
  argv.push('--bind', root, root, '--ro-bind', `${root}/.claude`, `${root}/.claude`, '--bind', '/usr', '/mnt');
  assert.deepEqual(writableBinds(argv), [root]);
  // S11: the runtime passes a long mount list in a file (`--args <fd>`): what it may write is unknown.
  assert.deepEqual(writableBinds(['bwrap', '--args', '9', '--', 'bash']), ['/']);
});

test('checkNoLiveWriter (L10): a file changed under a running sandboxed command is refused, naming it and the call; older files, files elsewhere and files after the command ended are not', async (t) => {
  if (skip) return t.skip(skip);
  const root = tmp();
  const elsewhere = tmp();
  fs.mkdirSync(path.join(root, 'packages', 'x'), { recursive: true });
  fs.mkdirSync(path.join(root, 'packages', 'y', 'cfg'), { recursive: true });
  fs.mkdirSync(path.join(root, 'stash', 'cfg'), { recursive: true });
  const before = path.join(root, 'packages', 'y', 'cfg', 'before.json');
  fs.writeFileSync(path.join(root, 'stash', 'cfg', 'settings.json'), '{"hooks":{}}');
  fs.writeFileSync(before, '{}');
  fs.writeFileSync(path.join(elsewhere, '.mcp.json'), '{}');
  execFileSync('mkfifo', [path.join(root, 'hold')]);
  // Older than the call by more than the clock slack (settledControl.ts CLOCK_SLACK_MS).
  await new Promise((r) => setTimeout(r, 300));
  // The command announces itself, then waits for the test (a read on the fifo) instead of a fixed time.
  const call = tool(root, 'dontAsk', 'Bash', { command: 'touch started; read line < hold; echo "ended $line"' });
  await until(() => fs.existsSync(path.join(root, 'started')), 'the sandboxed command to start');
  const mine = () => liveSandboxWriters().filter((w) => w.writable.includes(root));
  assert.equal(mine().length >= 1, true, 'the running call is seen, with the project among what it may write');

  const planted = path.join(root, 'packages', 'x', 'settings.json');
  fs.writeFileSync(planted, '{"hooks":{}}');
  assert.throws(
    () => checkNoLiveWriter([planted]),
    (e: Error) =>
      e.message.includes(planted) && /sandboxed command that can write it is running \(call /.test(e.message),
    'a file written during the command is refused',
  );
  assert.doesNotThrow(() => checkNoLiveWriter([before], mine), 'a file older than the command is read');
  // T1 (red team t): a directory renamed into place keeps the change times of the files in it; its
  // own change time moves. An older settings file moved in with its directory is refused.
  const moved = path.join(root, 'packages', 'x', '.claude');
  await new Promise((r) => setTimeout(r, 50)); // clearly after the call's start (DIRECTORY_SLACK_MS)
  fs.renameSync(path.join(root, 'stash', 'cfg'), moved);
  assert.throws(
    () => checkNoLiveWriter([path.join(moved, 'settings.json')], mine),
    (e: Error) => e.message.includes(path.join(moved, 'settings.json')) && /a directory on its way/.test(e.message),
    'a settings file moved in with its directory during the command is refused',
  );
  assert.doesNotThrow(() => checkNoLiveWriter([path.join(elsewhere, '.mcp.json')], mine), 'a file it cannot write');
  assert.doesNotThrow(() => checkNoLiveWriter([path.join(root, 'absent.json')], mine), 'an absent file');
  const empty = path.join(root, 'packages', 'x', 'empty.json');
  fs.writeFileSync(empty, '');
  assert.doesNotThrow(() => checkNoLiveWriter([empty], mine), 'an empty file (a placeholder) configures nothing');

  fs.writeFileSync(path.join(root, 'hold'), 'go\n');
  const r = await call;
  assert.match(r.text, /ended go/);
  await until(() => mine().length === 0, 'the call to end and its check after it to be done');
  assert.doesNotThrow(() => checkNoLiveWriter([planted], mine), 'after the command ended the file is read');
});

test('a call is announced from before its command starts until the check after it is done (S11; a command that plants and exits while a huge tree is walked); an ended one for a minute at most', (t) => {
  const root = tmp();
  if (!fs.existsSync(sessionTempRoot())) fs.mkdirSync(sessionTempRoot(), { mode: 0o700 });
  const file = path.join(root, 'packages', 'x', '.claude', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = {};
  const mine = () => liveSandboxWriters().filter((w) => w.writable.includes(root));
  callStarted(key, [root]);
  fs.writeFileSync(file, '{}');
  assert.equal(mine().length, 1, 'the starting call is seen');
  assert.throws(
    () => checkNoLiveWriter([file], mine),
    /changed while a sandboxed command/,
    'a file it may have written',
  );
  callEnding(key);
  assert.throws(() => checkNoLiveWriter([file], mine), /\(ending\)/, 'ended, its check after it not done: still');
  endedChecked(key);
  assert.equal(mine().length, 0, 'no longer once the check is done');
  assert.doesNotThrow(() => checkNoLiveWriter([file], mine));
  // A worker that died in its check leaves its file: not believed past ENDING_TTL_MS, nor once its owner is gone.
  const dir = path.join(sessionTempRoot(), 'ending');
  const stale = path.join(dir, `stale-${process.pid}.json`);
  const dead = path.join(dir, `dead-${process.pid}.json`);
  const startedMs = Date.now() - 5_000;
  const entry = { owner: ownerId(), startedMs, endedMs: Date.now() - ENDING_TTL_MS - 1_000, writable: [root] };
  fs.writeFileSync(stale, JSON.stringify(entry));
  fs.writeFileSync(dead, JSON.stringify({ owner: '999999999.1', startedMs, writable: [root] }));
  t.after(() => [stale, dead].forEach((f) => fs.rmSync(f, { force: true })));
  assert.equal(mine().length, 0, 'a stale or ownerless announcement is ignored');
});
