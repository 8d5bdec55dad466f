// durable-agent installed in a project (`npm i durable-agent`, then `npx durable-agent dev`), and a
// worker process running from that copy (its `__dirname` there), as an installed worker does: the
// set-up of the red team rows on the worker's own code (test/unit/red-issue30-h1, red-issue30-i).
// The worker and the person's CLI run with bait secrets in their environment and a fake HOME; a
// planted file's payload copies the environment it saw (and its parent's, the worker's) to a marker
// outside the project. `installedWorkerRig` registers the file's before/after hooks.
import { after, before, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { copyTree } from './copyTree';
import { sandboxSkip } from './systemPackages';

/** The checkout (dist/test/support -> the checkout): its package.json, dist/src and node_modules are installed. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

export interface InstalledProject {
  root: string;
  /** `<root>/node_modules/durable-agent`. */
  pkg: string;
}

export interface WorkerRun {
  /** The tool call's result text (or `(status)`). */
  tool: string;
  /** `ready`, or `error: …` when the worker's next runtime child did not start. */
  runtime: string;
}

export interface InstalledWorkerRig {
  /** This file's temp directory (realpath): projects, markers and payloads go here. */
  base: string;
  /** The fake HOME of the worker and the person. */
  home: string;
  /** The bait secrets in the worker's and the person's environment. */
  bait: Readonly<Record<string, string>>;
  hasBait(s: string): boolean;
  /** The file's text (latin1), or '' when it does not exist. */
  read(file: string): string;
  /** When the `before` hook found no usable sandbox: skips the row (`t.skip(why)`) and says true. */
  skipped(t: TestContext): boolean;
  /** durable-agent copied into `node_modules/durable-agent`, its dependencies linked as that package's own `node_modules`. */
  installedProject(): InstalledProject;
  /**
   * As npm installs it: the package in `node_modules/durable-agent`, its dependencies hoisted
   * beside it in `node_modules/<name>` (links to this checkout's), and npm's `.bin` link; no
   * `node_modules/durable-agent/node_modules`.
   */
  hoistedProject(): InstalledProject;
  /**
   * The worker, running from the package in the project: one tool call of a session through the
   * real pipeline (the permission a worker builds, no allow rule), then it needs a runtime of
   * another worker-wide configuration (remoteRuntime.ts starts `<its dir>/runtimeChild.js` through the door).
   */
  worker(root: string, pkg: string, mode: string, name: string, input: object): WorkerRun;
  /** The person's next `npx durable-agent --version` in the project (npx runs node_modules/.bin/durable-agent). */
  personRunsCli(root: string): { stdout: string; stderr: string };
}

/** What a planted file does: copies its own environment and its parent's (the worker's) to `mark`; `exit`: then exits 0. */
export function envCopyPayload(mark: string, exit: boolean): string {
  return `const fs = require('fs');
let got = 'env:' + JSON.stringify(process.env);
try { got += '\\nparent:' + fs.readFileSync('/proc/' + process.ppid + '/environ', 'latin1'); } catch (e) { got += String(e); }
fs.writeFileSync(${JSON.stringify(mark)}, got);
${exit ? 'process.exit(0);\n' : ''}`;
}

/** A driver script's modules of the worker (`d(m)` loads `<dist/src>/m`): the pipeline, the tools, the permission a worker builds. */
export const DRIVER_MODULES = `const { runToolPipeline } = d('toolCall/pipeline');
const { createToolPool } = d('permissions/toolPool');
const { BUILTIN_TOOLS } = d('tools');
const { SandboxHost } = d('sandbox/host');
const { sessionPermission } = d('toolCall/toolSession');
const { initialContext } = d('core/context');
const { toolResultText } = d('core/apiMessages');
`;

