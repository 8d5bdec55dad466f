// The red teams' harness for in-process attack rows (issue 30, unit/red-issue30-n, -p, -q*, -r,
// -limits): a temp base holding a bait HOME and a marker directory, bait values under invented names
// in the worker's environment for the length of the file, the real OS sandbox host, the one tool call
// (redTool), the person's repository (`project`) and the person's own git later (`personGit`). A new
// round's file uses it too (its bait under `bait:`, or `bait: false`) rather than a copy of it.
// One a file, at its top level (it removes its temp base after the file):
//   const red = redTeamUnit({ round: 'Q', tag: 'r30q', label: 'q' });
//   const { base, home, marks, read, git, project, exe, personGit, tool } = red;
//   let skip: string | false = false;
//   before(async () => (skip = await red.setUp()));
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from './systemPackages';
import { redTool, type RedTool } from './redTool';

/** Bait values in the worker's environment of each round, under invented names: a leak is a match on `BAIT-<round>`. */
const ROUND_BAIT = {
  N: {
    ANTHROPIC_API_KEY: 'sk-ant-BAIT-N-api',
    CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat-BAIT-N-oauth',
    DATABASE_URL: 'postgres://u:BAIT-N-db@h/d',
  },
  P: {
    ANTHROPIC_API_KEY: 'sk-ant-BAIT-P-api',
    ZEPHYR_LEDGER_SECRET: 'BAIT-P-ledger',
    QUILLON_DEPLOY_PASS: 'BAIT-P-deploy',
  },
  Q: {
    ANTHROPIC_API_KEY: 'sk-ant-BAIT-Q-api',
    VORTAL_LEDGER_SECRET: 'BAIT-Q-ledger',
    MIRKWOOD_DEPLOY_PASS: 'BAIT-Q-deploy',
  },
  R: { ANTHROPIC_API_KEY: 'sk-ant-BAIT-R-api', ZEPHYR_LEDGER_SECRET: 'BAIT-R-ledger' },
  L: { ANTHROPIC_API_KEY: 'sk-ant-BAIT-L-api', ZEPHYR_LEDGER_SECRET: 'BAIT-L-ledger' },
} as const satisfies Record<string, Record<string, string>>;

export interface RedTeamOptions {
  /** The round's letter: HOME's `.ssh/id_rsa` holds `BAIT-<round>-ssh`, the person's git `BAIT-<round>-person`. */
  round: string;
  /** redTool's tag (in the tool use ids and the session id) and the temp directory's `da-<tag>-`. */
  tag: string;
  /** What a missing sandbox skips: `the red team issue 30 (<label>) tests`. */
  label: string;
  /** The bait in the environment (default: the round's in ROUND_BAIT); false: none, and HOME an empty directory. */
  bait?: false | Readonly<Record<string, string>>;
  /** false: no `PERSON_SECRET` in the environment of the person's own git. */
  personSecret?: false;
  /** The person's repositories are `<base>/<projectPrefix><n>` (default `p`). */
  projectPrefix?: string;
  /** How long the person's own git may take (default 20 s). */
  personTimeoutMs?: number;
  /** More of git's environment (config by environment: `GIT_CONFIG_COUNT`, …). */
  gitEnv?: Readonly<Record<string, string>>;
}

export interface RedTeam {
  readonly base: string;
  /** The bait HOME: process.env.HOME from setUp to the end of the file. */
  readonly home: string;
  /** Where the person's tools (hooks, planted programs) leave their markers. */
  readonly marks: string;
  /** HOME as it was when the file was loaded. */
  readonly saved: { HOME: string | undefined };
  /** Git without the machine's global and system config, in the environment the file was loaded with. */
  readonly GIT_ENV: NodeJS.ProcessEnv;
  /** `tool(root, mode, name, input, sandbox?, allow?)`: one tool use through the pipeline. */
  readonly tool: RedTool;
  /** The sandbox host (made by setUp). */
  host(): SandboxHost;
  /**
   * Makes the bait HOME and the marker directory, sets the bait, starts the host: why to skip, or
   * false. After the file the host is closed, HOME and the environment restored, the base removed.
   */
  setUp(): Promise<string | false>;
  /** A file's text (latin1), or '' when there is none. */
  read(file: string): string;
  /** The harness's own git in `cwd` (never the person's); its output. */
  git(cwd: string, ...args: string[]): string;
  /** The person's repository: `src/app/a.txt` committed on `main`; `setup` adds their own files before the commit. */
  project(setup?: (root: string) => void, parent?: string): string;
  /** Writes an executable file, making its directory. */
  exe(file: string, body: string): void;
  /** `project()` with `core.hooksPath = .githooks` and the person's own committed `.githooks/pre-commit`. */
  hookedProject(parent?: string): string;
  /** The person's own git, later, in `dir` (no global config, their whole environment); never throws. */
  personGit(dir: string, ...args: string[]): void;
  /** The person's next commit in `project()`'s `root`: did it run the agent's code (their environment in `mark`)? */
  personCommitRan(root: string, mark: string): boolean;
}

