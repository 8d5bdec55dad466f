// unit (+ a real PostgreSQL): the store tests, run over BOTH BlobStore implementations — files
// under a directory (one host) and the shared PostgreSQL table (several hosts). Everything the
// workers keep between activities goes through these: transcript nodes, tool inputs and results by
// reference, the read-file state, the execution ledger. Without Debian's postgresql the PostgreSQL
// half skips with one line (under CI it fails).
import { after, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecutionLedger } from '../../src/stores/executionLedger';
import {
  contentHashOf,
  CorruptBlobError,
  hashOf,
  LocalBlobStore,
  MissingBlobError,
  TranscriptStore,
  type BlobStore,
} from '../../src/stores/messageStore';
import { PayloadStore } from '../../src/stores/payloadStore';
import { PostgresBlobStore } from '../../src/stores/postgresBlobStore';
import { ReadFilesStore } from '../../src/stores/readFilesStore';
import { SharedResultStore } from '../../src/stores/sharedResultStore';
import { blobStoreFromUrl, configuredBlobStore, describeBlobStore } from '../../src/stores/configured';
import type { Message } from '../../src/core/apiMessages';
import { requirePostgres, startPostgres, type PostgresServer } from '../support/postgres';

const pg = requirePostgres();
let server: Promise<PostgresServer> | undefined;
const opened: PostgresBlobStore[] = [];
let tables = 0;
after(async () => {
  await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
  if (server) await (await server).stop();
});

interface Impl {
  name: string;
  skip: string | false;
  /** A fresh, empty store. */
  make(): Promise<BlobStore>;
  /** A second client of the same store (another process, another host). */
  reopen(store: BlobStore): BlobStore;
}

const IMPLS: Impl[] = [
  {
    name: 'files',
    skip: false,
    make: async () => new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-blobs-'))),
    reopen: (s) => new LocalBlobStore((s as LocalBlobStore).dir),
  },
  {
    name: 'postgres',
    skip: pg.skip,
    make: async () => {
      pg.assert();
      server ??= startPostgres();
      const s = new PostgresBlobStore({
        connectionString: (await server).url,
        table: `blobs_${process.pid}_${tables++}`,
      });
      opened.push(s);
      return s;
    },
    reopen: (s) => {
      const p = s as PostgresBlobStore;
      const other = new PostgresBlobStore({ connectionString: p.where, table: p.table }); // no password in tests: where === the URL
      opened.push(other);
      return other;
    },
  },
];

const user = (text: string): Message => ({ role: 'user', content: text });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