const driverScript = (tag: string): string => `const [pkg, root, mode, name, input] = process.argv.slice(2);
const d = (m) => require(require('path').join(pkg, 'dist', 'src', m));
${DRIVER_MODULES}const { startRemoteRuntime } = d('sandbox/remoteRuntime');
(async () => {
  const out = {};
  const sandboxHost = new SandboxHost();
  const permission = sessionPermission(
    { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} }, {}, {}, root);
  const o = await runToolPipeline({ type: 'tool_use', id: 'toolu_${tag}', name, input: JSON.parse(input) }, {
    pool: createToolPool(BUILTIN_TOOLS, permission), sessionId: '${tag}-' + process.pid,
    agent: initialContext(root), permission, sandboxHost });
  out.tool = o.result ? toolResultText(o.result) : '(' + o.status + ')';
  await sandboxHost.close();
  try {
    const r = startRemoteRuntime();
    await Promise.race([r.initialize({ network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowWrite: [], denyWrite: [] } }), new Promise((_, rej) => setTimeout(() => rej(new Error('no answer')), 20000))]);
    out.runtime = 'ready';
    await r.close?.();
  } catch (e) { out.runtime = 'error: ' + e.message; }
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
})();
`;

/**
 * The rig of one test file. `tag` names the driver's tool call and session (`toolu_<tag>`),
 * `dirPrefix` the temp directory, `what` the rows a missing sandbox skips.
 */
export function installedWorkerRig(opts: {
  tag: string;
  dirPrefix: string;
  bait: Record<string, string>;
  what: string;
}): InstalledWorkerRig {
  const sandboxHost = new SandboxHost();
  let skip: string | false = false;
  const base = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), opts.dirPrefix)));
  const home = path.join(base, 'home');
  const bait = opts.bait;
  const env = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...bait });

  before(async () => {
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, '.bashrc'), '# the victim start-up file\n');
    skip = await sandboxSkip(sandboxHost, opts.what);
  });
  after(async () => {
    await sandboxHost.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** The package and its `.bin` link; `linkDependencies` puts its dependencies where it finds them. */
  const project = (linkDependencies: (root: string, pkg: string) => void): InstalledProject => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(base, 'p-')));
    fs.writeFileSync(path.join(root, 'a.txt'), 'hello\n');
    const pkg = path.join(root, 'node_modules', 'durable-agent');
    fs.mkdirSync(pkg, { recursive: true });
    fs.cpSync(path.join(repoRoot, 'package.json'), path.join(pkg, 'package.json'));
    copyTree(path.join(repoRoot, 'dist', 'src'), path.join(pkg, 'dist', 'src'));
    linkDependencies(root, pkg);
    fs.mkdirSync(path.join(root, 'node_modules', '.bin'));
    fs.symlinkSync('../durable-agent/dist/src/cli/main.js', path.join(root, 'node_modules', '.bin', 'durable-agent'));
    return { root, pkg };
  };

  return {
    base,
    home,
    bait,
    hasBait: (s) => Object.values(bait).some((v) => s.includes(v)),
    read: (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'latin1') : ''),
    skipped(t) {
      if (skip) t.skip(skip);
      return skip !== false;
    },
    installedProject: () =>
      project((_root, pkg) => fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(pkg, 'node_modules'))),
    hoistedProject: () =>
      project((root) => {
        for (const e of fs.readdirSync(path.join(repoRoot, 'node_modules'))) {
          if (e === '.bin' || e === 'durable-agent' || e.startsWith('.')) continue;
          fs.symlinkSync(path.join(repoRoot, 'node_modules', e), path.join(root, 'node_modules', e));
        }
      }),
    worker(root, pkg, mode, name, input) {
      const driver = path.join(base, 'driver.js');
      fs.writeFileSync(driver, driverScript(opts.tag));
      const r = spawnSync(process.execPath, [driver, pkg, root, mode, name, JSON.stringify(input)], {
        env: env(),
        cwd: root,
        encoding: 'utf8',
        timeout: 120_000,
      });
      assert.ok(r.stdout.startsWith('{'), `the worker ran: ${r.stdout.slice(0, 300)} ${r.stderr.slice(-1500)}`);
      return JSON.parse(r.stdout) as WorkerRun;
    },
    personRunsCli(root) {
      const r = spawnSync(process.execPath, [path.join(root, 'node_modules', '.bin', 'durable-agent'), '--version'], {
        env: env(),
        cwd: root,
        encoding: 'utf8',
        timeout: 30_000,
      });
      return { stdout: r.stdout, stderr: r.stderr };
    },
  };
}
