// The reference binary (Claude Code) run offline against the fake Messages API, as the
// test/reference cases and captures run it: a scratch project and home under one temp root, the
// environment that points it at the fake (and nowhere else), and one process run to its exit.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OfflineDirs {
  /** The temp root (remove it when done). */
  root: string;
  /** `<root>/project`: the run's working directory. */
  dir: string;
  /** `<root>/home`, with `.claude/` in it. */
  home: string;
}

/** A scratch project and home (`home/.claude/`, with an empty `settings.json` when `settings`). */
export async function offlineDirs(prefix: string, opts: { settings?: boolean } = {}): Promise<OfflineDirs> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(dir, { recursive: true });
  await mkdir(join(home, '.claude'), { recursive: true });
  if (opts.settings) await writeFile(join(home, '.claude', 'settings.json'), '{}');
  return { root, dir, home };
}

/**
 * The whole environment of an offline reference run: PATH, its own home and config directory, the
 * fake API's address and a test key, no nonessential traffic, and IS_SANDBOX (it runs as root here).
 */
export function offlineEnv(
  home: string,
  baseURL: string,
  extra: Record<string, string> = {},
  configDir = join(home, '.claude'),
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: baseURL,
    ANTHROPIC_API_KEY: 'test-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1',
    ...extra,
  };
}

export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its exit (SIGKILL after `timeoutMs`, default 120 s) and collects its output. */
export function runToExit(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string; timeoutMs?: number },
): Promise<ProcessRun> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `claude exited N: <stderr>` for a run that did not exit 0; undefined when it did. */
export function exitError(r: ProcessRun): string | undefined {
  return r.code === 0 ? undefined : `claude exited ${r.code}: ${r.stderr.trim().slice(0, 300)}`;
}
