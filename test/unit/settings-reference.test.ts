// unit: settings files as a Claude Code user has them, each behaviour settled against the
// reference binary (Claude Code 2.1.197): a byte-order mark, an empty file, malformed JSON (an
// error with line and column), `~/` in additionalDirectories, a real-world settings.json full of
// UI keys (one note, not a flood), behaviour keys warned with the reason, claudeMdExcludes.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadSettings, parseSettingsJson, SettingsError } from '../../src/cli/settings';
import { sessionModel } from '../../src/cli/model';
import { loadMemory } from '../../src/claudeMd/claudeMd';
import { jsonErrorOffset } from '../../src/core/jsonPosition';

const saved = { ...process.env };
let root = '';
let cwd = '';
let home = '';

function put(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'da-settings-ref-'));
  home = join(root, 'home');
  cwd = join(root, 'work', 'repo');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  process.env.HOME = home;
  process.env.CLAUDE_CONFIG_DIR = join(home, '.claude');
  process.env.DURABLE_AGENT_HOME = join(home, '.durable-agent');
  process.env.DURABLE_AGENT_MANAGED_SETTINGS = join(root, 'etc', 'managed-settings.json');
});
afterEach(() => {
  for (const k of ['HOME', 'CLAUDE_CONFIG_DIR', 'DURABLE_AGENT_HOME', 'DURABLE_AGENT_MANAGED_SETTINGS']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  rmSync(root, { recursive: true, force: true });
});

test('unit: a settings file with a byte-order mark is read; an empty file holds no settings (as the reference)', () => {
  const shared = put(join(cwd, '.claude', 'settings.json'), '\ufeff{"model":"m-bom"}');
  const local = put(join(cwd, '.claude', 'settings.local.json'), '  \n');
  const s = loadSettings(cwd);
  assert.equal(s.model, 'm-bom');
  assert.deepEqual(s.sources, [shared, local]);
  assert.deepEqual(s.warnings, []);
});

test('unit: malformed JSON is an error naming the file, line and column', () => {
  const shared = put(
    join(cwd, '.claude', 'settings.json'),
    '{\n  "model": "m",\n  "permissions": {"allow": ["Read"],}\n}\n',
  );
  assert.throws(
    () => loadSettings(cwd),
    (e: Error) =>
      e instanceof SettingsError &&
      e.message.startsWith(`${shared} is not valid JSON at line 3 column 37:`) &&
      /trailing commas/.test(e.message),
  );
  assert.throws(
    () => parseSettingsJson('f.json', '{\n // a comment\n "model": "m"\n}'),
    /^SettingsError|f\.json is not valid JSON at line 2 column 2/,
  );
  assert.throws(() => parseSettingsJson('f.json', '{"model": "m"'), /f\.json is not valid JSON/);
});

test('unit: additionalDirectories: `~/` is the home directory, relative paths the working directory; a missing directory is a warning, duplicates once', () => {
  mkdirSync(join(home, 'shared-lib'), { recursive: true });
  mkdirSync(join(root, 'work', 'other'), { recursive: true });
  const user = put(join(home, '.claude', 'settings.json'), {
    permissions: { additionalDirectories: ['~/shared-lib', '../other', '~/gone'] },
  });
  put(join(cwd, '.claude', 'settings.json'), { permissions: { additionalDirectories: ['../other'] } });
  const s = loadSettings(cwd);
  assert.deepEqual(s.additionalDirectories, [join(home, 'shared-lib'), join(root, 'work', 'other')]);
  assert.deepEqual(s.warnings, [
    `${user}: permissions.additionalDirectories "~/gone": ${join(home, 'gone')} does not exist; it is ignored`,
  ]);
});

test('unit: a real-world ~/.claude/settings.json: UI keys are one note naming the file, behaviour keys a warning each with why, nothing blocks', () => {
  const user = put(join(home, '.claude', 'settings.json'), {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    model: 'claude-sonnet-5',
    includeCoAuthoredBy: false,
    cleanupPeriodDays: 20,
    statusLine: { type: 'command', command: '~/.claude/statusline.sh' },
    outputStyle: 'Explanatory',
    apiKeyHelper: '/bin/key.sh',
    forceLoginMethod: 'console',
    enableAllProjectMcpServers: true,
    spinnerTipsEnabled: false,
    theme: 'dark',
    env: { BASH_DEFAULT_TIMEOUT_MS: '300000', NODE_ENV: 'test' },
    fallbackModel: 'claude-haiku',
    permissions: { allow: ['Bash(npm test)'], disableBypassPermissionsMode: 'disable' },
    colour: 'blue',
  });
  const s = loadSettings(cwd);
  assert.equal(s.model, 'claude-sonnet-5');
  assert.deepEqual(s.allow, ['Bash(npm test)']);
  assert.equal(s.disableBypassPermissionsMode, true);
  assert.equal(s.bypassDisabledBy, user);
  assert.deepEqual(s.notes, [
    `${user}: cleanupPeriodDays, statusLine, forceLoginMethod, spinnerTipsEnabled, theme only shape Claude Code's interactive terminal, login, updates or local housekeeping; durable-agent has none of these (ignored)`,
  ]);
  const keys = s.warnings.map((w) => w.slice(user.length + 2).split(' is ')[0]);
  assert.deepEqual(keys, [
    'includeCoAuthoredBy',
    'outputStyle',
    'apiKeyHelper',
    'env (BASH_DEFAULT_TIMEOUT_MS, NODE_ENV)',
    'fallbackModel',
    'colour',
  ]);
  assert.ok(s.warnings.every((w) => w.startsWith(`${user}: `)));
  assert.match(s.warnings[3] as string, /does not support; it is ignored: .*set them in the worker's environment/);
  assert.match(s.warnings[5] as string, /not a known setting; it is ignored \(misspelt\?\)/);
});

test('unit: claudeMdExcludes (concatenated over files) drops memory files by glob or absolute path, imports too; the managed memory stays', () => {
  put(join(home, '.claude', 'settings.json'), { claudeMdExcludes: ['**/docs/x.md'] });
  const local = put(join(cwd, 'CLAUDE.local.md'), 'local');
  put(join(cwd, '.claude', 'settings.json'), {
    claudeMdExcludes: [local, '**/.claude/rules/**', join(root, 'etc', 'CLAUDE.md')],
  });
  const s = loadSettings(cwd);
  assert.deepEqual(s.claudeMdExcludes, ['**/docs/x.md', local, '**/.claude/rules/**', join(root, 'etc', 'CLAUDE.md')]);
  const managed = put(join(root, 'etc', 'CLAUDE.md'), 'managed');
  const project = put(join(cwd, 'CLAUDE.md'), 'p\n@docs/x.md\n@docs/y.md');
  put(join(cwd, 'docs', 'x.md'), 'x');
  const y = put(join(cwd, 'docs', 'y.md'), 'y');
  put(join(cwd, '.claude', 'rules', 'r.md'), 'rule');
  const m = loadMemory(cwd, { home, managed, excludes: s.claudeMdExcludes });
  assert.deepEqual(
    m.files.map((f) => f.path),
    [managed, project, y],
  );
  assert.deepEqual(m.warnings, []);
  put(join(cwd, '.claude', 'settings.json'), { claudeMdExcludes: '**/x.md' });
  assert.throws(() => loadSettings(cwd), /settings\.json: claudeMdExcludes must be a list of strings/);
});

test("unit: Claude Code's auto memory index for the directory is reported, not loaded", () => {
  const auto = put(
    join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), 'memory', 'MEMORY.md'),
    '- [a](a.md)',
  );
  const m = loadMemory(cwd, { home, configDir: join(home, '.claude'), managed: join(root, 'none.md') });
  assert.deepEqual(m.files, []);
  assert.deepEqual(m.warnings, [
    `${auto}: Claude Code's auto memory is not loaded by durable-agent (its sessions neither read nor write it)`,
  ]);
});

