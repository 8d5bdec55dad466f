// unit: Claude Code's settings files (user, shared project, local project, managed) with the
// reference's precedence and merge rules, and CLAUDE.md memory discovery with @imports.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { knownSettingsKeys, loadSettings, settingsSources, SettingsError } from '../../src/cli/settings';
import { importsOf, loadMemory, memoryReminder, MAX_IMPORT_HOPS } from '../../src/claudeMd/claudeMd';
import { firstMessage } from '../../src/core/memoryReminder';

const saved = { ...process.env };
let root = '';
let cwd = '';
let home = '';

function put(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'da-claude-config-'));
  home = join(root, 'home');
  cwd = join(root, 'work', 'repo');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  process.env.CLAUDE_CONFIG_DIR = join(home, '.claude');
  process.env.DURABLE_AGENT_HOME = join(home, '.durable-agent');
  process.env.DURABLE_AGENT_MANAGED_SETTINGS = join(root, 'etc', 'managed-settings.json');
  process.env.DURABLE_AGENT_MANAGED_MEMORY = join(root, 'etc', 'CLAUDE.md');
});
afterEach(() => {
  for (const k of [
    'CLAUDE_CONFIG_DIR',
    'DURABLE_AGENT_HOME',
    'DURABLE_AGENT_MANAGED_SETTINGS',
    'DURABLE_AGENT_MANAGED_MEMORY',
  ]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

test('unit: settings sources in the reference order: user < project < local < managed, durable-agent files beside their scope', () => {
  const s = settingsSources(cwd);
  assert.deepEqual(
    s.map((x) => [x.scope, x.path]),
    [
      ['user', join(home, '.claude', 'settings.json')],
      ['user', join(home, '.durable-agent', 'settings.json')],
      ['project', join(cwd, '.claude', 'settings.json')],
      ['project', join(cwd, '.durable-agent', 'settings.json')],
      ['local', join(cwd, '.claude', 'settings.local.json')],
      ['managed', join(root, 'etc', 'managed-settings.json')],
    ],
  );
});

test('unit: scalars from the highest file that sets them, lists concatenated over every file', () => {
  const user = put(join(home, '.claude', 'settings.json'), {
    model: 'm-user',
    maxTokens: 100,
    permissions: { allow: ['Read'], defaultMode: 'dontAsk' },
  });
  const shared = put(join(cwd, '.claude', 'settings.json'), {
    model: 'm-shared',
    permissions: { deny: ['Bash(rm:*)'], allow: ['Grep'] },
  });
  const local = put(join(cwd, '.claude', 'settings.local.json'), {
    model: 'm-local',
    permissions: { allow: ['Bash(npm test)'], ask: ['Write'] },
  });
  const s = loadSettings(cwd);
  assert.deepEqual(s.sources, [user, shared, local]);
  assert.equal(s.model, 'm-local');
  assert.equal(s.maxTokens, 100);
  assert.equal(s.mode, 'dontAsk');
  assert.deepEqual(s.allow, ['Read', 'Grep', 'Bash(npm test)']);
  assert.deepEqual(s.deny, ['Bash(rm:*)']);
  assert.deepEqual(s.ask, ['Write']);
  assert.deepEqual(s.managed, {});
  // A .durable-agent project file sits above the shared Claude Code file, below the local one.
  put(join(cwd, '.durable-agent', 'settings.json'), { model: 'm-da', maxTokens: 200 });
  const t = loadSettings(cwd);
  assert.equal(t.model, 'm-local');
  assert.equal(t.maxTokens, 200);
});

test('unit: managed settings win over every file and are reported as such; their managed-only keys apply', () => {
  put(join(cwd, '.claude', 'settings.json'), {
    model: 'm-shared',
    permissions: { allow: ['Bash(ls)'], deny: ['Read(./secret)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'p.sh' }] }] },
  });
  put(join(cwd, '.claude', 'settings.local.json'), { model: 'm-local', allowManagedPermissionRulesOnly: true });
  const managed = put(join(root, 'etc', 'managed-settings.json'), {
    model: 'm-managed',
    permissions: { deny: ['WebFetch'], defaultMode: 'default' },
    allowManagedPermissionRulesOnly: true,
    allowManagedHooksOnly: true,
  });
  const s = loadSettings(cwd);
  assert.equal(s.model, 'm-managed');
  assert.deepEqual(s.managed, { model: 'm-managed', mode: 'default', path: managed });
  assert.equal(s.managedRulesOnly, true);
  assert.deepEqual([s.allow, s.ask, s.deny], [[], [], ['WebFetch']]);
  assert.equal(s.hooks, undefined, 'allowManagedHooksOnly: the project hook is dropped');
  assert.ok(
    s.warnings.some(
      (w) =>
        w.startsWith(join(cwd, '.claude', 'settings.local.json') + ': allowManagedPermissionRulesOnly ') &&
        /only in the managed settings/.test(w),
    ),
    s.warnings.join('\n'),
  );
});

test('unit: disableAllHooks drops the hooks of the files (not managed hooks when set outside them)', () => {
  const hook = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x.sh' }] }] };
  put(join(cwd, '.claude', 'settings.json'), { hooks: hook });
  put(join(cwd, '.claude', 'settings.local.json'), { disableAllHooks: true });
  assert.equal(loadSettings(cwd).hooks, undefined);
  put(join(root, 'etc', 'managed-settings.json'), {
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'm.sh' }] }] },
  });
  assert.deepEqual(Object.keys(loadSettings(cwd).hooks ?? {}), ['Stop']);
  put(join(cwd, '.claude', 'settings.local.json'), { disableAllHooks: 'yes' });
  assert.throws(
    () => loadSettings(cwd),
    (e: Error) =>
      e instanceof SettingsError && e.message.includes('settings.local.json: disableAllHooks must be true or false'),
  );
});

