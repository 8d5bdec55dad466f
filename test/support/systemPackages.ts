// "This test requires system package X": on a developer's machine without it, the test SKIPS
// and the test runner prints one line naming what was skipped and what to install; under CI
// (CI=true) a missing package FAILS the test, so CI never goes green by skipping.
//
//   const chromium = requireSystemPackage({ command: '/usr/bin/chromium', debianPackage: 'chromium', usedBy: 'the UI test' });
//   test('…', { skip: chromium.skip }, () => { chromium.assert(); … });
//
// `skip` is false when the package is there or under CI; `assert()` then fails with the install
// hint when it is missing. Every skip is appended to $DURABLE_AGENT_SKIPPED_FILE (set by
// scripts/run-tests.mjs, which prints them in one line at the end of the run).
import { accessSync, appendFileSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

export interface SystemPackageSpec {
  /** A command looked up on PATH, or an absolute path. */
  command: string;
  /** The Debian package that provides it (the install hint: `apt-get install -y <debianPackage>`). */
  debianPackage: string;
  /** What needs it, for the skip line ("the UI test", "Grep's ripgrep engine tests"). */
  usedBy: string;
  /** A custom probe instead of looking `command` up (returns what was found, or undefined). */
  probe?: () => string | undefined;
  /** An env var that, set to 1, skips the test on purpose, even under CI. */
  optOutEnv?: string;
}

export interface SystemRequirement {
  found: boolean;
  /** The path or command found. */
  path?: string;
  /** For node:test's `skip` option. */
  skip: string | false;
  /** Throws the install hint when the package is missing (the test fails under CI). */
  assert(): void;
  /** `<command> not found: apt-get install -y <package> (needed by …)` */
  hint: string;
}

export function isCI(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/** An executable file at `command` (absolute) or on PATH. */
export function findExecutable(command: string): string | undefined {
  const executable = (p: string): boolean => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (isAbsolute(command)) return executable(command) ? command : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

/** Records a skip for the runner's summary line (no-op when the file runs on its own). */
export function reportSkip(line: string): void {
  const file = process.env.DURABLE_AGENT_SKIPPED_FILE;
  if (!file) return;
  try {
    appendFileSync(file, `${line}\n`);
  } catch {
    // The summary is a courtesy: never fail a test over it.
  }
}

export function requireSystemPackage(spec: SystemPackageSpec): SystemRequirement {
  const path = spec.probe ? spec.probe() : findExecutable(spec.command);
  const hint = `${spec.command} not found: install Debian's ${spec.debianPackage} (apt-get install -y ${spec.debianPackage}; .ci/run does this), needed by ${spec.usedBy}`;
  let skip: string | false = false;
  if (spec.optOutEnv && process.env[spec.optOutEnv] === '1') {
    skip = `${spec.optOutEnv}=1`;
  } else if (!path && !isCI()) {
    skip = hint;
    reportSkip(`${spec.usedBy} (${spec.command} missing: apt-get install -y ${spec.debianPackage})`);
  }
  return {
    found: path !== undefined,
    ...(path ? { path } : {}),
    skip,
    hint,
    assert() {
      if (!path)
        throw new Error(
          `${hint}${isCI() ? ' — CI=true: a missing system package fails the test instead of skipping it' : ''}`,
        );
    },
  };
}

/**
 * Whether tests that need the OS sandbox run here: false when it is available; else, outside CI,
 * the reason to skip them with (recorded for the runner's summary); in CI, an error (CI installs it).
 */
export async function sandboxSkip(
  host: { availability(): Promise<{ available: boolean; reason?: string }> },
  what: string,
): Promise<string | false> {
  const a = await host.availability();
  if (a.available) return false;
  if (isCI()) throw new Error(`the sandbox must be available in CI: ${a.reason}`);
  reportSkip(`${what} (sandbox unavailable: ${a.reason}; apt-get install -y bubblewrap socat ripgrep)`);
  return `sandbox unavailable here: ${a.reason}`;
}
