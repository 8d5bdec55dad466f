"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.patchIdsInSource = patchIdsInSource;
exports.patchMarkers = patchMarkers;
// unit: every patch id has its fixtures (DESIGN invariant 14). Each `patched('…')` /
// `deprecatePatch('…')` in src/ is in the registry (src/workflows/versions.ts), and each registry
// entry names recorded histories in test/fixtures/histories that hold that patch's marker (read
// from the JSON history: a MarkerRecorded `core_patch` whose details carry the id) — plus, for the
// histories recorded before it, that they do not. test/integration/replay replays every one of them.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const versions_1 = require("../../src/workflows/versions");
const root = (() => {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        if ((0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'package.json')) && (0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'src')))
            return dir;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error('repo root not found');
    }
})();
const FIXTURES = (0, node_path_1.join)(root, 'test', 'fixtures', 'histories');
function tsFiles(dir) {
    return (0, node_fs_1.readdirSync)((0, node_path_1.join)(root, dir), { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && e.name.endsWith('.ts'))
        .map((e) => (0, node_path_1.join)(e.parentPath ?? e.path, e.name));
}
/** Every patch id used in src/: string literals, or constants declared as `export const X = '…'`. */
function patchIdsInSource() {
    const files = tsFiles('src');
    const constants = new Map();
    for (const f of files)
        for (const m of (0, node_fs_1.readFileSync)(f, 'utf8').matchAll(/\bconst\s+([A-Z][A-Z0-9_]*)\s*=\s*['"]([^'"]+)['"]/g))
            constants.set(m[1], m[2]);
    const used = new Map();
    for (const f of files) {
        const text = (0, node_fs_1.readFileSync)(f, 'utf8').replace(/^\s*\/\/.*$/gm, '');
        for (const m of text.matchAll(/\b(patched|deprecatePatch)\(\s*(?:['"]([^'"]+)['"]|([A-Za-z_][A-Za-z0-9_]*))\s*\)/g)) {
            const id = m[2] ?? constants.get(m[3]);
            strict_1.default.ok(id, `${f}: ${m[0]} — the id must be a string literal or a constant of one`);
            used.set(id, [...(used.get(id) ?? []), `${f.slice(root.length + 1)}: ${m[1]}`]);
        }
    }
    return used;
}
/** The patch ids whose markers a recorded history holds. */
function patchMarkers(file) {
    const history = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(FIXTURES, file), 'utf8'));
    const ids = [];
    for (const e of history.events) {
        const m = e.markerRecordedEventAttributes;
        if (e.eventType !== 'EVENT_TYPE_MARKER_RECORDED' || m?.markerName !== 'core_patch')
            continue;
        for (const d of Object.values(m.details ?? {})) {
            for (const p of d.payloads ?? []) {
                const data = JSON.parse(Buffer.from(p.data ?? '', 'base64').toString('utf8'));
                const id = typeof data === 'string' ? data : data.id;
                if (id)
                    ids.push(id);
            }
        }
    }
    return ids;
}
const manifest = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(FIXTURES, 'manifest.json'), 'utf8')).histories;
(0, node_test_1.test)('unit: every patched()/deprecatePatch() id in src/ is in the registry, and every registry entry is used', () => {
    const used = patchIdsInSource();
    strict_1.default.ok(used.size >= 5, `found only ${[...used.keys()].join(', ')}`);
    const registered = versions_1.PATCHES.map((p) => p.id);
    strict_1.default.equal(new Set(registered).size, registered.length, 'ids are unique');
    const missing = [...used.keys()]
        .filter((id) => !registered.includes(id))
        .map((id) => `${id} (${used.get(id)?.join('; ')}) is not in src/workflows/versions.ts`);
    strict_1.default.deepEqual(missing, []);
    strict_1.default.deepEqual(registered.filter((id) => !used.has(id)), [], 'registry entries without a patched() call: remove them with their last step');
});
(0, node_test_1.test)('unit: every registry entry has fixtures that hold its marker, and its pre-patch fixtures do not; all are replayed', () => {
    const inManifest = new Set(manifest.map((m) => m.file));
    const files = (0, node_fs_1.readdirSync)(FIXTURES).filter((f) => f.endsWith('.json') && f !== 'manifest.json');
    strict_1.default.deepEqual(files.filter((f) => !inManifest.has(f)), [], 'every fixture is in the manifest the replay test replays');
    for (const p of versions_1.PATCHES) {
        strict_1.default.ok(p.fixtures.length > 0, `${p.id}: no fixture`);
        strict_1.default.ok(p.why && p.deprecate && /^[0-9a-f]{7,40}$/.test(p.since), `${p.id}: why, since and the deprecation step`);
        for (const f of p.fixtures) {
            strict_1.default.ok(inManifest.has(f), `${p.id}: ${f} is not a replayed fixture`);
            strict_1.default.ok(patchMarkers(f).includes(p.id), `${p.id}: ${f} holds no marker of it (markers: ${patchMarkers(f).join(', ') || 'none'})`);
        }
        for (const f of p.before) {
            strict_1.default.ok(inManifest.has(f), `${p.id}: ${f} is not a replayed fixture`);
            strict_1.default.ok(!patchMarkers(f).includes(p.id), `${p.id}: ${f} was to be recorded before the patch, but holds its marker`);
        }
    }
});
(0, node_test_1.test)('unit: the marker reader finds what a history holds (a history with two patches; one with none)', () => {
    strict_1.default.deepEqual(patchMarkers('cut-off.turn-1.json').sort(), ['local-turn-stores', 'max-tokens-cut-off']);
    strict_1.default.deepEqual(patchMarkers('batch.turn-1.json'), []);
});
//# sourceMappingURL=versions.test.js.map