test('unit: a malformed rule in .claude/settings.json is an error naming that file and key; unknown keys warn', () => {
  const shared = put(join(cwd, '.claude', 'settings.json'), { permissions: { deny: ['Bash(rm -rf *'] } });
  assert.throws(
    () => loadSettings(cwd),
    (e: Error) => e instanceof SettingsError && e.message.startsWith(`${shared}: permissions.deny[0] is malformed`),
  );
  put(join(cwd, '.claude', 'settings.json'), { cleanupPeriodDays: 3, colour: 'x' });
  const s = loadSettings(cwd);
  assert.ok(
    s.notes.some((w) => w.startsWith(`${shared}: cleanupPeriodDays only shapes `)),
    s.notes.join('\n'),
  );
  assert.ok(s.warnings.some((w) => w.startsWith(`${shared}: colour `) && /not a known setting/.test(w)));
});

test('unit: @imports are found outside code only, after whitespace, up to the next whitespace (as the reference)', () => {
  const text = [
    'See @docs/a.md and @~/x.md, also (@./b.md).',
    'Mail me@example.com or ping @alice.',
    '`@c.md` is code',
    '```',
    '@d.md',
    '```',
    '@/abs/e.md',
    'tail @f.txt#part',
    '@my\\ file.md',
  ].join('\n');
  assert.deepEqual(importsOf(text), ['docs/a.md', '~/x.md,', 'alice.', '/abs/e.md', 'f.txt', 'my file.md']);
});

