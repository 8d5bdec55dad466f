// The person's own `npx durable-agent …` in a project, for the red teams' npx rows (issue 30,
// rounds m and n): npm's real lookups (the project's package.json bin, node_modules/.bin, the
// npx cache), the person's whole environment, an npm cache of the row's own.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/** A bin script: the environment it ran with, as JSON, into `mark`. */
export const envDumpScript = (mark: string): string =>
  `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(mark)}, JSON.stringify(process.env));\n`;

/** `npx --offline durable-agent status x` in `root` as the person runs it; whatever it exits with. */
export function runPersonNpx(root: string, cache: string): void {
  try {
    execFileSync(path.join(path.dirname(process.execPath), 'npx'), ['--offline', 'durable-agent', 'status', 'x'], {
      cwd: root,
      env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
      stdio: 'ignore',
      timeout: 60_000,
    });
  } catch {
    // the real durable-agent (or none) may fail here: what matters is what ran
  }
}
