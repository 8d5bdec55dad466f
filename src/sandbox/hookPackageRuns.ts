// What the person's git hooks run through a package.json (red team o, O6 husky): husky's
// `.husky/pre-commit` is `npm run -s precommit`, so whoever changes `scripts.precommit` runs code at
// the person's next `git commit`. package.json is project code a session edits all the time, and a
// hook that runs the test suite runs project code by design: what is protected is only the
// `scripts.<name>` keys a hook line runs (and the scripts those run in turn, `pre`/`post` too), the
// bins its `npx <name>` runs (the project's own bin of that name comes first), and the files the
// words of those scripts name (`"precommit": "sh scripts/check.sh"`), as for a hook's own words.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hookControlFiles, roughWords } from '../permissions/commandFiles';
import type { HookedKeys } from './manifestBins';

/** Package managers whose `run <name>` (yarn, pnpm, bun: `<name>` too) runs `scripts.<name>`. */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** npm's spellings of `run`. */
const RUN_ALIASES = new Set(['run', 'run-script', 'rum', 'urn']);
/** npm's shortcuts to scripts (`npm test`, `npm t`, `npm restart` runs stop and start too). */
const SHORTCUTS: Record<string, readonly string[]> = {
  t: ['test'],
  tst: ['test'],
  test: ['test'],
  start: ['start'],
  stop: ['stop'],
  restart: ['restart', 'stop', 'start'],
};
/** Runners of a package's bin: `npx x`, `bunx x`, `npm exec x`, `pnpm dlx x`, `yarn dlx x`. */
const BIN_RUNNERS = new Set(['npx', 'bunx']);
const EXEC_WORDS = new Set(['exec', 'x', 'dlx']);
/** How many words after a runner may name a script: `npm --prefix x run -s y` over-approximated. */
const NAME_WORDS = 3;
const MAX_DEPTH = 4;

/** The script names and bins one command line runs through a package manager, roughly. */
function runsOf(command: string): { scripts: string[]; bins: string[] } {
  const { words } = roughWords(command);
  const scripts: string[] = [];
  const bins: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const runner = path.basename(words[i]!);
    if (!SCRIPT_RUNNERS.has(runner) && !BIN_RUNNERS.has(runner)) continue;
    const next = words.slice(i + 1, i + 1 + NAME_WORDS + 2).filter((w) => !w.startsWith('-'));
    if (BIN_RUNNERS.has(runner) || EXEC_WORDS.has(next[0] ?? '')) {
      const spec = BIN_RUNNERS.has(runner) ? next[0] : next[1];
      // `@scope/pkg@1.2` → `pkg`: the bin npx runs for a package of that name.
      if (spec)
        bins.push(
          spec
            .replace(/^(@[^/]+\/)?([^@]+).*$/, '$2')
            .split('/')
            .pop()!,
        );
      continue;
    }
    for (const w of next.slice(0, NAME_WORDS))
      if (!RUN_ALIASES.has(w) && !w.includes('/') && w !== '__proto__')
        for (const name of SHORTCUTS[w] ?? [w]) scripts.push(`pre${name}`, name, `post${name}`);
  }
  return { scripts, bins };
}

/** `dir`'s package.json scripts (none when it cannot be read). */
function scriptsOf(manifest: string): Record<string, unknown> {
  try {
    const st = fs.statSync(manifest);
    if (!st.isFile() || st.size > 4 << 20) return {};
    const j = JSON.parse(fs.readFileSync(manifest, 'utf8').replace(/^\uFEFF/, '')) as { scripts?: unknown };
    return j.scripts && typeof j.scripts === 'object' ? (j.scripts as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * For the person's hook lines (`readings`: each command and the directory it runs from), the keys
 * of each package.json a package manager would read there (the directory and those above it, up to
 * a working directory: npm looks upwards), the files the scripts they run name, and those scripts'
 * lines with their package's directory (a hook framework they run: hookFrameworks.ts).
 */
export function hookPackageRuns(
  readings: readonly { command: string; cwd: string }[],
  roots: readonly string[],
): { keys: Map<string, HookedKeys>; files: string[]; lines: { command: string; cwd: string }[] } {
  const lines: { command: string; cwd: string }[] = [];
  const keys = new Map<string, { scripts: Set<string>; bins: Set<string> }>();
  const files = new Set<string>();
  const within = (d: string) => roots.some((r) => d === r || d.startsWith(r + path.sep));
  const visit = (command: string, cwd: string, depth: number) => {
    const runs = runsOf(command);
    if (runs.scripts.length === 0 && runs.bins.length === 0) return;
    for (let dir = cwd; within(dir); dir = path.dirname(dir)) {
      const manifest = path.join(dir, 'package.json');
      const k = keys.get(manifest) ?? { scripts: new Set<string>(), bins: new Set<string>() };
      keys.set(manifest, k);
      for (const b of runs.bins) k.bins.add(b);
      const scripts = scriptsOf(manifest);
      for (const s of runs.scripts) {
        if (k.scripts.has(s)) continue;
        k.scripts.add(s);
        const line = Object.hasOwn(scripts, s) ? scripts[s] : undefined;
        if (typeof line !== 'string') continue;
        lines.push({ command: line, cwd: dir });
        // npm runs a script from the package's directory. The package.json files node reads for a
        // script (its "type") are left out: their keys that run something are watched here, and the
        // rest of a package.json stays the agent's.
        for (const f of hookControlFiles([{ command: line }], dir, roots, os.homedir(), { runners: false }))
          if (path.basename(f) !== 'package.json') files.add(f);
        if (depth < MAX_DEPTH) visit(line, dir, depth + 1);
      }
      if (dir === path.dirname(dir)) break;
    }
  };
  for (const r of readings) visit(r.command, path.resolve(r.cwd), 0);
  const out = new Map<string, HookedKeys>();
  for (const [m, k] of keys) out.set(m, { scripts: [...k.scripts].sort(), bins: [...k.bins].sort() });
  return { keys: out, files: [...files], lines };
}
