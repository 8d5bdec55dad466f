// Releases (docs/releasing.md): the CHANGELOG.md entries as data, the version arithmetic, and the
// rules that tie each workflow patch id (src/temporal/workflows/versions.ts) to releases. Read by
// test/support/previousRelease.ts (the upgrade test's previous release), test/unit/versions and
// scripts/release.mjs (which cuts a release). Node only; no Temporal.
//
// An entry of CHANGELOG.md is a heading `## [x.y.z] - YYYY-MM-DD` whose first lines are
//   Commit: <40 hex digits>[ (vX.Y.Z)]   the commit the release was cut from, or
//   Commit: (tagged vX.Y.Z)              written before that commit existed: the tag names it
//   Patches: id, id | none               the patched() ids the release introduced
// `## [Unreleased]` (no date, no Commit line) is what main holds since the newest release.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const repoRoot = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    if (dirname(dir) === dir) throw new Error('repo root not found');
  }
})();

// --- Versions: x.y.z, compared numerically. ---

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

export function parseVersion(v: string): [number, number, number] {
  const m = VERSION.exec(v);
  if (!m) throw new Error(`not a release version (x.y.z): ${JSON.stringify(v)}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return 0;
}

/** The next minor release after `v` (0.2.0 -> 0.3.0; 0.2.1 -> 0.3.0): releases count in minors. */
export function nextMinor(v: string, by = 1): string {
  const [major, minor] = parseVersion(v);
  return `${major}.${minor + by}.0`;
}

export function packageVersion(root = repoRoot): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

// --- CHANGELOG.md ---

export interface ReleaseEntry {
  version: string;
  date: string;
  /** The commit's full hash when the entry names one. */
  commit?: string;
  /** The tag that names the commit (`Commit: (tagged v0.2.0)`, or after the hash). */
  tag?: string;
  /** The patch ids the release introduced. */
  patches: string[];
  /** The heading's line number (0-based) in the file. */
  line: number;
}

export interface Changelog {
  text: string;
  /** Newest first, as in the file; `[Unreleased]` is not an entry. */
  entries: ReleaseEntry[];
}

const HEADING = /^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})\s*$/;
const COMMIT = /^Commit: (?:([0-9a-f]{40})(?: \((v\d+\.\d+\.\d+)\))?|\(tagged (v\d+\.\d+\.\d+)\))\s*$/;
const PATCHES = /^Patches: (.*)$/;

export function parseChangelog(text: string): Changelog {
  const lines = text.split('\n');
  const entries: ReleaseEntry[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!line.startsWith('## [') || line.startsWith('## [Unreleased]')) continue;
    const h = HEADING.exec(line);
    if (!h) throw new Error(`CHANGELOG.md:${i + 1}: a release heading is "## [x.y.z] - YYYY-MM-DD", not ${line}`);
    const entry: ReleaseEntry = { version: h[1] as string, date: h[2] as string, patches: [], line: i };
    let commitSeen = false;
    let patchesSeen = false;
    for (let j = i + 1; j < lines.length && !(lines[j] as string).startsWith('## '); j++) {
      const c = COMMIT.exec(lines[j] as string);
      if (c) {
        commitSeen = true;
        if (c[1]) entry.commit = c[1];
        const tag = c[2] ?? c[3];
        if (tag) entry.tag = tag;
      }
      const p = PATCHES.exec(lines[j] as string);
      if (p) {
        patchesSeen = true;
        const list = (p[1] as string).trim();
        entry.patches = list === 'none' ? [] : list.split(',').map((s) => s.trim().replace(/^`|`$/g, ''));
      }
    }
    const where = `CHANGELOG.md:${i + 1} (${entry.version})`;
    if (!commitSeen) throw new Error(`${where}: no "Commit: <sha>" or "Commit: (tagged v${entry.version})" line`);
    if (entry.tag && entry.tag !== `v${entry.version}`) throw new Error(`${where}: the tag is ${entry.tag}`);
    if (!patchesSeen) throw new Error(`${where}: no "Patches: id, id" (or "Patches: none") line`);
    entries.push(entry);
  }
  for (let k = 1; k < entries.length; k++)
    if (compareVersions((entries[k - 1] as ReleaseEntry).version, (entries[k] as ReleaseEntry).version) <= 0)
      throw new Error(
        `CHANGELOG.md: releases must be newest first (${entries[k - 1]?.version} before ${entries[k]?.version})`,
      );
  return { text, entries };
}

export function readChangelog(root = repoRoot): Changelog {
  return parseChangelog(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'));
}

/** The newest release older than `version` (package.json's by default): the one a running deploy upgrades from. */
export function previousReleaseEntry(changelog: Changelog, version: string): ReleaseEntry | undefined {
  return changelog.entries.find((e) => compareVersions(e.version, version) < 0);
}

/**
 * The commit of a release: the hash its entry names, else its tag in this clone. A clone without
 * the tag still has the hash of every release but the newest (scripts/release.mjs writes it into
 * the entry when it cuts the next one).
 */
export function releaseCommit(entry: ReleaseEntry, root = repoRoot): { commit?: string; why?: string } {
  if (entry.commit) return { commit: entry.commit };
  const tag = entry.tag ?? `v${entry.version}`;
  try {
    const commit = execFileSync('git', ['-C', root, 'rev-parse', '--verify', '--quiet', `${tag}^{commit}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (/^[0-9a-f]{40}$/.test(commit)) return { commit };
  } catch {
    // no such tag here
  }
  return { why: `release ${entry.version} names its commit by the tag ${tag}, which this clone does not have` };
}