test('unit: CLAUDE.md discovery: managed, user, parent chain root → cwd, local, imports after their importer', () => {
  const managed = put(join(root, 'etc', 'CLAUDE.md'), 'managed rule');
  const user = put(join(home, '.claude', 'CLAUDE.md'), 'user rule @~/notes.md');
  const notes = put(join(home, 'notes.md'), 'user notes');
  const parent = put(join(root, 'work', 'CLAUDE.md'), 'parent rule');
  const project = put(join(cwd, 'CLAUDE.md'), 'project rule: see @docs/style.md\n`@not-this.md`');
  const style = put(join(cwd, 'docs', 'style.md'), 'style: tabs @../nested/deeper.md');
  const deeper = put(join(cwd, 'nested', 'deeper.md'), 'deeper text');
  const dotClaude = put(join(cwd, '.claude', 'CLAUDE.md'), 'dot-claude rule');
  const local = put(join(cwd, 'CLAUDE.local.md'), 'local rule');
  const m = loadMemory(cwd, { home });
  assert.deepEqual(
    m.files.map((f) => [f.path, f.type]),
    [
      [managed, 'managed'],
      [user, 'user'],
      [notes, 'user'],
      [parent, 'project'],
      [project, 'project'],
      [style, 'project'],
      [deeper, 'project'],
      [dotClaude, 'project'],
      [local, 'local'],
    ],
  );
  assert.deepEqual(m.warnings, []);
  const reminder = memoryReminder(m.files);
  assert.match(reminder, /^<system-reminder>\n/);
  assert.ok(
    reminder.includes(`Contents of ${project} (project instructions, checked into the codebase):\n\nproject rule`),
  );
  assert.ok(reminder.indexOf('parent rule') < reminder.indexOf('project rule'), 'closer files come later');
  assert.equal(firstMessage('do it', { files: [], text: reminder, sha256: 'x' }), `${reminder}\n\ndo it`);
  assert.equal(firstMessage('do it', undefined), 'do it');
});

test('unit: CLAUDE.md imports: missing files, cycles and chains beyond 4 imports are reported, never silently dropped', () => {
  const project = put(join(cwd, 'CLAUDE.md'), 'start @a.md @missing.md');
  put(join(cwd, 'a.md'), 'a @b.md');
  const b = put(join(cwd, 'b.md'), 'b @a.md');
  // A chain 1 → 2 → … → 7 from a second root file.
  put(join(cwd, '.claude', 'CLAUDE.md'), '@../c1.md');
  for (let i = 1; i <= 7; i++) put(join(cwd, `c${i}.md`), `c${i} @c${i + 1}.md`);
  const m = loadMemory(cwd, { home });
  const paths = m.files.map((f) => f.path);
  assert.ok(paths.includes(join(cwd, 'a.md')) && paths.includes(b));
  assert.equal(paths.filter((p) => p === join(cwd, 'a.md')).length, 1, 'a cycle loads each file once');
  assert.ok(
    m.warnings.some((w) => w.startsWith(`${project}: @import ${join(cwd, 'missing.md')} was not found`)),
    m.warnings.join('\n'),
  );
  assert.ok(
    m.warnings.some((w) => w.startsWith(`${b}: @import ${join(cwd, 'a.md')} is a cycle`)),
    m.warnings.join('\n'),
  );
  // Depth: .claude/CLAUDE.md (0) → c1 (1) … c4 (4); c4's import of c5 is beyond the reference's limit.
  assert.ok(paths.includes(join(cwd, `c${MAX_IMPORT_HOPS}.md`)));
  assert.ok(!paths.includes(join(cwd, `c${MAX_IMPORT_HOPS + 1}.md`)));
  assert.ok(
    m.warnings.some((w) => w.startsWith(`${join(cwd, 'c4.md')}: @import c5.md is nested more than 4 imports deep`)),
    m.warnings.join('\n'),
  );
});

test('unit: docs/settings.md has a row for every settings key the loader knows', () => {
  const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'settings.md'), 'utf8');
  const rows = doc.split('\n').filter((l) => l.startsWith('| `'));
  const missing = knownSettingsKeys().filter((k) => !rows.some((r) => r.split('|')[1]?.includes(`\`${k}\``)));
  assert.deepEqual(missing, [], 'add these keys to the table in docs/settings.md');
});
