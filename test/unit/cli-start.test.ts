// unit: what the CLI loads before a command runs (issue 32: every `durable-agent` run paid ≈ 0.4 s of
// CPU loading the Temporal client, `run`'s session builder and the sandbox whatever the command;
// BENCHMARKS.md "CLI start"). `--help` and a usage error load none of them; a command loads what its
// action needs when it runs. A fresh node process, as a person's shell starts the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');

/** The modules a fresh process has loaded after `main(args)`, and what it printed. */
function loadedBy(args: string[]): { modules: string[]; stdout: string; stderr: string; code: number | null } {
  const script = `
    const { main } = require(${JSON.stringify(MAIN)});
    main(['node', 'durable-agent', ...${JSON.stringify(args)}]).then((code) => {
      process.stderr.write('\\nLOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n');
      process.exitCode = code;
    });`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  const line = r.stderr.split('\n').find((l) => l.startsWith('LOADED ')) ?? 'LOADED []';
  return {
    modules: JSON.parse(line.slice('LOADED '.length)) as string[],
    stdout: r.stdout,
    stderr: r.stderr.replace(/\nLOADED .*\n/, ''),
    code: r.status,
  };
}

const HEAVY = [
  /[\\/]@temporalio[\\/](client|proto|worker|workflow)[\\/]/,
  /[\\/]dist[\\/]src[\\/]temporal[\\/]client\.js$/,
  /[\\/]dist[\\/]src[\\/]cli[\\/]commands[\\/]runSession\.js$/,
  /[\\/]dist[\\/]src[\\/]sandbox[\\/]host\.js$/,
  /[\\/]dist[\\/]src[\\/]runtime[\\/]callDeps\.js$/,
  /[\\/]web-tree-sitter[\\/]/,
];

test('unit: --help, a usage error and a missing prompt load neither the Temporal client, the run, nor the sandbox', () => {
  for (const args of [['--help'], ['run', '--help'], ['bogus'], ['run'], ['status']]) {
    const r = loadedBy(args);
    const heavy = r.modules.filter((m) => HEAVY.some((h) => h.test(m)));
    assert.deepEqual(heavy, [], `durable-agent ${args.join(' ')} loaded them`);
    assert.ok(r.modules.length < 120, `durable-agent ${args.join(' ')}: ${r.modules.length} modules`);
  }
  // The same answers as before: the help lists every command, the errors are one line.
  const help = loadedBy(['--help']);
  assert.equal(help.code, 0);
  for (const c of ['dev', 'run', 'status', 'approve', 'schedule', 'budget', 'codec-server'])
    assert.match(help.stdout, new RegExp(`\\n  ${c}\\b`), c);
  assert.match(loadedBy(['run', '--help']).stdout, /--permission-mode/);
  const noPrompt = loadedBy(['run']);
  assert.equal(noPrompt.code, 1);
  assert.match(noPrompt.stderr, /missing required argument 'prompt'/);
});