// --- Patch ids in the source ---

function tsFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

export type PatchCall = 'patched' | 'deprecatePatch';

/** Every patch id used in src/ (string literals, or constants declared as `const X = '…'`): where, and how. */
export function patchIdsInSource(root = repoRoot): Map<string, Array<{ file: string; call: PatchCall }>> {
  const files = tsFiles(root, 'src');
  const constants = new Map<string, string>();
  for (const f of files)
    for (const m of readFileSync(f, 'utf8').matchAll(/\bconst\s+([A-Z][A-Z0-9_]*)\s*=\s*['"]([^'"]+)['"]/g))
      constants.set(m[1] as string, m[2] as string);
  const used = new Map<string, Array<{ file: string; call: PatchCall }>>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(
      /\b(patched|deprecatePatch)\(\s*(?:['"]([^'"]+)['"]|([A-Za-z_][A-Za-z0-9_]*))\s*\)/g,
    )) {
      const id = m[2] ?? constants.get(m[3] as string);
      const file = f.slice(root.length + 1);
      if (!id) throw new Error(`${file}: ${m[0]} — the id must be a string literal or a constant of one`);
      used.set(id, [...(used.get(id) ?? []), { file, call: m[1] as PatchCall }]);
    }
  }
  return used;
}

// --- The rules that tie patch ids to releases ---

/**
 * The first release cut by these rules. Before it there were no releases to deploy by (0.1.0 is a
 * commit of main named one afterwards), so a patch that shipped earlier counts its lifetime from
 * 0.2.0, the first release every running deploy passes through; and the limit of one new session
 * patch per release applies to releases after it.
 */
export const FIRST_COUNTED_RELEASE = '0.2.0';

/** Which workflows an id guards, when it ships, and when it retires (src/temporal/workflows/versions.ts). */
export interface PatchRelease {
  id: string;
  workflows: ReadonlyArray<'session' | 'turn'>;
  release: string;
  retireIn: string;
}

/**
 * The earliest release that may deprecate an id. A turn lives minutes (hours at most: an approval
 * wait, 24 h by default, or a foreground subagent), so one release after the patch shipped no turn
 * started without it is open; a session run lives until continue-as-new — an idle session waits
 * up to 7 days for a follow-up — so its ids wait one release more.
 */
