// unit: every patch id has its fixtures (DESIGN invariant 14). Each `patched('…')` /
// `deprecatePatch('…')` in src/ is in the registry (src/workflows/versions.ts), and each registry
// entry names recorded histories in test/fixtures/histories that hold that patch's marker (read
// from the JSON history: a MarkerRecorded `core_patch` whose details carry the id) — plus, for the
// histories recorded before it, that they do not. test/integration/replay replays every one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PATCHES } from '../../src/workflows/versions';

const root = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    if (dirname(dir) === dir) throw new Error('repo root not found');
  }
})();
const FIXTURES = join(root, 'test', 'fixtures', 'histories');

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

/** Every patch id used in src/: string literals, or constants declared as `export const X = '…'`. */
export function patchIdsInSource(): Map<string, string[]> {
  const files = tsFiles('src');
  const constants = new Map<string, string>();
  for (const f of files)
    for (const m of readFileSync(f, 'utf8').matchAll(/\bconst\s+([A-Z][A-Z0-9_]*)\s*=\s*['"]([^'"]+)['"]/g))
      constants.set(m[1] as string, m[2] as string);
  const used = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(
      /\b(patched|deprecatePatch)\(\s*(?:['"]([^'"]+)['"]|([A-Za-z_][A-Za-z0-9_]*))\s*\)/g,
    )) {
      const id = m[2] ?? constants.get(m[3] as string);
      assert.ok(id, `${f}: ${m[0]} — the id must be a string literal or a constant of one`);
      used.set(id, [...(used.get(id) ?? []), `${f.slice(root.length + 1)}: ${m[1]}`]);
    }
  }
  return used;
}

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
  const used = patchIdsInSource();
  assert.ok(used.size >= 5, `found only ${[...used.keys()].join(', ')}`);
  const registered = PATCHES.map((p) => p.id);
  assert.equal(new Set(registered).size, registered.length, 'ids are unique');
  const missing = [...used.keys()]
    .filter((id) => !registered.includes(id))
    .map((id) => `${id} (${used.get(id)?.join('; ')}) is not in src/workflows/versions.ts`);
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
