// unit (issue 30 round f, the shared store's large results): attacks on the fix of H1/H2 of
// red-issue30-f (a stored result is recreated by Read, after its permission decision, only at the
// worker's own path of it). The agent chooses tool_use inputs and what sandboxed Bash may do in its
// project (symlinks, hard links, renames). Oracles: the real file system, never the tool's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createAgentActivities } from '../../src/temporal/activities';
import { legacySessionDirName, sessionDirName } from '../../src/runtime/callDeps';
import { LocalBlobStore, type BlobStore } from '../../src/stores/messageStore';
import { SharedResultStore } from '../../src/stores/sharedResultStore';
import { initialContext } from '../../src/core/context';
import type { CallRuntime } from '../../src/runtime/runtime';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-red-f-store-')));
const PAYLOAD = 'PAYLOAD-chosen-by-the-agent\n'.repeat(5000);

/** A shared store (what `DURABLE_AGENT_STORE=postgres://…` gives): anything that is not the local file store. */
class SharedStore implements BlobStore {
  constructor(private readonly inner: BlobStore) {}
  put(key: string, data: string): Promise<void> {
    return this.inner.put(key, data);
  }
  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
}

function runtime(): CallRuntime {
  return {
    signal: new AbortController().signal,
    heartbeat: () => undefined,
    attempt: 1,
    callKey: 'wf/tool-x',
    warn: () => undefined,
  };
}

/** Every file under `dir` (recursively, links not followed). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.join(e.parentPath, e.name));
}

interface World {
  dir: string;
  project: string;
  victim: string;
  /** Host B's store dir: its own results of s1 are `<store>/results/s1`. */
  store: string;
  shared: BlobStore;
  read(
    filePath: string,
    opts?: { mode?: PermissionMode; sessionId?: string; cwd?: string },
  ): Promise<{ ok: boolean; text: string }>;
}

/** Host A stored s1's large result `toolu_big` (and s2's) in the shared store; host B runs the Reads. */
async function world(opts: { local?: boolean } = {}): Promise<World> {
  const dir = mkdtempSync(path.join(root, 'w-'));
  const project = path.join(dir, 'project');
  const victim = path.join(dir, 'victim');
  mkdirSync(project, { recursive: true });
  mkdirSync(victim, { recursive: true });
  const shared = new SharedStore(new LocalBlobStore(path.join(dir, 'shared-blobs')));
  for (const s of ['s1', 's2'])
    await new SharedResultStore(path.join(dir, 'storeA', 'results', s), shared, s).put('toolu_big', `${s}:${PAYLOAD}`);
  const store = path.join(dir, 'storeB');
  const { runToolCall } = createAgentActivities({
    storeDir: store,
    blobStore: opts.local ? new LocalBlobStore(path.join(dir, 'local-blobs')) : shared,
  });
  let n = 0;
  const read: World['read'] = async (filePath, o = {}) => {
    const r = await runToolCall(
      {
        session: {
          sessionId: o.sessionId ?? 's1',
          toolNames: ['Read'],
          permission: {
            mode: o.mode ?? 'dontAsk',
            rules: { allow: [], ask: [], deny: [] },
            workingDirectories: [project],
          },
        },
        block: { type: 'tool_use', id: `toolu_attack_${++n}`, name: 'Read', input: { file_path: filePath } },
        context: initialContext(o.cwd ?? project),
      },
      runtime(),
    );
    assert.equal(r.kind, 'done');
    const record = r.kind === 'done' ? r.record : undefined;
    return { ok: record?.status === 'ok', text: JSON.stringify(record?.result.content) };
  };
  return { dir, project, victim, store, shared, read };
}

const own = (w: World, s = 's1') => path.join(w.store, 'results', sessionDirName(s), 'toolu_big.txt');

test("store (legitimate): a Read of the worker's own path of a result stored on another host recreates it there and reads it", async () => {
  const w = await world();
  const r = await w.read(own(w));
  assert.equal(r.ok, true, r.text);
  assert.match(r.text, /PAYLOAD-chosen-by-the-agent/);
  assert.equal(readFileSync(own(w), 'utf8'), `s1:${PAYLOAD}`);
  // The same through `..` and relative to the cwd: the real directory is the worker's own.
  rmSync(own(w));
  const viaDots = path.join(w.store, 'results', 's1', '..', '..', 'results', 's1', 'toolu_big.txt');
  assert.equal((await w.read(viaDots)).ok, true);
  rmSync(own(w));
  assert.equal((await w.read(path.relative(w.project, own(w)))).ok, true, 'a relative path to the own directory');
  assert.equal(readFileSync(own(w), 'utf8'), `s1:${PAYLOAD}`);
});