for (const impl of IMPLS) {
  const t = (name: string, fn: () => Promise<void>): void => {
    void test(`store (${impl.name}): ${name}`, { skip: impl.skip }, fn);
  };

  t('a missing key reads as undefined; put then get round-trips; a put overwrites whole', async () => {
    const s = await impl.make();
    assert.equal(await s.get('nothing-here'), undefined);
    await s.put('k1', 'one');
    assert.equal(await s.get('k1'), 'one');
    await s.put('k1', 'two, longer than one');
    assert.equal(await s.get('k1'), 'two, longer than one');
    await s.put('k1', '');
    assert.equal(await s.get('k1'), '');
  });

  t('any string round-trips: unicode, NUL, CRLF, 2 MB', async () => {
    const s = await impl.make();
    const odd = 'a\u0000b\r\nc 😀 é 中文 \uFFFD';
    await s.put('odd', odd);
    assert.equal(await s.get('odd'), odd);
    const big = 'x'.repeat(2 * 1024 * 1024 - 3) + 'end';
    await s.put('big', big);
    assert.equal(await s.get('big'), big);
  });

  t('keys outside [A-Za-z0-9_.:-] are refused (no path escapes, no SQL)', async () => {
    const s = await impl.make();
    for (const bad of ['', '../etc/passwd', 'a b', "x'; DROP TABLE t; --", 'a/b']) {
      await assert.rejects(s.put(bad, 'v'), /invalid blob key/, bad);
      await assert.rejects(s.get(bad), /invalid blob key/, bad);
    }
  });

  t('a second client (another process or host) sees what the first wrote', async () => {
    const a = await impl.make();
    const b = impl.reopen(a);
    await a.put('shared', 'from a');
    assert.equal(await b.get('shared'), 'from a');
    await b.put('shared', 'from b');
    assert.equal(await a.get('shared'), 'from b');
  });

  t('concurrent puts of one key leave one whole value; concurrent puts of many keys all land', async () => {
    const s = await impl.make();
    const values = Array.from({ length: 20 }, (_, i) => String(i).repeat(10_000 + i));
    await Promise.all(values.map((v) => s.put('contended', v)));
    assert.ok(values.includes((await s.get('contended')) as string), 'one of the values, whole');
    await Promise.all(Array.from({ length: 50 }, (_, i) => s.put(`many-${i}`, `v${i}`)));
    for (let i = 0; i < 50; i++) assert.equal(await s.get(`many-${i}`), `v${i}`);
  });

  t('TranscriptStore: a chain of nodes by hash, idempotent appends, loads whole from a new client', async () => {
    const s = await impl.make();
    const store = new TranscriptStore(s);
    assert.equal(await store.append(null, []), null);
    const h1 = await store.append(null, [user('hi')]);
    assert.equal(await store.append(null, [user('hi')]), h1, 'same content, same hash');
    const h2 = await store.append(h1, [assistant('hello'), user('more')]);
    const h3 = await store.append(h2, [assistant('done')]);
    const fresh = new TranscriptStore(impl.reopen(s));
    assert.deepEqual(await fresh.load(h3), [user('hi'), assistant('hello'), user('more'), assistant('done')]);
    assert.deepEqual(await fresh.nodeMessages(h2 as string), [assistant('hello'), user('more')]);
    assert.deepEqual(await fresh.load(null), []);
  });

  t('TranscriptStore: a missing node is a MissingBlobError that names the store and the fix', async () => {
    const s = await impl.make();
    const store = new TranscriptStore(s);
    const missing = 'f'.repeat(64);
    await assert.rejects(store.load(missing), (e: unknown) => {
      assert.ok(e instanceof MissingBlobError);
      assert.equal(e.code, 'STORE_BLOB_MISSING');
      assert.match(e.message, new RegExp(`transcript node ${missing} is missing from the store`));
      assert.match(e.message, /DURABLE_AGENT_STORE=postgres/);
      return true;
    });
    await assert.rejects(store.nodeMessages(missing), MissingBlobError);
  });

  t('PayloadStore: tool results by content hash, idempotent, refs checked, missing ones explained', async () => {
    const s = await impl.make();
    const payloads = new PayloadStore(s);
    const block = { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'result \u0000 with NUL and 😀' };
    const ref = await payloads.putToolResult(block);
    assert.match(ref, /^toolresult-[a-z2-7]{26}$/);
    assert.equal(await payloads.putToolResult(block), ref);
    assert.deepEqual(await new PayloadStore(impl.reopen(s)).getToolResult(ref), block);
    await assert.rejects(payloads.getToolResult('ledger-x'), /not a tool result reference/);
    await assert.rejects(payloads.getToolResult(`toolresult-${'0'.repeat(64)}`), MissingBlobError);
  });

  t('ReadFilesStore: content-addressed, chained by reference, survives a new store instance', async () => {
    const blobs = await impl.make();
    const store = new ReadFilesStore(blobs);
    assert.equal(await store.put(null, {}), null);
    const r1 = await store.put(null, { '/w/a': { mtimeMs: 1, partial: false } });
    assert.match(r1 ?? '', /^readfiles-[a-z2-7]{26}$/);
    assert.equal(await store.put(null, { '/w/a': { mtimeMs: 1, partial: false } }), r1);
    const r2 = await store.put(r1, { '/w/b': { mtimeMs: 2, partial: true }, '/w/a': { mtimeMs: 1, partial: true } });
    assert.equal(await store.put(r2, {}), r2);
    assert.deepEqual(await new ReadFilesStore(impl.reopen(blobs)).get(r2), {
      '/w/a': { mtimeMs: 1, partial: false },
      '/w/b': { mtimeMs: 2, partial: true },
    });
    await assert.rejects(new ReadFilesStore(blobs).get(`readfiles-${'0'.repeat(64)}`), /missing/);
  });

  t(
    'a content-addressed blob changed in the store after it was written is refused on load (transcript, tool result, read-file state), with the key named',
    async () => {
      const blobs = await impl.make();
      const head = await new TranscriptStore(blobs).append(null, [user('the real request')]);
      const result = await new PayloadStore(blobs).putToolResult({
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: 'real',
      });
      const files = await new ReadFilesStore(blobs).put(null, { '/w/a': { mtimeMs: 1, partial: false } });
      // Rewritten by another client of the store (for files: the file on disk), as a sandboxed command with the store's path would.
      const other = impl.reopen(blobs);
      await other.put(head!, JSON.stringify({ prev: null, messages: [user('a forged request')] }));
      await other.put(result, JSON.stringify({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'forged' }));
      await other.put(files!, JSON.stringify({ '/etc/passwd': { mtimeMs: 1, partial: false } }));
      const fresh = impl.reopen(blobs);
      const corrupt = (key: string) => (err: unknown) =>
        err instanceof CorruptBlobError && err.code === 'STORE_BLOB_CORRUPT' && err.message.includes(key);
      await assert.rejects(new TranscriptStore(fresh).load(head), corrupt(head!));
      await assert.rejects(new TranscriptStore(fresh).nodeMessages(head!), corrupt(head!));
      await assert.rejects(new PayloadStore(fresh).getToolResult(result), corrupt(result));
      await assert.rejects(new ReadFilesStore(fresh).get(files), corrupt(files!));
      // A torn (truncated) blob is refused the same way, not parsed.
      const head2 = await new TranscriptStore(blobs).append(null, [user('x'.repeat(100))]);
      await other.put(head2!, '{"prev":null,"messages":[');
      await assert.rejects(new TranscriptStore(fresh).load(head2), corrupt(head2!));
    },
  );

  t('keys of the form written before 0.3.0 (the whole sha256 in hex) are read and checked as before', async () => {
    const blobs = await impl.make();
    const node = JSON.stringify({ prev: null, messages: [user('an old request')] });
    const result = JSON.stringify({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'old' });
    const files = JSON.stringify({ '/w/a': { mtimeMs: 1, partial: false } });
    const head = hashOf(node);
    await blobs.put(head, node);
    await blobs.put(`toolresult-${hashOf(result)}`, result);
    await blobs.put(`readfiles-${hashOf(files)}`, files);
    assert.deepEqual(await new TranscriptStore(blobs).load(head), [user('an old request')]);
    // A new node after an old head: a short key, chained to the old one.
    const next = await new TranscriptStore(blobs).append(head, [user('a new one')]);
    assert.equal(next, contentHashOf(JSON.stringify({ prev: head, messages: [user('a new one')] })));
    assert.equal(next?.length, 26);
    // RFC 4648 base32, lowercase, of the first 16 bytes of sha256('abc').
    assert.equal(contentHashOf('abc'), 'xj4bnp4pahh6uqkbidpf3lrcem');
    assert.deepEqual(await new TranscriptStore(impl.reopen(blobs)).load(next), [
      user('an old request'),
      user('a new one'),
    ]);
    assert.equal((await new PayloadStore(blobs).getToolResult(`toolresult-${hashOf(result)}`)).content, 'old');
    assert.deepEqual(await new ReadFilesStore(blobs).get(`readfiles-${hashOf(files)}`), JSON.parse(files));
    // Checked against the whole digest: a rewritten old blob is refused.
    await blobs.put(head, JSON.stringify({ prev: null, messages: [user('forged')] }));
    await assert.rejects(new TranscriptStore(impl.reopen(blobs)).load(head), CorruptBlobError);
    // A short key is the digest's first 128 bits, not any 26 characters: another blob's is refused.
    await blobs.put(contentHashOf('x'), node);
    await assert.rejects(new TranscriptStore(impl.reopen(blobs)).load(contentHashOf('x')), CorruptBlobError);
  });

  t(
    "SharedResultStore: a large result saved on one host is recreated on another from the store, only for its session and only at that worker's own path of it",
    async () => {
      const s = await impl.make();
      const rootA = await mkdtemp(join(tmpdir(), 'da-res-a-'));
      const rootB = await mkdtemp(join(tmpdir(), 'da-res-b-'));
      const onA = new SharedResultStore(join(rootA, 'results', 'sess_1'), s, 'sess/1');
      const onB = new SharedResultStore(join(rootB, 'results', 'sess_1'), impl.reopen(s), 'sess/1');
      const path = await onA.put('toolu_big', 'whole output \u0000 😀');
      assert.equal(path, join(rootA, 'results', 'sess_1', 'toolu_big.txt'));
      assert.equal(await readFile(path, 'utf8'), 'whole output \u0000 😀');
      // B's own path of the result (every worker has the same store dir: the path the model saw).
      const onBPath = join(rootB, 'results', 'sess_1', 'toolu_big.txt');
      assert.equal(await onB.stored(onBPath), true, 'missing on B, kept in the store');
      assert.equal(await onB.materialize(onBPath), true);
      assert.equal(await readFile(onBPath, 'utf8'), 'whole output \u0000 😀', "recreated at the worker's own path");
      assert.equal(await onB.materialize(onBPath), false, 'the file exists: left alone');
      // A path on another root (even one laid out `…/results/sess_1/<file>`) is never written.
      await rm(rootA, { recursive: true });
      assert.equal(await onB.stored(path), false);
      assert.equal(await onB.materialize(path), false);
      assert.equal(existsSync(rootA), false, "nothing created outside the worker's own results directory");
      const other = new SharedResultStore(join(rootB, 'results', 'sess_2'), impl.reopen(s), 'sess/2');
      assert.equal(
        await other.materialize(join(rootB, 'results', 'sess_2', 'toolu_big.txt')),
        false,
        "another session's result is not this session's to recreate",
      );
      await rm(onBPath);
      assert.equal(await other.materialize(onBPath), false, "nor at that session's path");
      assert.equal(existsSync(onBPath), false);
      assert.equal(
        await onB.materialize(join(rootB, 'results', 'sess_1', 'toolu_none.txt')),
        false,
        'not in the store',
      );
      assert.equal(await onB.materialize('/etc/passwd'), false);
    },
  );

  t('ExecutionLedger: entries per (session, tool_use_id), started → completed, read by another client', async () => {
    const s = await impl.make();
    const ledger = new ExecutionLedger(s);
    assert.equal(await ledger.get('s1', 'toolu_1'), undefined);
    await ledger.put('s1', 'toolu_1', { state: 'started', attempts: [{ activity: 'wf/1', attempt: 1, at: 5 }] });
    const other = new ExecutionLedger(impl.reopen(s));
    assert.equal((await other.get('s1', 'toolu_1'))?.state, 'started');
    assert.equal(await other.get('s2', 'toolu_1'), undefined, 'another session never meets this record');
    const record = {
      toolUseId: 'toolu_1',
      toolName: 'Bash',
      input: { command: 'echo' },
      summary: 'echo',
      status: 'ok' as const,
      result: { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'ok' },
      contextModifiers: [],
    };
    await other.put('s1', 'toolu_1', {
      state: 'completed',
      attempts: [{ activity: 'wf/1', attempt: 1, at: 5 }],
      record,
      completedBy: 'wf/1',
    });
    assert.deepEqual((await ledger.get('s1', 'toolu_1'))?.record, record);
  });
}