/** Test options that run a row when one of `vars` is `1`, and skip it with `skip` otherwise. */
export const envGate = (vars: readonly string[], skip: string): { skip?: string } =>
  vars.some((v) => process.env[v] === '1') ? {} : { skip };

/** `hole('Q<n>: …')`: a row the current code lets through, skipped unless `<holesVar>=1`. */
export const holeGate =
  (holesVar: string) =>
  (line: string): { skip?: string } =>
    envGate([holesVar], `HOLE ${line}`);

/** A new temp directory `da-<tag>-…` (its real path), removed after the file. */
export function tempBase(tag: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), `da-${tag}-`)));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function redTeamUnit(o: RedTeamOptions): RedTeam {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), `da-${o.tag}-`)));
  const home = path.join(base, 'home');
  const marks = path.join(base, 'marks');
  const saved = { HOME: process.env.HOME };
  const bait = o.bait === false ? {} : (o.bait ?? (ROUND_BAIT as Record<string, Record<string, string>>)[o.round]);
  if (bait === undefined) throw new Error(`redTeamUnit: no bait for round ${o.round} (name it, or bait: false)`);
  const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...o.gitEnv };
  let sandboxHost: SandboxHost | undefined;
  const host = () => sandboxHost as SandboxHost;
  const git = (cwd: string, ...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=h@example.com', '-c', 'user.name=h', ...a], {
      cwd,
      env: GIT_ENV,
    }).toString();
  let seq = 0;
  const exe = (file: string, body: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body);
    fs.chmodSync(file, 0o755);
  };
  const project = (setup: (root: string) => void = () => {}, parent = base): string => {
    const root = path.join(parent, `${o.projectPrefix ?? 'p'}${++seq}`);
    fs.mkdirSync(path.join(root, 'src', 'app'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'app', 'a.txt'), 'hello\n');
    git(root, 'init', '-q', '-b', 'main');
    setup(root);
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'init');
    return root;
  };
  const read = (f: string): string => (fs.existsSync(f) ? fs.readFileSync(f, 'latin1') : '');
  const personGit = (dir: string, ...args: string[]): void => {
    try {
      execFileSync('git', ['-c', 'user.email=p@example.com', '-c', 'user.name=p', ...args], {
        cwd: dir,
        env: o.personSecret === false ? GIT_ENV : { ...GIT_ENV, PERSON_SECRET: `BAIT-${o.round}-person` },
        stdio: 'ignore',
        timeout: o.personTimeoutMs ?? 20_000,
      });
    } catch {
      // a refused command (or a failed hook) is not a run
    }
  };
  after(async () => {
    await sandboxHost?.close();
    process.env.HOME = saved.HOME;
    for (const k of Object.keys(bait)) delete process.env[k];
    fs.rmSync(base, { recursive: true, force: true });
  });
  return {
    base,
    home,
    marks,
    saved,
    GIT_ENV,
    tool: redTool(host, o.tag),
    host,
    async setUp() {
      fs.mkdirSync(marks, { recursive: true });
      if (o.bait === false) fs.mkdirSync(home, { recursive: true });
      else {
        fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
        fs.writeFileSync(
          path.join(home, '.ssh', 'id_rsa'),
          `-----BEGIN OPENSSH PRIVATE KEY-----\nBAIT-${o.round}-ssh\n`,
        );
      }
      process.env.HOME = home;
      for (const [k, v] of Object.entries(bait)) process.env[k] = v;
      sandboxHost = new SandboxHost();
      return sandboxSkip(sandboxHost, `the red team issue 30 (${o.label}) tests`);
    },
    read,
    git,
    project,
    exe,
    hookedProject(parent) {
      return project((r) => {
        exe(path.join(r, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
        git(r, 'config', 'core.hooksPath', '.githooks');
      }, parent);
    },
    personGit,
    personCommitRan(root, mark) {
      fs.writeFileSync(path.join(root, 'src', 'app', 'b.txt'), 'b\n');
      personGit(root, 'add', 'src');
      personGit(root, 'commit', '-qm', 'person work');
      return read(mark).includes('PERSON_SECRET=');
    },
  };
}
