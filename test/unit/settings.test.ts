// unit: settings files — user then project, lists concatenated, scalars overridden, errors named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings, SettingsError } from '../../src/cli/settings';

function files(user: unknown, project: unknown): { cwd: string; paths: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'da-settings-'));
  const cwd = join(dir, 'repo');
  mkdirSync(join(cwd, '.durable-agent'), { recursive: true });
  const userPath = join(dir, 'user.json');
  const projectPath = join(cwd, '.durable-agent', 'settings.json');
  if (user !== undefined) writeFileSync(userPath, typeof user === 'string' ? user : JSON.stringify(user));
  if (project !== undefined) writeFileSync(projectPath, typeof project === 'string' ? project : JSON.stringify(project));
  return { cwd, paths: [userPath, projectPath] };
}

test('unit: settings merge user then project', () => {
  const { cwd, paths } = files(
    { model: 'claude-user', permissions: { allow: ['Read'], deny: ['Bash(rm:*)'], defaultMode: 'dontAsk' }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'u.sh' }] }] } },
    { model: 'claude-project', permissions: { allow: ['Bash(npm test)'], additionalDirectories: ['../shared'] }, hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'p.sh' }] }] } },
  );
  const s = loadSettings(cwd, paths);
  assert.equal(s.model, 'claude-project');
  assert.equal(s.mode, 'dontAsk');
  assert.deepEqual(s.allow, ['Read', 'Bash(npm test)']);
  assert.deepEqual(s.deny, ['Bash(rm:*)']);
  assert.deepEqual(s.additionalDirectories, [join(cwd, '..', 'shared')]);
  assert.deepEqual(s.hooks?.PreToolUse?.map((m) => m.matcher), ['Bash', 'Edit']);
  assert.equal(s.sources.length, 2);
});

test('unit: no settings files is fine', () => {
  const { cwd, paths } = files(undefined, undefined);
  const s = loadSettings(cwd, paths);
  assert.deepEqual([s.allow, s.ask, s.deny, s.sources], [[], [], [], []]);
  assert.equal(s.mode, undefined);
});

test('unit: bad settings name the file and the problem', () => {
  const bad = [
    ['{ not json', /not valid JSON/],
    ['[]', /must hold a JSON object/],
    [{ permissions: { defaultMode: 'yolo' } }, /defaultMode "yolo" is not one of/],
    [{ permissions: { allow: 'Read' } }, /permissions.allow must be a list of strings/],
  ] as const;
  for (const [content, pattern] of bad) {
    const { cwd, paths } = files(undefined, content);
    assert.throws(() => loadSettings(cwd, paths), (err: Error) => err instanceof SettingsError && pattern.test(err.message) && err.message.includes('settings.json'));
  }
});