test('unit: the model as the reference picks it: --model, else ANTHROPIC_MODEL, else settings; aliases become model ids', () => {
  const warnings: string[] = [];
  const warn = (w: string): void => void warnings.push(w);
  assert.equal(sessionModel('claude-flag', { ANTHROPIC_MODEL: 'claude-env' }, 'claude-settings', warn), 'claude-flag');
  assert.equal(sessionModel(undefined, { ANTHROPIC_MODEL: 'claude-env' }, 'claude-settings', warn), 'claude-env');
  assert.equal(sessionModel(undefined, {}, 'claude-settings', warn), 'claude-settings');
  assert.equal(sessionModel(undefined, {}, undefined, warn), undefined);
  // `"model": "sonnet"` (what /model writes) never reaches the API as "sonnet".
  for (const alias of ['sonnet', 'opus', 'haiku', 'best', 'opusplan'])
    assert.match(sessionModel(undefined, {}, alias, warn) as string, /^claude-(sonnet|opus|haiku)-/, alias);
  assert.equal(
    sessionModel(undefined, { ANTHROPIC_DEFAULT_SONNET_MODEL: 'claude-my-sonnet' }, 'sonnet', warn),
    'claude-my-sonnet',
  );
  assert.equal(
    sessionModel(undefined, { ANTHROPIC_DEFAULT_OPUS_MODEL: 'claude-my-opus' }, 'best', warn),
    'claude-my-opus',
  );
  assert.deepEqual(warnings, []);
  assert.equal(sessionModel('claude-opus-4-8[1m]', {}, undefined, warn), 'claude-opus-4-8');
  assert.deepEqual(warnings, [
    'model claude-opus-4-8[1m]: the 1M-token context beta is not supported; using claude-opus-4-8',
  ]);
});

