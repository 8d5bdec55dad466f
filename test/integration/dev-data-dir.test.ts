// integration: `durable-agent dev` keeps the Temporal server's database, its pid file and the store
// in the user's data directory (~/.durable-agent), not in the directory it was started from; an
// older ./.durable-agent/temporal.db is named in one line; and a session's sandboxed Bash can
// neither read nor overwrite any of it. Real CLI processes, a fake HOME, the real sandbox; the
// oracle is what the command wrote into the working directory and the files on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/temporal/service/devServer';
import { SandboxHost } from '../../src/sandbox/host';
import {
  lastToolResults,
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  type MessagesRequest,
} from '../../src/testing/fakeAnthropic';
import { isCI, reportSkip } from '../support/systemPackages';
import { cli } from '../support/cli';

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');

function startDev(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; out: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'dev', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`dev did not get ready: ${out}`)), 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready.')) {
        clearTimeout(timer);
        resolve({ child, out: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`dev exited (${code}): ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

test(
  'integration: dev keeps its database and store in ~/.durable-agent, names an older ./.durable-agent/temporal.db, and sandboxed Bash reaches none of it',
  { timeout: 240_000 },
  async (t) => {
    const a = await new SandboxHost().availability();
    await new SandboxHost().close();
    if (!a.available) {
      if (isCI()) throw new Error(`the sandbox must be available in CI: ${a.reason}`);
      reportSkip(`the dev data directory test (sandbox unavailable: ${a.reason})`);
      return t.skip(a.reason);
    }
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'da-devhome-')));
    const home = join(root, 'home');
    const project = join(root, 'project');
    mkdirSync(join(project, '.durable-agent'), { recursive: true });
    mkdirSync(home);
    const legacy = join(project, '.durable-agent', 'temporal.db');
    writeFileSync(legacy, 'LEGACY-DB\n');
    const fake = await startFakeAnthropic();
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.baseURL,
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    };
    for (const k of [
      'DURABLE_AGENT_HOME',
      'DURABLE_AGENT_STORE_DIR',
      'DURABLE_AGENT_STORE',
      'DURABLE_AGENT_DEV_DB',
      'DURABLE_AGENT_TASK_QUEUE',
      'CLAUDE_CONFIG_DIR',
    ])
      delete env[k];
    const dataHome = join(home, '.durable-agent');
    const db = join(dataHome, 'temporal.db');
    const dev = await startDev(['--port', String(port), '--ui-port', String(await freePort())], project, env);
    try {
      assert.ok(dev.out().includes(`persisted to ${db})`), dev.out());
      const notes = dev
        .out()
        .split('\n')
        .filter((l) => l.includes(legacy));
      assert.equal(notes.length, 1, dev.out());
      assert.match(
        notes[0] as string,
        new RegExp(`database is now ${db.replace(/[.]/g, '\\.')}; an older one is at .*keep using it with --db `),
      );
      assert.equal(readFileSync(legacy, 'utf8'), 'LEGACY-DB\n', 'the old database is left where it was');
      assert.ok(existsSync(db) && existsSync(`${db}.server.pid`));

      const probe =
        `{ ls -la ~/.durable-agent; head -c 64 ~/.durable-agent/temporal.db; ls -R ~/.durable-agent/store; grep -r . ~/.durable-agent/store; } > probe.txt 2>&1; ` +
        `printf x > ~/.durable-agent/temporal.db; rm -f ~/.durable-agent/temporal.db.server.pid; mkdir -p ~/.durable-agent/store/planted; echo done >> probe.txt`;
      fake.enqueue(
        toolUseResponse([{ id: 'toolu_probe', name: 'Bash', input: { command: probe } }]),
        textResponse('done'),
      );
      const r = await cli(
        ['run', '--cwd', project, '--permission-mode', 'dontAsk', '--model', 'claude-test', 'look around'],
        env,
        120_000,
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const seen = readFileSync(join(project, 'probe.txt'), 'utf8');
      assert.match(seen, /done\n$/, 'the probe ran');
      assert.doesNotMatch(seen, /SQLite format 3/, seen);
      // Not even the names: the listing shows an empty directory (errors name the paths asked for).
      assert.doesNotMatch(seen, / temporal\.db$|server\.pid|results|blobs/m, seen);
      assert.equal(readFileSync(db).subarray(0, 15).toString('latin1'), 'SQLite format 3', 'the database is intact');
      assert.ok(existsSync(`${db}.server.pid`), 'the pid file is there');
      assert.equal(existsSync(join(dataHome, 'store', 'planted')), false);
      assert.ok(existsSync(join(dataHome, 'store')), 'the store is in the data directory');
      assert.equal(existsSync(join(project, '.durable-agent', 'store')), false);

      // A large result is stored in the store, and the model is pointed at the file: this session's
      // own results stay readable (Read and Bash), while the rest of the store stays hidden.
      mkdirSync(join(dataHome, 'store', 'results', 'other-session'), { recursive: true });
      writeFileSync(join(dataHome, 'store', 'results', 'other-session', 'toolu_x.txt'), 'BAIT-OTHER-SESSION\n');
      let persisted = '';
      fake.enqueue(toolUseResponse([{ id: 'toolu_big', name: 'Bash', input: { command: 'seq 1 20000' } }]));
      fake.script((req) => {
        const text = JSON.stringify(lastToolResults(req));
        const m = /Full output saved to: ([^\s\\]+)/.exec(text);
        if (m && !persisted) {
          persisted = m[1] as string;
          return toolUseResponse([
            { id: 'toolu_read', name: 'Read', input: { file_path: persisted, limit: 2 } },
            {
              id: 'toolu_own',
              name: 'Bash',
              input: {
                command: `{ tail -n 1 '${persisted}'; echo; } > own.txt; ls -R '${join(dataHome, 'store')}' >> own.txt 2>&1; cat '${join(dataHome, 'store', 'results', 'other-session', 'toolu_x.txt')}' >> own.txt 2>&1; true`,
              },
            },
          ]);
        }
        return persisted ? textResponse('read it') : undefined;
      });
      const big = await cli(
        ['run', '--cwd', project, '--permission-mode', 'dontAsk', '--model', 'claude-test', 'count'],
        env,
        120_000,
      );
      assert.equal(big.code, 0, big.stdout + big.stderr);
      assert.ok(persisted.startsWith(join(dataHome, 'store', 'results')), persisted);
      assert.equal(
        readFileSync(join(project, 'own.txt'), 'utf8').split('\n')[0],
        '20000',
        "Bash read this session's own result",
      );
      // Inside the sandbox the store shows only the path to this session's results (the runtime binds
      // that directory back over the hidden store): no other session, no transcripts or ledger.
      const own = readFileSync(join(project, 'own.txt'), 'utf8');
      assert.doesNotMatch(own, /^other-session$|BAIT-OTHER|blobs/m, own);
      assert.match(own, new RegExp(`results/${persisted.split('/').slice(-2, -1)[0]}:`), own);
      const readBlock = fake.requests
        .flatMap((q) => (q.valid ? lastToolResults(q.body as MessagesRequest) : []))
        .find((blk) => (blk as { tool_use_id?: string }).tool_use_id === 'toolu_read') as
        { is_error?: boolean; content?: unknown } | undefined;
      assert.ok(readBlock, 'Read answered');
      assert.notEqual(readBlock.is_error, true, JSON.stringify(readBlock));
      assert.match(
        JSON.stringify(readBlock.content),
        /1.*\\n.*2/,
        'Read returned the first lines of the stored result',
      );
    } finally {
      await stop(dev.child);
      await fake.close();
    }
  },
);
