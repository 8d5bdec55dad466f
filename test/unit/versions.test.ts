// unit: every patch id has its fixtures (DESIGN invariant 14). Each `patched('…')` /
// `deprecatePatch('…')` in src/ is in the registry (src/temporal/workflows/versions.ts), and each registry
// entry names recorded histories in test/fixtures/histories that hold that patch's marker (read
// from the JSON history: a MarkerRecorded `core_patch` whose details carry the id) — plus, for the
// histories recorded before it, that they do not. test/integration/replay replays every one of them.
// And the releases (CHANGELOG.md, docs/releasing.md): each id's `release` is the one CHANGELOG.md
// lists it in (or the next one, for an id new on main), its `retireIn` no earlier than its workflows'
// lifetime allows, package.json's version has not reached a retirement step the source has not
// taken, and no release after 0.2.0 introduces more than one id that guards the session workflow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PATCHES } from '../../src/temporal/workflows/versions';
import {
  compareVersions,
  earliestRetirement,
  newSessionPatchProblems,
  nextMinor,
  packageVersion,
  parseChangelog,
  patchIdsInSource,
  previousReleaseEntry,
  readChangelog,
  releaseFieldProblems,
  retirementProblems,
  type PatchCall,
} from '../../scripts/releases';

const root = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    if (dirname(dir) === dir) throw new Error('repo root not found');
  }
})();
const FIXTURES = join(root, 'test', 'fixtures', 'histories');

interface HistoryJson {
  events: Array<{
    eventType: string;
    markerRecordedEventAttributes?: {
      markerName?: string;
      details?: Record<string, { payloads?: Array<{ data?: string }> }>;
    };
  }>;
}

/** The patch ids whose markers a recorded history holds. */
export function patchMarkers(file: string): string[] {
  const history = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as HistoryJson;
  const ids: string[] = [];
  for (const e of history.events) {
    const m = e.markerRecordedEventAttributes;
    if (e.eventType !== 'EVENT_TYPE_MARKER_RECORDED' || m?.markerName !== 'core_patch') continue;
    for (const d of Object.values(m.details ?? {})) {
      for (const p of d.payloads ?? []) {
        const data = JSON.parse(Buffer.from(p.data ?? '', 'base64').toString('utf8')) as { id?: string } | string;
        const id = typeof data === 'string' ? data : data.id;
        if (id) ids.push(id);
      }
    }
  }
  return ids;
}

const manifest = (
  JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8')) as {
    histories: Array<{ file: string; workflowType: string }>;
  }
).histories;

test('unit: every patched()/deprecatePatch() id in src/ is in the registry, and every registry entry is used', () => {
  const used = patchIdsInSource(root);
  assert.ok(used.size >= 5, `found only ${[...used.keys()].join(', ')}`);
  const registered = PATCHES.map((p) => p.id);
  assert.equal(new Set(registered).size, registered.length, 'ids are unique');
  const missing = [...used.keys()]
    .filter((id) => !registered.includes(id))
    .map((id) => `${id} (${used.get(id)?.join('; ')}) is not in src/temporal/workflows/versions.ts`);
  assert.deepEqual(missing, []);
  assert.deepEqual(
    registered.filter((id) => !used.has(id)),
    [],
    'registry entries without a patched() call: remove them with their last step',
  );
});

test('unit: every registry entry has fixtures that hold its marker, and its pre-patch fixtures do not; all are replayed', () => {
  const inManifest = new Set(manifest.map((m) => m.file));
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && f !== 'manifest.json');
  assert.deepEqual(
    files.filter((f) => !inManifest.has(f)),
    [],
    'every fixture is in the manifest the replay test replays',
  );
  for (const p of PATCHES) {
    assert.ok(p.fixtures.length > 0, `${p.id}: no fixture`);
    assert.ok(p.why && p.deprecate && /^[0-9a-f]{7,40}$/.test(p.since), `${p.id}: why, since and the deprecation step`);
    for (const f of p.fixtures) {
      assert.ok(inManifest.has(f), `${p.id}: ${f} is not a replayed fixture`);
      assert.ok(
        patchMarkers(f).includes(p.id),
        `${p.id}: ${f} holds no marker of it (markers: ${patchMarkers(f).join(', ') || 'none'})`,
      );
    }
    for (const f of p.before) {
      assert.ok(inManifest.has(f), `${p.id}: ${f} is not a replayed fixture`);
      assert.ok(
        !patchMarkers(f).includes(p.id),
        `${p.id}: ${f} was to be recorded before the patch, but holds its marker`,
      );
    }
  }
});