test('unit: jsonErrorOffset finds the first bad character where JSON.parse gives no position, and accepts what JSON.parse accepts', () => {
  const cases: Array<[string, number | undefined]> = [
    ['{"a": [1, 2,]}', 12],
    ['{"a": 1,}', 8],
    ['{\n // c\n}', 3],
    ['{"a": 1', 7],
    ['{"a" 1}', 5],
    ['{"a": tru}', 9],
    ['{"a": "x\\q"}', 9],
    ['[1] x', 4],
    ['{"a": -}', 6],
    ['{"a": [true, false, null, -1.5e3, "\\u00e9\\n", {"b": {}}], "c": []}', undefined],
    ['  {}  ', undefined],
  ];
  for (const [text, offset] of cases) {
    assert.equal(jsonErrorOffset(text), offset, text);
    let valid = true;
    try {
      JSON.parse(text);
    } catch {
      valid = false;
    }
    assert.equal(valid, offset === undefined, text);
  }
  const bad = put(
    join(cwd, '.claude', 'settings.json'),
    '{\n  "permissions": {\n    "deny": ["Bash(rm:*)",]\n  }\n}\n',
  );
  assert.throws(
    () => loadSettings(cwd),
    (e: Error) => e.message.startsWith(`${bad} is not valid JSON at line 3 column 27: `) && !e.message.includes('\n'),
  );
});

test('unit: defaultMode "auto" (the reference\'s classifier mode) is a warning and the session runs in default mode; a made-up mode is an error', () => {
  put(join(home, '.claude', 'settings.json'), { permissions: { defaultMode: 'bypassPermissions' } });
  const shared = put(join(cwd, '.claude', 'settings.json'), { permissions: { defaultMode: 'auto' } });
  const s = loadSettings(cwd);
  assert.equal(s.mode, 'default', 'never the laxer mode of a lower file');
  assert.deepEqual(s.warnings, [
    `${shared}: permissions.defaultMode "auto" (a classifier approving calls) is a Claude Code mode durable-agent does not implement; the session runs in "default" mode: calls that need approval wait for one`,
  ]);
  put(shared, { permissions: { defaultMode: 'yolo' } });
  assert.throws(() => loadSettings(cwd), /settings\.json: permissions\.defaultMode "yolo" is not one of/);
});

test('unit: managed-settings.d/*.json after managed-settings.json (name order, dot files skipped), as the reference: a later scalar wins, rules and hooks add up', () => {
  const etc = join(root, 'etc');
  const main = put(join(etc, 'managed-settings.json'), {
    model: 'claude-managed',
    permissions: { deny: ['Bash(curl:*)'] },
  });
  const b = put(join(etc, 'managed-settings.d', '20-model.json'), {
    model: 'claude-dropin',
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'b.sh' }] }] },
  });
  const a = put(join(etc, 'managed-settings.d', '10-rules.json'), {
    permissions: { deny: ['WebFetch'], defaultMode: 'dontAsk' },
    allowManagedPermissionRulesOnly: true,
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'a.sh' }] }] },
  });
  put(join(etc, 'managed-settings.d', '.hidden.json'), { model: 'claude-hidden' });
  put(join(etc, 'managed-settings.d', 'notes.txt'), 'not settings');
  put(join(cwd, '.claude', 'settings.json'), {
    model: 'claude-project',
    permissions: { allow: ['Bash(npm test)'] },
    disableAllHooks: true,
  });
  const s = loadSettings(cwd);
  assert.deepEqual(s.sources.slice(-3), [main, a, b]);
  assert.deepEqual(s.managed, { model: 'claude-dropin', mode: 'dontAsk', path: b });
  assert.equal(s.model, 'claude-dropin');
  assert.deepEqual(
    [s.allow, s.deny],
    [[], ['Bash(curl:*)', 'WebFetch']],
    'allowManagedPermissionRulesOnly from a drop-in: only the managed rules',
  );
  assert.deepEqual(
    s.hooks?.Stop?.map((m) => m.hooks.map((h) => (h as { command: string }).command)),
    [['a.sh'], ['b.sh']],
    'disableAllHooks outside managed keeps every managed hook',
  );
  put(join(etc, 'managed-settings.d', '30-bad.json'), '{"model": }');
  assert.throws(() => loadSettings(cwd), /managed-settings\.d\/30-bad\.json is not valid JSON at line 1 column 11/);
});
