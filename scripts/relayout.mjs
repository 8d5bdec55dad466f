// The re-layout of src/ (issue 32, "Rooms by what a newcomer looks for") as a codemod, so that it can
// be run again on a later main: other branches may have changed files or added new ones.
//
//   node scripts/relayout.mjs [--dry-run] [--mapping FILE.json] [--no-format]
//
// 1. Every tracked file under an old path of MAPPING (a folder rule, ending in '/', moves every file
//    under it, files added later too; a file rule moves one file; the longest old path wins) is
//    moved with `git mv`.
// 2. Every relative import/export/require/require.resolve/import() specifier of the code in src/,
//    test/, bench/, scripts/ and examples/ is resolved against the OLD layout (the importer's old
//    place, the old files) and written again for the NEW one, in the specifier's own form
//    (extension or none, folder index or file).
// 3. Path mentions are rewritten in the docs (docs/*.md, README.md, BENCHMARKS.md), package.json,
//    tsconfig.json, eslint.config.mjs, .ci/run, Dockerfile, scripts/ and in the code's comments and
//    strings: `src/old/…` and `dist/src/old/…` (with or without an extension, a folder or a file),
//    and a bare `old/file.ts` or `old/folder/` whose `src/` path names an old file or folder. A
//    mention is rewritten only when it names a file or folder that existed before the move. A path
//    built from string literals (`join(dist, 'src', 'workflows', 'versions.js')`) is rewritten the same way.
//    CHANGELOG.md and the recorded fixtures (test/fixtures/**/*.json, *.sse) are never touched: history
//    stays as it was written.
// 4. Prettier formats the code files it changed (a longer specifier may need another line).
//
// It prints every move, every file it rewrote, and what it could not rewrite cleanly: a specifier
// that no longer resolves, a mention of a folder whose files went to more than one place, a
// `__dirname` path in a moved file, a mention left in CHANGELOG.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const posix = path.posix;

/** Old path → new path. A folder ends in '/'. The longest old path that holds a file decides. */
export const MAPPING = {
  // core: pure, deterministic, bundled into the workflows (today's engine)
  'src/engine/': 'src/core/',
  'src/engine/messages.ts': 'src/core/apiMessages.ts',
  'src/engine/records.ts': 'src/core/toolRecords.ts',
  'src/engine/memory.ts': 'src/core/memoryReminder.ts',
  'src/engine/schedulerGlue.ts': 'src/core/schedulerShared.ts',
  'src/tools/cronText.ts': 'src/core/cronText.ts',
  // background tasks, one feature folder; a subfolder per room
  'src/engine/taskScheduling.ts': 'src/tasks/core/taskScheduling.ts',
  'src/engine/monitorTasks.ts': 'src/tasks/core/monitorTasks.ts',
  'src/engine/monitorLines.ts': 'src/tasks/core/monitorLines.ts',
  'src/engine/taskNotifications.ts': 'src/tasks/core/taskNotifications.ts',
  'src/calls/backgroundTask.ts': 'src/tasks/runtime/backgroundTask.ts',
  'src/calls/monitorTask.ts': 'src/tasks/runtime/monitorTask.ts',
  'src/activities/backgroundTask.ts': 'src/tasks/activities/backgroundTask.ts',
  'src/activities/monitorTask.ts': 'src/tasks/activities/monitorTask.ts',
  'src/workflows/sessionTasks.ts': 'src/tasks/workflows/sessionTasks.ts',
  'src/workflows/sessionMonitors.ts': 'src/tasks/workflows/sessionMonitors.ts',
  'src/workflows/sessionAgentTasks.ts': 'src/tasks/workflows/sessionAgentTasks.ts',
  'src/local/tasks.ts': 'src/tasks/inprocess/tasks.ts',
  // worktrees, one feature folder
  'src/tools/worktree.ts': 'src/worktree/worktrees.ts',
  'src/tools/repository.ts': 'src/worktree/repository.ts',
  'src/sandbox/worktreeGit/': 'src/worktree/git/',
  'src/sandbox/checkoutControl.ts': 'src/worktree/git/checkoutControl.ts',
  // a tool call: the pipeline that decides it and the call that runs it under the ledger
  'src/pipeline/': 'src/toolCall/pipeline/',
  'src/pipeline/records.ts': 'src/toolCall/pipeline/outcomeRecords.ts',
  'src/pipeline/messages.ts': 'src/toolCall/pipeline/resultBlocks.ts',
  'src/calls/tools.ts': 'src/toolCall/tools.ts',
  'src/calls/toolLedger.ts': 'src/toolCall/toolLedger.ts',
  'src/calls/toolSession.ts': 'src/toolCall/toolSession.ts',
  'src/calls/toolTypes.ts': 'src/toolCall/toolTypes.ts',
  'src/calls/offeredTools.ts': 'src/toolCall/offeredTools.ts',
  // runtime: the Temporal-free cores of every other call (today's calls)
  'src/calls/': 'src/runtime/',
  // the tool protocol; tools/ holds the tools themselves
  'src/tools/': 'src/toolProtocol/',
  'src/tools/toolSearch.ts': 'src/toolProtocol/deferredTools.ts',
  'src/tools/safeFs.ts': 'src/files/safeFs.ts',
  'src/tools/builtin/': 'src/tools/',
  // Temporal: workflows, activities, client, worker, schedules and the service's edge
  'src/workflows/': 'src/temporal/workflows/',
  'src/activities/': 'src/temporal/activities/',
  'src/temporal/': 'src/temporal/service/',
  'src/client.ts': 'src/temporal/client.ts',
  'src/schedules.ts': 'src/temporal/schedules.ts',
  'src/worker.ts': 'src/temporal/worker.ts',
  'src/workerLimits.ts': 'src/temporal/workerLimits.ts',
  // the in-process runner, CLAUDE.md, the package's entry points
  'src/local/': 'src/inprocess/',
  'src/memory/': 'src/claudeMd/',
  'src/entry/': 'src/packageEntries/',
};

