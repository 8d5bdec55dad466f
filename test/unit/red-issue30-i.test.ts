// Red team issue 30, round i (fresh eyes on the third round's fixes). Oracles: the real file
// system and processes (a marker a planted file writes, with the environment it saw), never the
// tool's words. A row the current code lets through is committed with `skip: 'HOLE: …'`; run
// them with R30I_HOLES=1 (each must then fail until its fix lands, and pass after).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DRIVER_MODULES, envCopyPayload, installedWorkerRig, repoRoot } from '../support/installedWorker';

// Every row is held now (I-1, I-4 on main; I-3 by the trusted PATH): a new hole row brings back
// `const hole = (line) => (process.env.R30I_HOLES === '1' ? {} : { skip: \`HOLE: ${line}\` })`.

const rig = installedWorkerRig({
  tag: 'i1',
  dirPrefix: 'da-r30i-',
  bait: {
    ANTHROPIC_API_KEY: 'sk-ant-api03-BAIT-r30i-7c2e',
    DATABASE_URL: 'postgres://admin:BAIT-r30i-pw@db.internal:5432/prod',
    CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-BAIT-r30i-oauth',
  },
  what: 'the red team issue 30 (i) tests',
});
const { base, home, bait: BAIT_ENV, hasBait, read, hoistedProject, worker } = rig;
/** What a planted module does: copies its own environment and its parent's (the worker's) outside. */
const payload = (mark: string): string => envCopyPayload(mark, false);
const personRunsCli = (root: string): string => {
  const r = rig.personRunsCli(root);
  return r.stdout + r.stderr;
};

/** A sandboxed command that plants package `name` (main: index.js = the payload) at `dir`/node_modules. */
function plantPackage(dir: string, name: string, payloadFile: string): string {
  const at = `${dir}/node_modules/${name}`;
  return `mkdir -p ${at} && printf '{"name":"${name}","main":"index.js"}' > ${at}/package.json && cp ${payloadFile} ${at}/index.js`;
}

for (const mode of ['dontAsk', 'acceptEdits'] as const)
  test(
    `I-1 attack (${mode}): sandboxed Bash creates node_modules/durable-agent/node_modules/<dependency> (a shadow of a hoisted dependency) — neither the worker's next runtime child nor the person's next npx durable-agent loads it`,
    {}, // was a hole: fixed (workerCode.ts: node_modules lookup directories; restore only in the directory found)
    async (t) => {
      if (rig.skipped(t)) return;
      const { root, pkg } = hoistedProject();
      const markChild = path.join(base, `i1-child-${mode}.txt`);
      const markCli = path.join(base, `i1-cli-${mode}.txt`);
      writeFileSync(path.join(base, `i1c-${mode}.js`), payload(markChild));
      writeFileSync(path.join(base, `i1l-${mode}.js`), payload(markCli));
      const rel = 'node_modules/durable-agent';
      const w = worker(root, pkg, mode, 'Bash', {
        command: [
          `${plantPackage(rel, '@anthropic-ai/sandbox-runtime', `${base}/i1c-${mode}.js`)}; echo "1:$?"`,
          `${plantPackage(rel, 'commander', `${base}/i1l-${mode}.js`)}; echo "2:$?"`,
          'echo ok > a.txt; true',
        ].join('\n'),
      });
      const cliOut = personRunsCli(root);
      const [c, l] = [read(markChild), read(markCli)];
      t.diagnostic(`tool: ${w.tool.slice(0, 400)}; runtime: ${w.runtime}; cli: ${cliOut.slice(0, 200)}`);
      assert.deepEqual(
        {
          bashRanInTheProject: readFileSync(path.join(root, 'a.txt'), 'utf8'),
          runtimeChildLoadedThePlant: c !== '',
          runtimeChildSawSecrets: hasBait(c),
          cliLoadedThePlant: l !== '',
          cliSawSecrets: hasBait(l),
        },
        {
          bashRanInTheProject: 'ok\n',
          runtimeChildLoadedThePlant: false,
          runtimeChildSawSecrets: false,
          cliLoadedThePlant: false,
          cliSawSecrets: false,
        },
        w.tool,
      );
    },
  );

/**
 * A worker started in the project by `npx durable-agent dev` / `npm run worker` (npm and npx put
 * `<project>/node_modules/.bin` first on its PATH: row "a worker started by npx …" of
 * docs/security.md), running from this checkout's build. Runs the tool calls in order through the
 * real pipeline, each with the permission a worker builds (no allow rule).
 */
const PATH_DRIVER = `const [dist, root, mode, calls] = process.argv.slice(2);
const d = (m) => require(require('path').join(dist, m));
${DRIVER_MODULES}(async () => {
  const out = [];
  const sandboxHost = new SandboxHost();
  const permission = sessionPermission(
    { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} }, {}, {}, root);
  let n = 0;
  for (const c of JSON.parse(calls)) {
    const o = await runToolPipeline({ type: 'tool_use', id: 'toolu_i3_' + n++, name: c.name, input: c.input }, {
      pool: createToolPool(BUILTIN_TOOLS, permission), sessionId: 'i3-' + process.pid,
      agent: initialContext(root), permission, sandboxHost });
    out.push(o.result ? toolResultText(o.result) : '(' + o.status + ')');
  }
  await sandboxHost.close();
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
})();
`;

