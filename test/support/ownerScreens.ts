// Run as the worker's own (non-root) user by test/unit/red-issue30-s.test.ts (red team s, S4): the
// screens after a sandboxed command (the object re-hash, movedObjects.ts; the ref screen,
// movedRefs.ts) list directories of the repository with a plain readdir. A command that leaves a
// directory searchable but not readable (chmod 311) hides what it wrote there from them, while git —
// which opens a loose object or a loose ref by its name — still reads it. Root reads any directory,
// so CI (root) never sees this. Prints one JSON line: for each attack, whether the person's later
// git ran the agent's hook with their environment.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { bashIn } from './ownerUndo';

const writeLoose = (mark: string) =>
  [
    `python3 - "$o" <<'EOF'`,
    'import sys, zlib, os',
    `body = b"#!/bin/sh\\nenv > ${mark}\\nexit 0\\n"`,
    'p = sys.argv[1]',
    'if os.path.exists(p): os.remove(p)',
    "open(p, 'wb').write(zlib.compress(b'blob %d\\0' % len(body) + body))",
    'EOF',
  ].join('\n');

/**
 * Each attack: the command (`MARK` is the marker's path), then what the person does later in the
 * project; `setup` adds the person's own files to the project before its first commit.
 */
interface ScreenAttack {
  name: string;
  command: string;
  person: (proj: string, root: string) => void;
  setup?: (proj: string) => void;
}

export const SCREEN_ATTACKS: ScreenAttack[] = [
  {
    name: 'S4 objects: the loose object of the committed .githooks/pre-commit rewritten, its fan-out directory made 311',
    command: [
      'set -e',
      'h=$(git rev-parse HEAD:.githooks/pre-commit)',
      'd=.git/objects/${h:0:2}',
      'o=$d/${h:2}',
      writeLoose('MARK'),
      'chmod 311 "$d"',
    ].join('\n'),
    person: (proj, root) => {
      const wt = path.join(root, 'feature');
      git(proj, 'worktree', 'add', '-q', wt, '-b', 'feature');
      if (!fs.existsSync(wt)) return;
      fs.writeFileSync(path.join(wt, 'b.txt'), 'b\n');
      git(wt, 'add', '-A');
      git(wt, 'commit', '-qm', 'feature work');
    },
  },
  {
    name: 'S4 refs: a branch to a commit adding .githooks/post-checkout, its directory under refs/heads made 311',
    command: [
      'set -e',
      `b=$(printf '#!/bin/sh\\nenv > MARK\\n' | git hash-object -w --stdin)`,
      'export GIT_INDEX_FILE=.git/agent-index',
      'git read-tree HEAD',
      'git update-index --add --cacheinfo 100755,$b,.githooks/post-checkout',
      't=$(git write-tree)',
      'c=$(GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x git commit-tree $t -p HEAD -m fix)',
      'rm -f .git/agent-index',
      'mkdir -p .git/refs/heads/agent',
      'echo $c > .git/refs/heads/agent/fix',
      'chmod 311 .git/refs/heads/agent',
    ].join('\n'),
    person: (proj) => git(proj, 'checkout', '-q', 'agent/fix'),
  },
];

/**
 * Red team u (test/unit/red-issue30-u.test.ts, U1's non-root side): P1's branch, with a recorded way
 * directory's parent made unsearchable (000): linkedWays.ts cutLinkedWays' lstat of `packages/x`
 * throws EACCES for the worker's own user (root passes; U1 makes it ENOTDIR).
 */
export const U_ATTACKS: ScreenAttack[] = [
  {
    name: 'U1 (EACCES): P1’s branch, with packages/ (holding a recorded way, packages/x) made 000',
    setup: (proj) => {
      fs.mkdirSync(path.join(proj, 'packages', 'x'), { recursive: true });
      fs.writeFileSync(path.join(proj, 'packages', 'x', 'package.json'), '{"name":"x"}\n');
    },
    command: [
      'set -e',
      `b=$(printf '#!/bin/sh\\nenv > MARK\\n' | git hash-object -w --stdin)`,
      'export GIT_INDEX_FILE=.git/agent-index',
      'git read-tree HEAD',
      'git update-index --add --cacheinfo 100755,$b,.githooks/pre-commit',
      'c=$(GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x git commit-tree $(git write-tree) -p HEAD -m fix)',
      'rm -f .git/agent-index',
      'git update-ref refs/heads/fix $c',
      'chmod 000 packages',
    ].join('\n'),
    person: (proj) => {
      git(proj, 'checkout', '-q', 'fix');
      fs.writeFileSync(path.join(proj, 'b.txt'), 'b\n');
      git(proj, 'add', 'b.txt');
      git(proj, 'commit', '-qm', 'person work');
    },
  },
];

/** The attack lists a run takes by its first argument (default: S4's). */
const ATTACK_SETS: Record<string, ScreenAttack[]> = { s4: SCREEN_ATTACKS, u: U_ATTACKS };

/** The person's own git (no global config, their environment with a secret); never throws. */
function git(cwd: string, ...args: string[]): void {
  spawnSync('git', ['-c', 'user.email=p@example.com', '-c', 'user.name=p', ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', PERSON_SECRET: 'BAIT-S4-person' },
    stdio: 'ignore',
    timeout: 20_000,
  });
}

/** The person's repository: a committed `.githooks/pre-commit`, `core.hooksPath = .githooks`. */
function project(root: string, setup?: (proj: string) => void): string {
  const proj = path.join(root, 'proj');
  fs.mkdirSync(path.join(proj, '.githooks'), { recursive: true });
  fs.writeFileSync(path.join(proj, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  setup?.(proj);
  git(proj, 'init', '-q', '-b', 'main');
  git(proj, 'add', '-A');
  git(proj, 'commit', '-qm', 'init');
  git(proj, 'config', 'core.hooksPath', '.githooks');
  return proj;
}

async function main(): Promise<void> {
  const out: { uid: number | undefined; available: boolean; reason?: string; results: unknown[] } = {
    uid: process.getuid?.(),
    available: false,
    results: [],
  };
  const host = new SandboxHost();
  try {
    const a = await host.availability();
    out.available = a.available;
    if ('reason' in a && typeof a.reason === 'string') out.reason = a.reason;
    if (a.available)
      for (const attack of ATTACK_SETS[process.argv[2] ?? 's4'] ?? []) {
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'da-screens-')));
        try {
          fs.mkdirSync(path.join(root, 'home'));
          process.env.HOME = path.join(root, 'home');
          const proj = project(root, attack.setup);
          const mark = path.join(root, 'mark');
          let r: { data: { exitCode: number | null; output: string } };
          try {
            r = await bashIn(host, proj, attack.command.replaceAll('MARK', mark));
          } catch (err) {
            r = { data: { exitCode: -1, output: `the call threw: ${(err as Error).message}` } };
          }
          attack.person(proj, root);
          const ran = fs.existsSync(mark) && fs.readFileSync(mark, 'latin1').includes('BAIT-S4-person');
          out.results.push({ name: attack.name, exitCode: r.data.exitCode, ran, output: r.data.output.slice(0, 400) });
        } finally {
          spawnSync('chmod', ['-R', 'u+rwx', root]);
          fs.rmSync(root, { recursive: true, force: true });
        }
      }
  } finally {
    await host.close();
  }
  console.log(JSON.stringify(out));
}

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