for (const level of [0, 1, 2, 3] as const) {
  test(`store (symlink at level ${level} of x/results/s1/toolu_big.txt, into the victim's tree): nothing is written outside the store`, async () => {
    const w = await world();
    // The victim tree laid out like a results directory, reached through a symlink the sandbox may make.
    const parts = ['x', 'results', 's1', 'toolu_big.txt'];
    const inVictim = path.join(w.victim, ...parts.slice(level));
    mkdirSync(level === 3 ? path.dirname(inVictim) : path.dirname(inVictim), { recursive: true });
    if (level < 3) mkdirSync(inVictim.replace(/\/toolu_big\.txt$/, ''), { recursive: true });
    const linkAt = path.join(w.project, ...parts.slice(0, level + 1));
    mkdirSync(path.dirname(linkAt), { recursive: true });
    // The link at this level points at the victim's copy of the rest (a dangling one at the file level).
    symlinkSync(level === 3 ? inVictim : path.join(w.victim, ...parts.slice(level, level + 1)), linkAt);
    if (level < 3) {
      rmSync(path.join(w.victim, ...parts.slice(level)), { recursive: true, force: true });
      mkdirSync(path.join(w.victim, ...parts.slice(level, 3)), { recursive: true });
    }
    const r = await w.read(path.join(w.project, ...parts));
    assert.equal(r.ok, false);
    assert.deepEqual(filesUnder(w.victim), [], 'the worker wrote into the victim tree');
    assert.equal(existsSync(own(w)), false, 'and not even in its own store: the path named was not its own');
  });
}

test("store (symlink to the own results directory): the result is written in the store only, through the worker's path", async () => {
  const w = await world();
  mkdirSync(path.join(w.store, 'results', 's1'), { recursive: true });
  symlinkSync(path.join(w.store, 'results', 's1'), path.join(w.project, 'link'));
  await w.read(path.join(w.project, 'link', 'toolu_big.txt'));
  assert.equal(readFileSync(own(w), 'utf8'), `s1:${PAYLOAD}`);
  assert.deepEqual(filesUnder(w.project), [path.join(w.project, 'link')], 'only the link itself in the project');
});

test('store (`..` out of the own directory, relative paths): nothing is written outside it', async () => {
  const w = await world();
  mkdirSync(path.join(w.victim, 'results', 's1'), { recursive: true });
  mkdirSync(path.join(w.project, 'results', 's1'), { recursive: true });
  for (const p of [
    path.join(w.store, 'results', 's1', '..', '..', '..', 'victim', 'results', 's1', 'toolu_big.txt'),
    path.join('results', 's1', 'toolu_big.txt'),
    path.join('..', 'victim', 'results', 's1', 'toolu_big.txt'),
  ]) {
    assert.equal((await w.read(p)).ok, false, p);
  }
  assert.deepEqual([...filesUnder(w.victim), ...filesUnder(w.project)], []);
  assert.equal(existsSync(own(w)), false);
});

test("store (hard link): a project file hard-linked to the victim's file, named like a result, is never overwritten", async () => {
  const w = await world();
  writeFileSync(path.join(w.victim, 'precious'), "the user's file\n");
  mkdirSync(path.join(w.project, 'results', 's1'), { recursive: true });
  linkSync(path.join(w.victim, 'precious'), path.join(w.project, 'results', 's1', 'toolu_big.txt'));
  const r = await w.read(path.join(w.project, 'results', 's1', 'toolu_big.txt'));
  assert.equal(r.ok, true, 'the project file is read as it is');
  assert.equal(readFileSync(path.join(w.victim, 'precious'), 'utf8'), "the user's file\n");
  assert.equal(existsSync(own(w)), false);
});

test("store (another session's results directory): s1 naming s2's own path neither reads nor recreates it", async () => {
  const w = await world();
  const r = await w.read(own(w, 's2'));
  assert.equal(r.ok, false);
  assert.equal(existsSync(path.join(w.store, 'results', 's2')), false, "s2's directory was not created");
  // And s2's stored result is not recreated under s1's name.
  assert.equal(existsSync(own(w)), false);
});

