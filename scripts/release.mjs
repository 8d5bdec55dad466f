#!/usr/bin/env node
// Cuts a release (docs/releasing.md): bumps package.json (and package-lock.json) to the new
// version, turns CHANGELOG.md's [Unreleased] section into the release's entry (date, `Commit:
// (tagged vX.Y.Z)`, the patch ids it introduces), writes the hash of the previous release into its
// entry, and says which tag to create on which commit. It refuses — changing nothing — when the
// release would break a rule of src/temporal/workflows/versions.ts: an id due for deprecatePatch() or
// removal at this version, an id new since the last release that does not carry this one, more
// than one new session-workflow id, or nothing under [Unreleased]. Needs a build (npm run build).
//
//   node scripts/release.mjs [x.y.z] [--date YYYY-MM-DD] [--dry-run] [--root <checkout>]
//
// The version defaults to the next minor (0.2.0 -> 0.3.0). --root works on another checkout
// (test/unit/release-script); the registry is always this build's.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith('--')) fail(`${name} needs a value`);
  args.splice(i, 2);
  return value;
};
const root = path.resolve(option('--root') ?? here);
const date = option('--date') ?? new Date().toISOString().slice(0, 10);
const dryRun = args.includes('--dry-run');
const positional = args.filter((a) => !a.startsWith('--'));
if (args.some((a) => a.startsWith('--') && a !== '--dry-run')) fail(`unknown option in ${args.join(' ')}`);
if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) fail(`--date is YYYY-MM-DD, not ${date}`);

const dist = path.join(here, 'dist');
if (!existsSync(path.join(dist, 'scripts', 'releases.js'))) fail('no build: run `npm run build` first');
const releases = require(path.join(dist, 'scripts', 'releases.js'));
const { PATCHES } = require(path.join(dist, 'src', 'temporal', 'workflows', 'versions.js'));

const current = releases.packageVersion(root);
const version = positional[0] ?? releases.nextMinor(current);
try {
  releases.parseVersion(version);
} catch (err) {
  fail(err.message);
}
if (releases.compareVersions(version, current) <= 0) fail(`${version} is not after package.json's ${current}`);

const changelogPath = path.join(root, 'CHANGELOG.md');
const changelog = releases.parseChangelog(readFileSync(changelogPath, 'utf8'));
const lines = changelog.text.split('\n');
const newest = changelog.entries[0];
if (newest && newest.version !== current)
  fail(`CHANGELOG.md's newest release is ${newest.version}, package.json says ${current}`);
const unreleasedAt = lines.findIndex((l) => /^## \[Unreleased\]\s*$/.test(l));
if (unreleasedAt < 0) fail('CHANGELOG.md has no "## [Unreleased]" section');
const end = newest ? newest.line : lines.length;
const body = lines
  .slice(unreleasedAt + 1, end)
  .join('\n')
  .trim();
if (!body)
  fail('nothing under [Unreleased] in CHANGELOG.md: write what this release changes first (### Added, ### Changed, …)');

// The previous release's entry gets its commit's hash (a clone without the tag reads it there).
const edits = new Map();
for (const e of changelog.entries) {
  if (e.commit) continue;
  const r = releases.releaseCommit(e, root);
  if (!r.commit)
    fail(
      `${r.why}: create it on the commit ${e.version} was cut from (git tag -a v${e.version} <commit>), then run this again`,
    );
  for (let i = e.line + 1; i < lines.length && !lines[i].startsWith('## '); i++)
    if (lines[i].startsWith('Commit: ')) edits.set(i, `Commit: ${r.commit} (v${e.version})`);
}
for (const [i, line] of edits) lines[i] = line;

// The rules of src/temporal/workflows/versions.ts at the new version.
const used = releases.patchIdsInSource(root);
const listed = new Set(changelog.entries.flatMap((e) => e.patches));
const introduced = PATCHES.filter((p) => !listed.has(p.id));
const problems = [
  ...introduced
    .filter((p) => p.release !== version)
    .map(
      (p) =>
        `${p.id}: new since ${current}, so its release is ${version}, not ${p.release} (src/temporal/workflows/versions.ts)`,
    ),
  ...releases.retirementProblems(PATCHES, used, version),
  ...releases.newSessionPatchProblems(PATCHES),
];
if (problems.length) fail(`${version} cannot be cut yet:\n  - ${problems.join('\n  - ')}`);

const entry = [
  `## [${version}] - ${date}`,
  '',
  `Commit: (tagged v${version})`,
  `Patches: ${introduced.map((p) => p.id).join(', ') || 'none'}`,
  '',
  body,
  '',
];
const text = [...lines.slice(0, unreleasedAt + 1), '', ...entry, ...lines.slice(end)].join('\n');
releases.parseChangelog(text); // what the tests will read

const bump = (file) => {
  const p = path.join(root, file);
  if (!existsSync(p)) return undefined;
  const before = readFileSync(p, 'utf8');
  const json = JSON.parse(before);
  // Only the package's own version lines: package.json's, package-lock.json's top and packages[""].
  let out = before.replace(/^(  "version": )"[^"]*"/m, `$1"${version}"`);
  if (json.packages?.[''])
    out = out.replace(/^(    "": \{\n(?:      .*\n)*?      "version": )"[^"]*"/m, `$1"${version}"`);
  const after = JSON.parse(out);
  if (after.version !== version || (json.packages?.[''] && after.packages[''].version !== version))
    fail(`could not set the version in ${file}`);
  return [p, out];
};
const writes = [[changelogPath, text], bump('package.json'), bump('package-lock.json')].filter(Boolean);

if (dryRun) {
  console.log(entry.join('\n'));
  console.log(`[dry run] would write ${writes.map(([p]) => path.relative(root, p)).join(', ')}`);
  process.exit(0);
}
for (const [p, out] of writes) writeFileSync(p, out);
console.log(`release ${version}: package.json, package-lock.json and CHANGELOG.md written.
Patches introduced: ${introduced.map((p) => p.id).join(', ') || 'none'}.
Next:
  1. npm run build && node scripts/run-tests.mjs --unit versions release-script   (and the upgrade test:
     node scripts/run-tests.mjs upgrade — it now starts from ${current})
  2. git commit -am "Release ${version}" and merge it to main.
  3. Tag the commit main is at after that merge — the commit this release is cut from:
       git tag -a v${version} -m "durable-agent ${version}" <that commit> && git push origin v${version}`);
