// Runs the built durable-agent program as a user would: a real process, its exit code and output.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import './isolatedHome';

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');

export function cli(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 30_000,
  /** Standard input (default: none, as /dev/null). */
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k]; // unset, not "undefined"
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: merged,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
    if (input !== undefined) child.stdin?.end(input);
    // Output can still be in the pipe at 'exit': wait for its end (not for a detached grandchild holding it).
    const stdoutEnded = new Promise<void>((r) => child.stdout.on('end', () => r()));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`durable-agent ${args.join(' ')} timed out; stdout: ${stdout} stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      void Promise.race([stdoutEnded, new Promise((r) => setTimeout(r, 2000))]).then(() =>
        resolve({ code, stdout, stderr }),
      );
    });
  });
}