const CODE_DIRS = ['src/', 'test/', 'bench/', 'scripts/', 'examples/'];
const CODE_EXT = /\.(ts|mts|cts|js|mjs|cjs)$/;
const TEXT_FILES = [
  /^docs\/.*\.md$/,
  /^README\.md$/,
  /^BENCHMARKS\.md$/,
  /^package\.json$/,
  /^tsconfig(\.[\w-]+)?\.json$/,
  /^eslint\.config\.mjs$/,
  /^\.ci\/run$/,
  /^Dockerfile$/,
  /^docker-compose\.yml$/,
];
const NEVER = [
  /^test\/fixtures\/.*\.(json|sse)$/,
  /^CHANGELOG\.md$/,
  /^scripts\/relayout\.mjs$/,
  /^node_modules\//,
  /^dist\//,
];
const FORMATTED = [/^(src|test|bench|scripts|examples)\//, /^eslint\.config\.mjs$/];

// --- the mapping ---

function rulesOf(mapping) {
  const rules = Object.entries(mapping).map(([from, to]) => {
    const dir = from.endsWith('/');
    if (dir !== to.endsWith('/')) throw new Error(`mapping ${from} → ${to}: a folder maps to a folder ('/' on both)`);
    return { from, to, dir };
  });
  return rules.sort((a, b) => b.from.length - a.from.length);
}

/** The new path of a repository-relative file (itself when no rule holds it). */
function mapper(rules) {
  return (file) => {
    for (const r of rules) {
      if (r.dir ? file.startsWith(r.from) : file === r.from) return r.dir ? r.to + file.slice(r.from.length) : r.to;
    }
    return file;
  };
}

// --- specifiers ---

/** Relative specifiers of a code file: [start, end) of the text between the quotes. */
const SPEC_RE =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\brequire\.resolve\s*\(\s*|\bexport\s+\*\s+from\s*)(['"])(\.{1,2}\/[^'"\n]*|\.{1,2})\1/g;

function specifiers(text) {
  const out = [];
  for (const m of text.matchAll(SPEC_RE)) {
    const spec = m[2];
    const start = m.index + m[0].length - 1 - spec.length;
    out.push({ spec, start, end: start + spec.length });
  }
  return out;
}

/** The old file a specifier names, and the form it names it in. */
function resolveSpec(importer, spec, has) {
  const base = posix.normalize(posix.join(posix.dirname(importer), spec));
  const jsLike = base.match(/^(.*)\.(js|mjs|cjs)$/);
  if (jsLike) {
    const ts = `${jsLike[1]}.${{ js: 'ts', mjs: 'mts', cjs: 'cts' }[jsLike[2]]}`;
    if (has(ts)) return { file: ts, form: 'jsToTs', ext: `.${jsLike[2]}` };
  }
  if (has(base)) return { file: base, form: 'exact' };
  for (const ext of ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'])
    if (has(base + ext)) return { file: base + ext, form: 'addExt', ext };
  for (const ix of ['index.ts', 'index.js'])
    if (has(posix.join(base, ix))) return { file: posix.join(base, ix), form: 'index' };
  return undefined;
}

function writeSpec(newImporter, newTarget, how) {
  const from = posix.dirname(newImporter);
  let rel;
  if (how.form === 'index' && /^index\.(ts|js)$/.test(posix.basename(newTarget)))
    rel = posix.relative(from, posix.dirname(newTarget)) || '.';
  else if (how.form === 'index') rel = posix.relative(from, newTarget).replace(/\.(ts|js)$/, '');
  else if (how.form === 'addExt') rel = posix.relative(from, newTarget).slice(0, -how.ext.length);
  else if (how.form === 'jsToTs') rel = posix.relative(from, newTarget).replace(/\.(ts|mts|cts)$/, how.ext);
  else rel = posix.relative(from, newTarget);

  return rel.startsWith('.') ? rel : `./${rel}`;
}

// --- mentions ---

const TOKEN_RE = /[\w@.\/-]+/g;
/** String literals joined into a path, the first one 'src': `'src', 'workflows', 'versions.js'`. */
const JOINED_RE = /(['"])src\1(?:\s*,\s*(['"])[\w.@-]+\2)+/g;

/**
 * A path mention in text → its rewrite, or a problem. `ctx`: the old files (has), folders (isDir),
 * the map, the rules, the old top folders of src/.
 */
function rewriteMention(token, ctx) {
  let prefix = '';
  let p;
  let bare = false;
  if (token.startsWith('//')) return undefined; // a URL's path names another repository
  const at = token.startsWith('src/') ? 0 : token.indexOf('/src/') + 1;
  if (at > 0 || token.startsWith('src/')) {
    prefix = token.slice(0, at);
    p = token.slice(at);
  } else {
    if (/^[./]/.test(token)) return undefined;
    // a bare mention needs a folder and a name under it (`engine/turn.ts`, `tools/builtin/bash/`):
    // a lone `workflows/` is as likely prose or a regular expression as a path
    if (!ctx.topDirs.has(token.split('/')[0]) || !/\/[^/]/.test(token)) return undefined;
    if (!/(\.d\.ts|\.ts|\.js|\/)$/.test(token.replace(/\.+$/, ''))) return undefined;
    p = `src/${token}`;
    bare = true;
  }
  let tail = '';
  while (p.endsWith('.')) {
    tail = `.${tail}`;
    p = p.slice(0, -1);
  }
  const m = p.match(/^(.*?)(\.d\.ts|\.ts|\.js\.map|\.js|\.mjs)?(\/?)$/);
  const [, stem, ext = '', slash] = m;
  let out;
  let problem;
  if (ext && ctx.has(`${stem}.ts`) && !slash) {
    const n = ctx.map(`${stem}.ts`);
    out = n.replace(/\.ts$/, '') + ext;
  } else if (!ext && !slash && ctx.has(`${stem}.ts`)) {
    out = ctx.map(`${stem}.ts`).replace(/\.ts$/, '');
  } else if (!ext && ctx.isDir(stem)) {
    const rule = ctx.rules.find((r) => r.dir && `${stem}/`.startsWith(r.from));
    if (!rule) return undefined; // the folder stays; what moved out of it is named by its own files
    const moved = rule.to + `${stem}/`.slice(rule.from.length);
    const elsewhere = ctx.files.filter((f) => f.startsWith(`${stem}/`) && !ctx.map(f).startsWith(moved));
    if (elsewhere.length)
      problem = `a mention of the folder ${stem}/ now reads ${moved}, but ${elsewhere.length} of its files went elsewhere (e.g. ${ctx.map(elsewhere[0])})`;
    out = moved.slice(0, -1) + slash;
  } else return undefined;
  if (bare) out = out.replace(/^src\//, '');
  const whole = prefix + out + tail;
  return whole === token ? (problem ? { problem } : undefined) : { text: whole, problem };
}

// --- the run ---

function git(args, opts = {}) {
  return execFileSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
}

function main() {
  const argv = process.argv.slice(2);
  const dry = argv.includes('--dry-run');
  const format = !argv.includes('--no-format');
  const mi = argv.indexOf('--mapping');
  const mapping = mi >= 0 ? JSON.parse(readFileSync(argv[mi + 1], 'utf8')) : MAPPING;
  const root = git(['rev-parse', '--show-toplevel']).trim();
  process.chdir(root);
  if (!dry && git(['status', '--porcelain', '--untracked-files=no']).trim() && !argv.includes('--force'))
    throw new Error('relayout: the work tree has uncommitted changes (commit them, or pass --force)');

  const files = git(['ls-files', '-z'])
    .split('\0')
    .filter(Boolean)
    .filter((f) => existsSync(f));
  const fileSet = new Set(files);
  const dirSet = new Set();
  for (const f of files) for (let d = posix.dirname(f); d !== '.'; d = posix.dirname(d)) dirSet.add(d);
  const rules = rulesOf(mapping);
  const map = mapper(rules);
  const topDirs = new Set(
    files.filter((f) => f.startsWith('src/') && f.split('/').length > 2).map((f) => f.split('/')[1]),
  );
  const ctx = { has: (f) => fileSet.has(f), isDir: (d) => dirSet.has(d), map, rules, files, topDirs };
  const problems = new Set();
  problems.push = (p) => problems.add(p);

  // Moves, checked before anything changes.
  const moves = files.map((f) => [f, map(f)]).filter(([a, b]) => a !== b);
  const dest = new Map();
  for (const [a, b] of moves) {
    if (dest.has(b)) throw new Error(`relayout: ${a} and ${dest.get(b)} would both move to ${b}`);
    dest.set(b, a);
    if (fileSet.has(b) && map(b) === b) throw new Error(`relayout: ${a} → ${b}, which exists and stays`);
  }
  for (const r of rules)
    if (!files.some((f) => (r.dir ? f.startsWith(r.from) : f === r.from)))
      problems.push(`rule ${r.from} holds no file`);

  // Rewrites, computed on the old layout.
  const rewritten = new Map();
  const inScope = (f) =>
    !NEVER.some((re) => re.test(f)) &&
    ((CODE_DIRS.some((d) => f.startsWith(d)) && CODE_EXT.test(f)) ||
      TEXT_FILES.some((re) => re.test(f)) ||
      f.startsWith('scripts/'));
  for (const f of files.filter(inScope)) {
    const text = readFileSync(f, 'utf8');
    const edits = [];
    const isCode = CODE_DIRS.some((d) => f.startsWith(d)) && CODE_EXT.test(f);
    if (isCode) {
      for (const s of specifiers(text)) {
        const how = resolveSpec(f, s.spec, ctx.has);
        if (!how) {
          const base = posix.normalize(posix.join(posix.dirname(f), s.spec));
          if (
            rules.some((r) =>
              r.dir ? `${base}/`.startsWith(r.from) || base.startsWith(r.from) : base === r.from.replace(/\.ts$/, ''),
            )
          )
            problems.push(`${f}: '${s.spec}' names no file, left as it was`);
          continue;
        }
        const next = writeSpec(map(f), map(how.file), how);
        if (next !== s.spec) edits.push({ start: s.start, end: s.end, text: next });
      }
      if (map(f) !== f && /__dirname[^\n]*['"]\.\.['"]/.test(text))
        problems.push(`${f}: a path built from __dirname with '..' (check it by hand after the move)`);
    }
    // A path built from literals: join(dist, 'src', 'workflows', 'versions.js').
    for (const m of text.matchAll(JOINED_RE)) {
      const segs = [...m[0].matchAll(/(['"])([^'"]*)\1/g)].map((x) => x[2]);
      const r = rewriteMention(segs.join('/'), ctx);
      if (!r) continue;
      if (r.problem) problems.push(`${f}: ${r.problem}`);
      if (!r.text) continue;
      const q = m[0][0];
      edits.push({
        start: m.index,
        end: m.index + m[0].length,
        text: r.text
          .split('/')
          .map((x) => q + x + q)
          .join(', '),
      });
    }
    for (const m of text.matchAll(TOKEN_RE)) {
      if (!m[0].includes('/')) continue;
      const start = m.index;
      const end = start + m[0].length;
      if (edits.some((e) => start < e.end && e.start < end)) continue;
      const r = rewriteMention(m[0], ctx);
      if (!r) continue;
      if (r.problem) problems.push(`${f}: ${r.problem}`);
      if (r.text) edits.push({ start, end, text: r.text });
    }
    if (!edits.length) continue;
    edits.sort((a, b) => b.start - a.start);
    let out = text;
    for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    rewritten.set(f, { text: out, count: edits.length });
  }
  const changelog = existsSync('CHANGELOG.md') ? readFileSync('CHANGELOG.md', 'utf8') : '';
  const oldMentions = [...changelog.matchAll(TOKEN_RE)].filter(
    (m) => m[0].includes('src/') && rewriteMention(m[0], ctx)?.text,
  );
  if (oldMentions.length)
    problems.push(
      `CHANGELOG.md: ${oldMentions.length} mentions of old paths left as written (history); a new entry names the new ones`,
    );

  console.log(`relayout: ${moves.length} files move`);
  for (const [a, b] of moves) console.log(`  move ${a} → ${b}`);
  console.log(`relayout: ${rewritten.size} files rewritten`);
  for (const [f, r] of rewritten) console.log(`  edit ${map(f)} (${r.count} paths)`);
  if (dry) return report(problems);

  // Two steps, through a scratch folder: a file may move to where another one moves away from.
  const scratch = (b) => posix.join('.relayout-moving', b);
  for (const [step, from, to] of [
    [1, (m) => m[0], (m) => scratch(m[1])],
    [2, (m) => scratch(m[1]), (m) => m[1]],
  ])
    for (const m of moves) {
      mkdirSync(posix.dirname(to(m)), { recursive: true });
      git(['mv', from(m), to(m)]);
      if (step === 2)
        for (let d = posix.dirname(from(m)); d !== '.' && existsSync(d) && !readdirSync(d).length; d = posix.dirname(d))
          rmdirSync(d);
    }
  for (const [f, r] of rewritten) writeFileSync(map(f), r.text);
  for (const [a] of moves) {
    for (let d = posix.dirname(a); d !== '.' && existsSync(d) && readdirSync(d).length === 0; d = posix.dirname(d))
      rmdirSync(d);
  }

  // After: every relative specifier of the code resolves in the new layout.
  const after = new Set(
    git(['ls-files', '-z'])
      .split('\0')
      .filter(Boolean)
      .filter((f) => existsSync(f)),
  );
  for (const f of after) {
    if (!(CODE_DIRS.some((d) => f.startsWith(d)) && CODE_EXT.test(f)) || NEVER.some((re) => re.test(f))) continue;
    for (const s of specifiers(readFileSync(f, 'utf8'))) {
      const was = files.find((k) => map(k) === f) ?? f;
      if (!resolveSpec(f, s.spec, (x) => after.has(x)) && resolveSpec(was, s.spec, ctx.has))
        problems.push(`${f}: '${s.spec}' does not resolve after the move`);
    }
  }
  const touched = [...rewritten.keys()].map(map).filter((f) => FORMATTED.some((re) => re.test(f)));
  if (format && touched.length)
    try {
      execFileSync('npx', ['prettier', '--log-level', 'warn', '--write', ...touched], { stdio: 'inherit' });
    } catch {
      problems.push('prettier failed on a rewritten file (its error is above): a mention rewritten inside code?');
    }
  git(['add', '-A', '--', ...new Set([...rewritten.keys()].map(map))]);
  report(problems);
}

function report(set) {
  const problems = [...set];
  if (!problems.length) return console.log('relayout: every path rewritten cleanly');
  console.log(`relayout: ${problems.length} things to look at by hand`);
  for (const p of problems) console.log(`  ! ${p}`);
}

main();