test('configuration: DURABLE_AGENT_STORE URLs pick the store; an unknown one is refused with what to write', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-conf-'));
  const pgStore = blobStoreFromUrl('postgresql://u:secret@db.example:5432/agent?table=my_blobs', dir);
  assert.ok(pgStore instanceof PostgresBlobStore);
  assert.equal(pgStore.table, 'my_blobs');
  assert.doesNotMatch(describeBlobStore(pgStore), /secret/, 'no password in what is printed');
  assert.match(describeBlobStore(pgStore), /shared/);
  await pgStore.close();
  const files = blobStoreFromUrl(`file://${dir}/b`, dir);
  assert.ok(files instanceof LocalBlobStore && files.dir === `${dir}/b`);
  assert.ok(blobStoreFromUrl(`${dir}/c`, dir) instanceof LocalBlobStore);
  assert.throws(() => blobStoreFromUrl('s3://bucket/x', dir), /unknown store; use postgres:\/\//);
  assert.throws(() => blobStoreFromUrl('postgres://u@h/db?table=Bad-Name', dir), /invalid PostgreSQL table name/);
  const saved = process.env.DURABLE_AGENT_STORE;
  try {
    process.env.DURABLE_AGENT_STORE = `file://${dir}/env`;
    const fromEnv = configuredBlobStore({ storeDir: dir });
    assert.ok(fromEnv instanceof LocalBlobStore && fromEnv.dir === `${dir}/env`);
    const explicit = configuredBlobStore({ storeDir: dir, store: `${dir}/flag` });
    assert.ok(explicit instanceof LocalBlobStore && explicit.dir === `${dir}/flag`, 'the CLI flag wins over the env');
  } finally {
    if (saved === undefined) delete process.env.DURABLE_AGENT_STORE;
    else process.env.DURABLE_AGENT_STORE = saved;
  }
});

