// unit: the reference's auto-compact switches — env vars, settings file key, session input checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextSettings } from '../../src/temporal/client';
import { loadSettings, SettingsError } from '../../src/cli/settings';
import { sessionInputProblems } from '../../src/sessionInput';

test('unit: context settings from the reference env vars; an explicit setting wins, except that either switch turns auto-compaction off', () => {
  // Tool search is `auto` unless ENABLE_TOOL_SEARCH says otherwise (test/unit/tool-search).
  const auto = { toolSearch: 'auto' as const };
  assert.deepEqual(contextSettings({}, {}), auto);
  assert.deepEqual(
    contextSettings(
      {},
      {
        DISABLE_AUTO_COMPACT: '1',
        CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '60',
        CLAUDE_CODE_AUTO_COMPACT_WINDOW: '400000',
        CLAUDE_CODE_DISABLE_1M_CONTEXT: 'true',
        DISABLE_PROMPT_CACHING: '1',
      },
    ),
    {
      ...auto,
      autoCompact: false,
      autoCompactPct: 60,
      autoCompactWindow: 400_000,
      disable1mContext: true,
      promptCaching: false,
    },
  );
  assert.deepEqual(contextSettings({ autoCompact: true }, { DISABLE_COMPACT: 'yes' }), { ...auto, autoCompact: false });
  assert.deepEqual(contextSettings({ autoCompactPct: 50 }, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '70' }), {
    ...auto,
    autoCompactPct: 50,
  });
  assert.deepEqual(contextSettings({}, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: 'abc', DISABLE_AUTO_COMPACT: '0' }), auto);
});

test('unit: settings file autoCompactEnabled (project over user); a non-boolean is an error naming the file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-ctx-settings-'));
  await mkdir(join(dir, 'u'));
  await mkdir(join(dir, 'p'));
  await writeFile(join(dir, 'u', 'settings.json'), JSON.stringify({ autoCompactEnabled: true }));
  await writeFile(join(dir, 'p', 'settings.json'), JSON.stringify({ autoCompactEnabled: false }));
  assert.equal(
    loadSettings(dir, [join(dir, 'u', 'settings.json'), join(dir, 'p', 'settings.json')]).autoCompactEnabled,
    false,
  );
  await writeFile(join(dir, 'p', 'settings.json'), JSON.stringify({ autoCompactEnabled: 'no' }));
  assert.throws(
    () => loadSettings(dir, [join(dir, 'p', 'settings.json')]),
    (e: unknown) =>
      e instanceof SettingsError && /p\/settings\.json: autoCompactEnabled must be true or false/.test(e.message),
  );
});

test('unit: a session input with malformed contextManagement is refused with a readable problem', () => {
  const base = {
    prompt: 'x',
    model: { model: 'm', maxTokens: 10 },
    tools: [],
    permissionMode: 'default',
    rules: { allow: [], ask: [], deny: [] },
    cwd: '/w',
  };
  assert.deepEqual(
    sessionInputProblems({ ...base, contextManagement: { autoCompactWindow: 30_000, autoCompact: false } }),
    [],
  );
  assert.deepEqual(sessionInputProblems({ ...base, contextManagement: { autoCompactPct: 'x', promptCaching: 1 } }), [
    'contextManagement.autoCompactPct must be a non-negative number',
    'contextManagement.promptCaching must be true or false',
  ]);
});