test("store (a rename racing the check): a project link swapped between the own directory and the victim's never leads a write out", async () => {
  const w = await world();
  const ownDir = path.join(w.store, 'results', 's1');
  mkdirSync(ownDir, { recursive: true });
  mkdirSync(path.join(w.victim, 'results', 's1'), { recursive: true });
  const link = path.join(w.project, 'l');
  symlinkSync(ownDir, link);
  // What sandboxed Bash can run in its project while the Reads run: swap the link, again and again.
  const swapper = spawn(
    'bash',
    [
      '-c',
      `while :; do ln -sfn ${w.victim}/results/s1 ${link}.n && mv -T ${link}.n ${link}; ln -sfn ${ownDir} ${link}.n && mv -T ${link}.n ${link}; done`,
    ],
    { stdio: 'ignore' },
  );
  try {
    const store = new SharedResultStore(ownDir, w.shared, 's1');
    for (let i = 0; i < 300; i++) {
      await store.stored(path.join(link, 'toolu_big.txt'));
      await store.materialize(path.join(link, 'toolu_big.txt'));
      rmSync(path.join(ownDir, 'toolu_big.txt'), { force: true });
    }
  } finally {
    swapper.kill();
  }
  assert.deepEqual(filesUnder(w.victim), [], 'a write followed the swapped link');
});

test('store (local store, no shared one): a Read of a missing result path creates nothing', async () => {
  const w = await world({ local: true });
  const r = await w.read(own(w));
  assert.equal(r.ok, false);
  assert.match(r.text, /does not exist/);
  assert.equal(existsSync(own(w)), false);
});

test('store: session ids that made one directory name before (a/b, a_b, a:b, .., ., long ones) each get their own', () => {
  const ids = [
    'a/b',
    'a_b',
    'a:b',
    'a b',
    '..',
    '.',
    '',
    'x'.repeat(300),
    'x'.repeat(301),
    'p/agent-toolu_1',
    'p_agent-toolu_1',
  ];
  const names = ids.map(sessionDirName);
  assert.equal(new Set(names).size, ids.length, JSON.stringify(names));
  for (const n of names) {
    // Each name is relative, made of safe names (a subagent's: `<parent's>/agents/<name>`), never `.`/`..`.
    for (const part of n.split(path.sep)) {
      assert.match(part, /^[A-Za-z0-9_.+-]{1,255}$/);
      assert.notEqual(part, '.');
      assert.notEqual(part, '..');
    }
  }
  // A top-level session's directory is one name: no top-level id lands inside another session's.
  for (const id of ['a/b', 'p_agent-toolu_1', 'x'.repeat(301), 'my job/1'])
    assert.equal(sessionDirName(id).includes(path.sep), false, id);
  // A subagent's directory lies inside its parent's (the parent reads its child's results), for any
  // parent, at any depth; siblings apart.
  for (const parent of ['p', 'my job/1', 'x'.repeat(300), 'p/agent-toolu_1']) {
    const child = sessionDirName(`${parent}/agent-toolu_1`);
    assert.equal(path.dirname(path.dirname(child)), sessionDirName(parent), parent);
    assert.notEqual(child, sessionDirName(`${parent}/agent-toolu_2`));
  }
  // Ids that were safe keep their directory (sessions already running read their old paths).
  assert.equal(sessionDirName('session-123_a.b'), 'session-123_a.b');
  assert.equal(legacySessionDirName('a/b'), 'a_b');
});

test('store (upgrade): what a session stored under the name releases before 0.3.0 gave it (a name other ids shared) is refused to it too, saying why; nothing is leaked', async () => {
  const w = await world({ local: true });
  const legacy = path.join(w.store, 'results', legacySessionDirName('p/agent-toolu_1'), 'toolu_old.txt');
  mkdirSync(path.dirname(legacy), { recursive: true });
  writeFileSync(legacy, 'OLD-RESULT-stored before the upgrade\n');
  const own = await w.read(legacy, { sessionId: 'p/agent-toolu_1' });
  assert.equal(own.ok, false);
  assert.equal(own.text.includes('OLD-RESULT'), false, own.text);
  assert.match(own.text, /before 0\.3\.0/, 'the refusal says why');
  const other = await w.read(legacy, { sessionId: 'q' });
  assert.equal(other.text.includes('OLD-RESULT'), false, "another session's old directory stays refused");
  assert.equal(readFileSync(legacy, 'utf8'), 'OLD-RESULT-stored before the upgrade\n', 'the file is left alone');
});