test(
  'store (postgres): a server that is not there fails the call with the store named (no password)',
  { skip: pg.skip },
  async () => {
    pg.assert();
    const s = new PostgresBlobStore({ connectionString: 'postgres://u:hunter2@127.0.0.1:1/none' });
    await assert.rejects(s.get('k'), (e: Error) => {
      assert.match(
        e.message,
        /^blob store postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/none: could not create the blob table: /,
      );
      assert.doesNotMatch(e.message, /hunter2/);
      return true;
    });
    await s.close();
  },
);

test(
  'store (postgres): a server restart drops the connections; the store reconnects and the data is there',
  { skip: pg.skip },
  async () => {
    pg.assert();
    const own = await startPostgres();
    const s = new PostgresBlobStore({ connectionString: own.url });
    try {
      await s.put('before-restart', 'kept');
      await own.restart();
      // The pool's idle connections died with the server: a call may fail once (the activity is
      // retried), never with a wrong answer, and the next one opens a new connection.
      let value: string | undefined;
      const errors: string[] = [];
      for (let i = 0; i < 3 && value === undefined; i++) {
        try {
          value = await s.get('before-restart');
        } catch (e) {
          errors.push((e as Error).message);
        }
      }
      for (const m of errors)
        assert.match(
          m,
          /^blob store postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres: could not read before-restart: /,
        );
      assert.equal(value, 'kept');
      await s.put('after-restart', 'new');
      assert.equal(await s.get('after-restart'), 'new');
    } finally {
      await s.close();
      await own.stop();
    }
  },
);

test('cli: `worker --store` with an unknown URL fails in one line naming what to write, before connecting anywhere', () => {
  const main = join(__dirname, '../../src/cli/main.js');
  const r = spawnSync(process.execPath, [main, 'worker', '--store', 's3://bucket/x'], {
    encoding: 'utf8',
    env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
    timeout: 60_000,
  });
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /^durable-agent: DURABLE_AGENT_STORE=s3:\/\/bucket\/x: unknown store; use postgres:\/\//);
});
