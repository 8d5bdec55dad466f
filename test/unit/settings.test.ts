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
  if (project !== undefined)
    writeFileSync(projectPath, typeof project === 'string' ? project : JSON.stringify(project));
  return { cwd, paths: [userPath, projectPath] };
}

test('unit: settings merge user then project', () => {
  const { cwd, paths } = files(
    {
      model: 'claude-user',
      permissions: { allow: ['Read'], deny: ['Bash(rm:*)'], defaultMode: 'dontAsk' },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'u.sh' }] }] },
    },
    {
      model: 'claude-project',
      permissions: { allow: ['Bash(npm test)'], additionalDirectories: ['../shared'] },
      hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'p.sh' }] }] },
    },
  );
  mkdirSync(join(cwd, '..', 'shared'));
  const s = loadSettings(cwd, paths);
  assert.equal(s.model, 'claude-project');
  assert.equal(s.mode, 'dontAsk');
  assert.deepEqual(s.allow, ['Read', 'Bash(npm test)']);
  assert.deepEqual(s.deny, ['Bash(rm:*)']);
  assert.deepEqual(s.additionalDirectories, [join(cwd, '..', 'shared')]);
  assert.deepEqual(
    s.hooks?.PreToolUse?.map((m) => m.matcher),
    ['Bash', 'Edit'],
  );
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
    assert.throws(
      () => loadSettings(cwd, paths),
      (err: Error) =>
        err instanceof SettingsError && pattern.test(err.message) && err.message.includes('settings.json'),
    );
  }
});

test('unit: a malformed rule is an error naming the file and the key', () => {
  const { cwd, paths } = files(undefined, {
    permissions: { allow: ['Read'], deny: ['Bash(npm test)', 'Bash(rm -rf *'] },
  });
  assert.throws(
    () => loadSettings(cwd, paths),
    (err: Error) =>
      err instanceof SettingsError &&
      err.message.startsWith(paths[1] as string) &&
      /permissions\.deny\[1\] is malformed: .*missing closing parenthesis/.test(err.message),
  );
  const other = files(undefined, { permissions: { ask: ['Bad Tool Name(x)'] } });
  assert.throws(() => loadSettings(other.cwd, other.paths), /permissions\.ask\[0\] is malformed/);
});

test('unit: unknown and unsupported keys are warnings naming the file and the key; nothing is dropped silently', () => {
  const { cwd, paths } = files(
    { colour: 'blue', env: { FOO: '1' } },
    {
      permissions: { allow: ['Read'], blockReadsOutsideWorkingDirectories: true },
      statusLine: { type: 'command' },
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
    },
  );
  const s = loadSettings(cwd, paths);
  assert.deepEqual(s.allow, ['Read']);
  assert.equal(s.warnings.length, 3, s.warnings.join('\n'));
  assert.ok(s.warnings.some((w) => w.startsWith(`${paths[0]}: colour `) && /not a known setting/.test(w)));
  assert.ok(
    s.warnings.some(
      (w) =>
        w.startsWith(`${paths[0]}: env (FOO) `) && /Claude Code setting that durable-agent does not support/.test(w),
    ),
  );
  assert.ok(s.warnings.some((w) => w.startsWith(`${paths[1]}: permissions.blockReadsOutsideWorkingDirectories `)));
  // A key of the interactive UI only: a note naming the file and key, not a warning.
  assert.deepEqual(
    s.notes.map((n) => n.split(' only ')[0]),
    [`${paths[1]}: statusLine`],
  );
});

test('unit: disableBypassPermissionsMode and sandbox settings load; bad values are errors naming file and key', () => {
  const { cwd, paths } = files(
    { sandbox: { network: { allowedDomains: ['github.com'] }, filesystem: { denyRead: ['~/.kube'] } } },
    {
      permissions: { disableBypassPermissionsMode: 'disable' },
      sandbox: { autoAllowBashIfSandboxed: false, excludedCommands: ['docker'], filesystem: { allowWrite: ['build'] } },
    },
  );
  const s = loadSettings(cwd, paths);
  assert.equal(s.disableBypassPermissionsMode, true);
  assert.deepEqual(s.sandbox, {
    network: { allowedDomains: ['github.com'] },
    filesystem: { denyRead: ['~/.kube'], allowWrite: [join(cwd, 'build')] },
    autoAllowBashIfSandboxed: false,
    excludedCommands: ['docker'],
  });
  for (const [content, pattern] of [
    [
      { permissions: { disableBypassPermissionsMode: true } },
      /permissions\.disableBypassPermissionsMode must be "disable"/,
    ],
    [{ sandbox: { enabled: 'on' } }, /sandbox\.enabled must be true or false/],
    [
      { sandbox: { network: { allowedDomain: ['x.com'] } } },
      /sandbox\.network\.allowedDomain is not a sandbox setting/,
    ],
    [{ sandbox: { credentials: {} } }, /sandbox\.credentials is not supported/],
    [{ model: 42 }, /model must be a model name/],
  ] as const) {
    const f = files(undefined, content);
    assert.throws(
      () => loadSettings(f.cwd, f.paths),
      (err: Error) =>
        err instanceof SettingsError && pattern.test(err.message) && err.message.includes(f.paths[1] as string),
      JSON.stringify(content),
    );
  }
});