/** A program planted under a name: records its environment and every ancestor's, outside the project. */
function programPayload(mark: string): string {
  return `#!/bin/sh
{ echo "env:"; env; p=$$; while [ "$p" -gt 1 ]; do echo "proc $p:"; tr '\\0' '\\n' < /proc/$p/environ; p=$(awk '{print $4}' /proc/$p/stat); done; } > ${mark} 2>&1
exit 0
`;
}

function npxWorker(root: string, mode: string, calls: Array<{ name: string; input: object }>): string[] {
  const driver = path.join(base, 'path-driver.js');
  writeFileSync(driver, PATH_DRIVER);
  const r = spawnSync(
    process.execPath,
    [driver, path.join(repoRoot, 'dist', 'src'), root, mode, JSON.stringify(calls)],
    {
      env: {
        PATH: `${path.join(root, 'node_modules', '.bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        HOME: home,
        ...BAIT_ENV,
      },
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  assert.ok(r.stdout.startsWith('['), `the worker ran: ${r.stdout.slice(0, 300)} ${r.stderr.slice(-1500)}`);
  return JSON.parse(r.stdout) as string[];
}

for (const name of ['bash', 'bwrap', 'rg'] as const)
  test(
    `I-3 attack (dontAsk): with <project>/node_modules/.bin first on the worker's PATH (npx durable-agent dev), sandboxed Bash writes node_modules/.bin/${name}; the next Bash call does not run it outside the sandbox`,
    // Held since the trusted PATH (src/hostProcess/programs.ts): the door looked up sandboxed-command's
    // "bash" and the runtime's "bwrap" and "rg" on the worker's full PATH (node_modules/.bin first).
    {},
    async (t) => {
      if (rig.skipped(t)) return;
      const root = realpathSync(mkdtempSync(path.join(base, `npx-${name}-`)));
      mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
      const mark = path.join(base, `i3-${name}.txt`);
      writeFileSync(path.join(base, `i3-${name}.sh`), programPayload(mark));
      const results = npxWorker(root, 'dontAsk', [
        {
          name: 'Bash',
          input: {
            command: `cp ${base}/i3-${name}.sh node_modules/.bin/${name} && chmod +x node_modules/.bin/${name}; echo "planted:$?"`,
          },
        },
        { name: 'Bash', input: { command: 'echo second > b.txt' } },
      ]);
      const m = read(mark);
      t.diagnostic(`results: ${JSON.stringify(results).slice(0, 600)}`);
      if (name === 'bash')
        // A protected tail since red team m's M7 (npm exec runs `sh`/`bash` by name there): undone.
        assert.equal(existsSync(path.join(root, 'node_modules', '.bin', name)), false, 'the planted bash was undone');
      else assert.match(results[0] ?? '', /planted:0/, 'control: the sandbox let the command write node_modules/.bin');
      assert.deepEqual(
        { plantedRanOutsideTheSandbox: m !== '', sawWorkerSecrets: hasBait(m) },
        { plantedRanOutsideTheSandbox: false, sawWorkerSecrets: false },
        m.slice(0, 400),
      );
    },
  );

test(
  "I-4 attack (dontAsk): sandboxed Bash replaces the installed worker's node_modules/.bin with a symlink to a directory outside the project; the worker's .bin restore after the call removes nothing outside",
  {}, // was a hole: fixed (workerCode.ts: node_modules lookup directories; restore only in the directory found)
  async (t) => {
    if (rig.skipped(t)) return;
    const { root, pkg } = hoistedProject();
    // The person's directory outside the project holding something named durable-agent (a
    // checkout, or the worker's own data directory ~/.local/share/durable-agent).
    const victimParent = path.join(base, 'victim-share');
    mkdirSync(path.join(victimParent, 'durable-agent', 'store'), { recursive: true });
    writeFileSync(path.join(victimParent, 'durable-agent', 'store', 'important.txt'), 'every session\n');
    const w = worker(root, pkg, 'dontAsk', 'Bash', {
      command: `mv node_modules/.bin node_modules/.bin-old; echo "mv:$?"; ln -s ${victimParent} node_modules/.bin; echo "ln:$?"`,
    });
    t.diagnostic(`tool: ${w.tool.slice(0, 400)}`);
    // Since the fix the sandbox refuses the move itself (the project's node_modules is the worker's
    // code as a whole); the oracle stays on the person's directory either way.
    t.diagnostic(/mv:0/.test(w.tool) ? 'the command moved .bin' : 'the sandbox refused the move');
    assert.deepEqual(
      {
        victimKept: read(path.join(victimParent, 'durable-agent', 'store', 'important.txt')),
        nothingWrittenOutside: readdirSync(victimParent),
      },
      { victimKept: 'every session\n', nothingWrittenOutside: ['durable-agent'] },
    );
  },
);
