// unit: the differential test's data (test/reference/cases.ts) is well formed and its deliberate
// differences are the ones docs/tools.md lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CASES, DELIBERATE, deliberateReason } from '../reference/cases';

const root = join(__dirname, '..', '..', '..');

test('unit: reference cases have unique names and unique tool_use ids per case', () => {
  assert.ok(CASES.length >= 25);
  assert.equal(new Set(CASES.map((c) => c.name)).size, CASES.length);
  for (const c of CASES) {
    const ids = c.turns.flat().map((t) => t.id);
    assert.equal(new Set(ids).size, ids.length, c.name);
  }
  assert.ok(deliberateReason('Grep content', { tool: 'Grep', aspect: 'is_error' }));
  assert.equal(deliberateReason('Write new file', { tool: 'Write', aspect: 'tool_response' }), undefined);
  assert.ok(deliberateReason('Read missing file', { tool: 'Read', aspect: 'PreToolUse ran' }));
  assert.equal(deliberateReason('Read normal', { tool: 'Read', aspect: 'tool_response keys' }), undefined);
  assert.equal(deliberateReason('Read normal', { tool: 'Read', aspect: 'is_error' }), undefined);
  assert.equal(deliberateReason('Bash exit 0', { tool: 'Bash', aspect: 'tool_response keys' }), undefined);
  // A row naming files covers only those files: a stray file in the same case stays unexpected.
  const addDir = 'protected: sandboxed Bash in an additional directory';
  assert.ok(deliberateReason(addDir, { tool: 'Bash', aspect: 'is_error' }));
  assert.ok(deliberateReason(addDir, { aspect: 'file', path: '$OTHER/.bashrc' }));
  assert.ok(deliberateReason(addDir, { aspect: 'file', path: '$OTHER/.vscode/' }));
  assert.equal(deliberateReason(addDir, { aspect: 'file', path: '$OTHER/.bash_profile' }), undefined);
  // A side that did not run right is never deliberate, even in a case whose row names no tool or aspect.
  assert.ok(deliberateReason('protected: sandboxed Bash creates .git/config', { aspect: 'file', path: '.git/config' }));
  assert.equal(deliberateReason('protected: sandboxed Bash creates .git/config', { aspect: 'run' }), undefined);
});

test('unit: docs/tools.md lists exactly the deliberate differences of test/reference/cases.ts', () => {
  const doc = readFileSync(join(root, 'docs', 'tools.md'), 'utf8');
  const block = /<!-- reference-deliberate:start -->([\s\S]*?)<!-- reference-deliberate:end -->/.exec(doc)?.[1] ?? '';
  const rows = block
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| Cases') && !l.startsWith('| ---'))
    .map((l) => l.slice(2, -2).split(' | '));
  assert.deepEqual(
    rows.map(([cases, tools, aspect, reason]) => ({ cases, tools, aspect, reason })),
    DELIBERATE.map((d) => ({
      cases: d.cases,
      tools: d.tools?.join(', ') ?? 'any',
      aspect: `${d.aspect ?? 'any'}${d.files ? `; files ${d.files.join(', ')}` : ''}${d.matches ? `; matching /${d.matches.source}/` : ''}`,
      reason: d.reason,
    })),
  );
});