export function earliestRetirement(p: PatchRelease): string {
  const base = compareVersions(p.release, FIRST_COUNTED_RELEASE) < 0 ? FIRST_COUNTED_RELEASE : p.release;
  return nextMinor(base, p.workflows.includes('session') ? 2 : 1);
}

/** The release that removes a deprecated id: the one after its retireIn. */
export function removalRelease(p: PatchRelease): string {
  return nextMinor(p.retireIn);
}

/**
 * What `version` (package.json's, or the one being cut) requires of the ids in use: an id is
 * deprecated (`deprecatePatch`) from its retireIn on and gone from its removal release on.
 */
export function retirementProblems(
  patches: readonly PatchRelease[],
  used: Map<string, Array<{ file: string; call: PatchCall }>>,
  version: string,
): string[] {
  const problems: string[] = [];
  for (const p of patches) {
    const calls = used.get(p.id) ?? [];
    if (compareVersions(version, removalRelease(p)) >= 0 && calls.length > 0)
      problems.push(
        `${p.id}: deprecated in ${p.retireIn}, to be removed in ${removalRelease(p)}, but ${version} still has ${calls.map((c) => `${c.call}() in ${c.file}`).join(', ')}: remove the call, its unpatched branch and its registry entry`,
      );
    else if (compareVersions(version, p.retireIn) >= 0) {
      const plain = calls.filter((c) => c.call === 'patched');
      if (plain.length > 0)
        problems.push(
          `${p.id}: retires in ${p.retireIn}, but ${version} still calls patched() in ${plain.map((c) => c.file).join(', ')}: make it deprecatePatch() and drop the unpatched branch (docs/releasing.md)`,
        );
    }
  }
  return problems;
}

/** At most one new id guarding a session workflow per release (after FIRST_COUNTED_RELEASE). */
export function newSessionPatchProblems(patches: readonly PatchRelease[]): string[] {
  const byRelease = new Map<string, string[]>();
  for (const p of patches)
    if (p.workflows.includes('session') && compareVersions(p.release, FIRST_COUNTED_RELEASE) > 0)
      byRelease.set(p.release, [...(byRelease.get(p.release) ?? []), p.id]);
  return [...byRelease]
    .filter(([, ids]) => ids.length > 1)
    .map(
      ([release, ids]) =>
        `release ${release} introduces ${ids.length} session-workflow patches (${ids.join(', ')}): at most one per release — a session lives for days, so every id is a branch kept for two releases; ship one behaviour change per release, or fold them under one id`,
    );
}

/**
 * Each id's `release` against the CHANGELOG: an id of a cut release is listed in that release's
 * Patches line; an id listed nowhere is new on main and carries the next release.
 */
export function releaseFieldProblems(
  patches: readonly PatchRelease[],
  changelog: Changelog,
  version: string,
): string[] {
  const problems: string[] = [];
  const next = nextMinor(version);
  for (const p of patches) {
    const listedIn = changelog.entries.filter((e) => e.patches.includes(p.id)).map((e) => e.version);
    if (listedIn.length > 1) problems.push(`${p.id}: listed in the Patches of ${listedIn.join(' and ')}`);
    else if (listedIn.length === 1) {
      if (listedIn[0] !== p.release)
        problems.push(`${p.id}: release ${p.release}, but CHANGELOG.md lists it in ${listedIn[0]}`);
    } else if (p.release !== next)
      problems.push(
        `${p.id}: no release lists it, so it is new since ${version} and ships in ${next}, not ${p.release}`,
      );
    if (compareVersions(p.retireIn, earliestRetirement(p)) < 0)
      problems.push(
        `${p.id}: retireIn ${p.retireIn} is earlier than ${earliestRetirement(p)} (a ${p.workflows.join('+')} patch of ${p.release}: see earliestRetirement)`,
      );
    if (!/^\d+\.\d+\.0$/.test(p.retireIn)) problems.push(`${p.id}: retireIn ${p.retireIn} is not a minor release`);
  }
  return problems;
}