test('unit: the marker reader finds what a history holds (a history with two patches; one with none)', () => {
  assert.deepEqual(patchMarkers('cut-off.turn-1.json').sort(), ['local-turn-stores', 'max-tokens-cut-off']);
  assert.deepEqual(patchMarkers('batch.turn-1.json'), []);
});

/** Which workflow a file of workflow code (src/temporal/workflows, src/tasks/workflows) runs in (subagent.ts: the turn's Agent call). */
const WORKFLOW_OF_FILE: Record<string, 'session' | 'turn'> = {
  'src/temporal/workflows/session.ts': 'session',
  'src/tasks/workflows/sessionTasks.ts': 'session',
  'src/temporal/workflows/sessionApprovals.ts': 'session',
  'src/temporal/workflows/sessionView.ts': 'session',
  'src/temporal/workflows/sessionBudget.ts': 'session',
  'src/temporal/workflows/sessionNotify.ts': 'session',
  'src/temporal/workflows/scheduleFiring.ts': 'session',
  'src/temporal/workflows/turnEnd.ts': 'turn',
  'src/temporal/workflows/turnCalls.ts': 'turn',
  'src/temporal/workflows/turn.ts': 'turn',
  'src/temporal/workflows/subagent.ts': 'turn',
};

test('unit: each id names the workflows that call it', () => {
  const used = patchIdsInSource(root);
  for (const p of PATCHES) {
    const files = (used.get(p.id) ?? []).map((c) => c.file);
    const unknown = files.filter((f) => !WORKFLOW_OF_FILE[f]);
    assert.deepEqual(unknown, [], `${p.id}: called from a file this test does not place in a workflow`);
    const workflows = [...new Set(files.map((f) => WORKFLOW_OF_FILE[f]))].sort();
    assert.deepEqual([...p.workflows].sort(), workflows, `${p.id}: workflows`);
  }
});

test('unit: CHANGELOG.md is readable, its newest release is package.json version, and every release names its commit', () => {
  const changelog = readChangelog(root);
  const version = packageVersion(root);
  assert.equal(changelog.entries[0]?.version, version, 'the newest CHANGELOG.md entry is package.json version');
  for (const e of changelog.entries.slice(1))
    assert.ok(
      e.commit,
      `${e.version}: an older release names its commit by hash (release.mjs writes it when it cuts the next)`,
    );
  assert.ok(previousReleaseEntry(changelog, version), 'the upgrade test has a previous release');
});

test("unit: each id's release is the one CHANGELOG.md lists it in, and its retireIn is not too early", () => {
  assert.deepEqual(releaseFieldProblems(PATCHES, readChangelog(root), packageVersion(root)), []);
});

test("unit: package.json's version has taken every retirement step its ids reached (deprecatePatch, then removal)", () => {
  assert.deepEqual(retirementProblems(PATCHES, patchIdsInSource(root), packageVersion(root)), []);
});

test('unit: at most one new session-workflow patch id per release (after 0.2.0)', () => {
  assert.deepEqual(newSessionPatchProblems(PATCHES), []);
});

test('unit: the release checks fail where they should (synthetic versions and sources)', () => {
  const at = (call: PatchCall) =>
    new Map([['x', [{ file: 'src/temporal/workflows/session.ts', call }]]]) as Map<
      string,
      Array<{ file: string; call: PatchCall }>
    >;
  const x = { id: 'x', workflows: ['session'] as const, release: '0.3.0', retireIn: '0.5.0' };
  assert.equal(earliestRetirement(x), '0.5.0');
  assert.equal(earliestRetirement({ ...x, workflows: ['turn'] }), '0.4.0');
  assert.equal(earliestRetirement({ ...x, release: '0.1.0', workflows: ['turn'] }), '0.3.0', 'counted from 0.2.0');
  assert.deepEqual(retirementProblems([x], at('patched'), '0.4.0'), []);
  assert.match(
    retirementProblems([x], at('patched'), '0.5.0').join(),
    /x: retires in 0.5.0, but 0.5.0 still calls patched\(\)/,
  );
  assert.deepEqual(retirementProblems([x], at('deprecatePatch'), '0.5.0'), []);
  assert.match(retirementProblems([x], at('deprecatePatch'), '0.6.0').join(), /to be removed in 0.6.0/);
  assert.deepEqual(retirementProblems([x], new Map(), '0.6.0'), [], 'removed');
  // What the registry asks of the next releases, were every id still a plain patched().
  const plain = new Map(
    PATCHES.map((p) => [p.id, [{ file: 'src/temporal/workflows/session.ts', call: 'patched' as const }]]),
  );
  const version = packageVersion(root);
  for (const v of [nextMinor(version), nextMinor(version, 2)])
    assert.deepEqual(
      retirementProblems(PATCHES, plain, v)
        .map((p) => p.split(':')[0])
        .sort(),
      PATCHES.filter((p) => compareVersions(p.retireIn, v) <= 0)
        .map((p) => p.id)
        .sort(),
      `due at ${v}`,
    );
  assert.equal(PATCHES.find((p) => p.id === 'max-tokens-cut-off')?.retireIn, '0.3.0');
  // One new session patch per release; two fail, a turn patch beside one does not.
  const y = { ...x, id: 'y' };
  assert.deepEqual(newSessionPatchProblems([x, { ...y, workflows: ['turn'] }]), []);
  assert.match(newSessionPatchProblems([x, y]).join(), /release 0.3.0 introduces 2 session-workflow patches \(x, y\)/);
  // An id's release against the CHANGELOG.
  const changelog = parseChangelog(
    '## [Unreleased]\n\n## [0.2.0] - 2026-12-05\n\nCommit: (tagged v0.2.0)\nPatches: a\n\n## [0.1.0] - 2026-12-01\n\nCommit: 02a3ad26b6be74e5ff9b2f6d99872f4157e6389a\nPatches: none\n',
  );
  assert.deepEqual(
    changelog.entries.map((e) => [e.version, e.commit, e.tag, e.patches]),
    [
      ['0.2.0', undefined, 'v0.2.0', ['a']],
      ['0.1.0', '02a3ad26b6be74e5ff9b2f6d99872f4157e6389a', undefined, []],
    ],
  );
  assert.equal(previousReleaseEntry(changelog, '0.2.0')?.version, '0.1.0');
  const a = { id: 'a', workflows: ['turn'] as const, release: '0.2.0', retireIn: '0.3.0' };
  assert.deepEqual(
    releaseFieldProblems([a, { ...a, id: 'b', release: '0.3.0', retireIn: '0.4.0' }], changelog, '0.2.0'),
    [],
  );
  assert.match(
    releaseFieldProblems([{ ...a, id: 'b' }], changelog, '0.2.0').join(),
    /b: no release lists it, so it is new since 0.2.0 and ships in 0.3.0/,
  );
  assert.match(releaseFieldProblems([{ ...a, release: '0.1.0' }], changelog, '0.2.0').join(), /lists it in 0.2.0/);
  assert.match(releaseFieldProblems([{ ...a, retireIn: '0.2.0' }], changelog, '0.2.0').join(), /earlier than 0.3.0/);
  assert.equal(compareVersions('0.10.0', '0.9.0') > 0, true);
  assert.equal(nextMinor('0.2.1'), '0.3.0');
});
