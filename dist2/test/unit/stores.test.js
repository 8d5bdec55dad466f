"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit (+ a real PostgreSQL): the store tests, run over BOTH BlobStore implementations — files
// under a directory (one host) and the shared PostgreSQL table (several hosts). Everything the
// workers keep between activities goes through these: transcript nodes, tool inputs and results by
// reference, the read-file state, the execution ledger. Without Debian's postgresql the PostgreSQL
// half skips with one line (under CI it fails).
const node_test_1 = require("node:test");
const node_child_process_1 = require("node:child_process");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const executionLedger_1 = require("../../src/stores/executionLedger");
const messageStore_1 = require("../../src/stores/messageStore");
const payloadStore_1 = require("../../src/stores/payloadStore");
const postgresBlobStore_1 = require("../../src/stores/postgresBlobStore");
const readFilesStore_1 = require("../../src/stores/readFilesStore");
const sharedResultStore_1 = require("../../src/stores/sharedResultStore");
const configured_1 = require("../../src/stores/configured");
const postgres_1 = require("../support/postgres");
const pg = (0, postgres_1.requirePostgres)();
let server;
const opened = [];
let tables = 0;
(0, node_test_1.after)(async () => {
    await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
    if (server)
        await (await server).stop();
});
const IMPLS = [
    {
        name: 'files',
        skip: false,
        make: async () => new messageStore_1.LocalBlobStore(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-blobs-'))),
        reopen: (s) => new messageStore_1.LocalBlobStore(s.dir),
    },
    {
        name: 'postgres',
        skip: pg.skip,
        make: async () => {
            pg.assert();
            server ??= (0, postgres_1.startPostgres)();
            const s = new postgresBlobStore_1.PostgresBlobStore({
                connectionString: (await server).url,
                table: `blobs_${process.pid}_${tables++}`,
            });
            opened.push(s);
            return s;
        },
        reopen: (s) => {
            const p = s;
            const other = new postgresBlobStore_1.PostgresBlobStore({ connectionString: p.where, table: p.table }); // no password in tests: where === the URL
            opened.push(other);
            return other;
        },
    },
];
const user = (text) => ({ role: 'user', content: text });
const assistant = (text) => ({ role: 'assistant', content: [{ type: 'text', text }] });
for (const impl of IMPLS) {
    const t = (name, fn) => {
        void (0, node_test_1.test)(`store (${impl.name}): ${name}`, { skip: impl.skip }, fn);
    };
    t('a missing key reads as undefined; put then get round-trips; a put overwrites whole', async () => {
        const s = await impl.make();
        strict_1.default.equal(await s.get('nothing-here'), undefined);
        await s.put('k1', 'one');
        strict_1.default.equal(await s.get('k1'), 'one');
        await s.put('k1', 'two, longer than one');
        strict_1.default.equal(await s.get('k1'), 'two, longer than one');
        await s.put('k1', '');
        strict_1.default.equal(await s.get('k1'), '');
    });
    t('any string round-trips: unicode, NUL, CRLF, 2 MB', async () => {
        const s = await impl.make();
        const odd = 'a\u0000b\r\nc 😀 é 中文 \uFFFD';
        await s.put('odd', odd);
        strict_1.default.equal(await s.get('odd'), odd);
        const big = 'x'.repeat(2 * 1024 * 1024 - 3) + 'end';
        await s.put('big', big);
        strict_1.default.equal(await s.get('big'), big);
    });
    t('keys outside [A-Za-z0-9_.:-] are refused (no path escapes, no SQL)', async () => {
        const s = await impl.make();
        for (const bad of ['', '../etc/passwd', 'a b', "x'; DROP TABLE t; --", 'a/b']) {
            await strict_1.default.rejects(s.put(bad, 'v'), /invalid blob key/, bad);
            await strict_1.default.rejects(s.get(bad), /invalid blob key/, bad);
        }
    });
    t('a second client (another process or host) sees what the first wrote', async () => {
        const a = await impl.make();
        const b = impl.reopen(a);
        await a.put('shared', 'from a');
        strict_1.default.equal(await b.get('shared'), 'from a');
        await b.put('shared', 'from b');
        strict_1.default.equal(await a.get('shared'), 'from b');
    });
    t('concurrent puts of one key leave one whole value; concurrent puts of many keys all land', async () => {
        const s = await impl.make();
        const values = Array.from({ length: 20 }, (_, i) => String(i).repeat(10_000 + i));
        await Promise.all(values.map((v) => s.put('contended', v)));
        strict_1.default.ok(values.includes((await s.get('contended'))), 'one of the values, whole');
        await Promise.all(Array.from({ length: 50 }, (_, i) => s.put(`many-${i}`, `v${i}`)));
        for (let i = 0; i < 50; i++)
            strict_1.default.equal(await s.get(`many-${i}`), `v${i}`);
    });
    t('TranscriptStore: a chain of nodes by hash, idempotent appends, loads whole from a new client', async () => {
        const s = await impl.make();
        const store = new messageStore_1.TranscriptStore(s);
        strict_1.default.equal(await store.append(null, []), null);
        const h1 = await store.append(null, [user('hi')]);
        strict_1.default.equal(await store.append(null, [user('hi')]), h1, 'same content, same hash');
        const h2 = await store.append(h1, [assistant('hello'), user('more')]);
        const h3 = await store.append(h2, [assistant('done')]);
        const fresh = new messageStore_1.TranscriptStore(impl.reopen(s));
        strict_1.default.deepEqual(await fresh.load(h3), [user('hi'), assistant('hello'), user('more'), assistant('done')]);
        strict_1.default.deepEqual(await fresh.nodeMessages(h2), [assistant('hello'), user('more')]);
        strict_1.default.deepEqual(await fresh.load(null), []);
    });
    t('TranscriptStore: a missing node is a MissingBlobError that names the store and the fix', async () => {
        const s = await impl.make();
        const store = new messageStore_1.TranscriptStore(s);
        const missing = 'f'.repeat(64);
        await strict_1.default.rejects(store.load(missing), (e) => {
            strict_1.default.ok(e instanceof messageStore_1.MissingBlobError);
            strict_1.default.equal(e.code, 'STORE_BLOB_MISSING');
            strict_1.default.match(e.message, new RegExp(`transcript node ${missing} is missing from the store`));
            strict_1.default.match(e.message, /DURABLE_AGENT_STORE=postgres/);
            return true;
        });
        await strict_1.default.rejects(store.nodeMessages(missing), messageStore_1.MissingBlobError);
    });
    t('PayloadStore: tool results by content hash, idempotent, refs checked, missing ones explained', async () => {
        const s = await impl.make();
        const payloads = new payloadStore_1.PayloadStore(s);
        const block = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'result \u0000 with NUL and 😀' };
        const ref = await payloads.putToolResult(block);
        strict_1.default.match(ref, /^toolresult-[0-9a-f]{64}$/);
        strict_1.default.equal(await payloads.putToolResult(block), ref);
        strict_1.default.deepEqual(await new payloadStore_1.PayloadStore(impl.reopen(s)).getToolResult(ref), block);
        await strict_1.default.rejects(payloads.getToolResult('ledger-x'), /not a tool result reference/);
        await strict_1.default.rejects(payloads.getToolResult(`toolresult-${'0'.repeat(64)}`), messageStore_1.MissingBlobError);
    });
    t('ReadFilesStore: content-addressed, chained by reference, survives a new store instance', async () => {
        const blobs = await impl.make();
        const store = new readFilesStore_1.ReadFilesStore(blobs);
        strict_1.default.equal(await store.put(null, {}), null);
        const r1 = await store.put(null, { '/w/a': { mtimeMs: 1, partial: false } });
        strict_1.default.match(r1 ?? '', /^readfiles-[0-9a-f]{64}$/);
        strict_1.default.equal(await store.put(null, { '/w/a': { mtimeMs: 1, partial: false } }), r1);
        const r2 = await store.put(r1, { '/w/b': { mtimeMs: 2, partial: true }, '/w/a': { mtimeMs: 1, partial: true } });
        strict_1.default.equal(await store.put(r2, {}), r2);
        strict_1.default.deepEqual(await new readFilesStore_1.ReadFilesStore(impl.reopen(blobs)).get(r2), {
            '/w/a': { mtimeMs: 1, partial: false },
            '/w/b': { mtimeMs: 2, partial: true },
        });
        await strict_1.default.rejects(new readFilesStore_1.ReadFilesStore(blobs).get(`readfiles-${'0'.repeat(64)}`), /missing/);
    });
    t('SharedResultStore: a large result saved on one host is recreated on another from the store, only for its session', async () => {
        const s = await impl.make();
        const rootA = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-res-a-'));
        const rootB = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-res-b-'));
        const onA = new sharedResultStore_1.SharedResultStore((0, node_path_1.join)(rootA, 'results', 'sess_1'), s, 'sess/1', 'sess_1');
        const onB = new sharedResultStore_1.SharedResultStore((0, node_path_1.join)(rootB, 'results', 'sess_1'), impl.reopen(s), 'sess/1', 'sess_1');
        const path = await onA.put('toolu_big', 'whole output \u0000 😀');
        strict_1.default.equal(path, (0, node_path_1.join)(rootA, 'results', 'sess_1', 'toolu_big.txt'));
        strict_1.default.equal(await (0, promises_1.readFile)(path, 'utf8'), 'whole output \u0000 😀');
        strict_1.default.equal(await onB.materialize(path), false, 'the file exists: left alone');
        await (0, promises_1.rm)(rootA, { recursive: true });
        strict_1.default.equal(await onB.materialize(path), true);
        strict_1.default.equal(await (0, promises_1.readFile)(path, 'utf8'), 'whole output \u0000 😀', 'recreated at the path the model was given');
        const other = new sharedResultStore_1.SharedResultStore((0, node_path_1.join)(rootB, 'results', 'sess_2'), impl.reopen(s), 'sess/2', 'sess_2');
        await (0, promises_1.rm)(rootA, { recursive: true });
        strict_1.default.equal(await other.materialize(path), false, "another session's result is not this session's to recreate");
        strict_1.default.equal(await onB.materialize((0, node_path_1.join)(rootA, 'results', 'sess_1', 'toolu_none.txt')), false, 'not in the store');
        strict_1.default.equal(await onB.materialize('/etc/passwd'), false);
        strict_1.default.deepEqual((0, sharedResultStore_1.inputPaths)({ file_path: '/a', path: 'rel', notebook_path: '/b', other: '/c' }), ['/a', '/b']);
    });
    t('ExecutionLedger: entries per (session, tool_use_id), started → completed, read by another client', async () => {
        const s = await impl.make();
        const ledger = new executionLedger_1.ExecutionLedger(s);
        strict_1.default.equal(await ledger.get('s1', 'toolu_1'), undefined);
        await ledger.put('s1', 'toolu_1', { state: 'started', attempts: [{ activity: 'wf/1', attempt: 1, at: 5 }] });
        const other = new executionLedger_1.ExecutionLedger(impl.reopen(s));
        strict_1.default.equal((await other.get('s1', 'toolu_1'))?.state, 'started');
        strict_1.default.equal(await other.get('s2', 'toolu_1'), undefined, 'another session never meets this record');
        const record = {
            toolUseId: 'toolu_1',
            toolName: 'Bash',
            input: { command: 'echo' },
            summary: 'echo',
            status: 'ok',
            result: { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' },
            contextModifiers: [],
        };
        await other.put('s1', 'toolu_1', {
            state: 'completed',
            attempts: [{ activity: 'wf/1', attempt: 1, at: 5 }],
            record,
            completedBy: 'wf/1',
        });
        strict_1.default.deepEqual((await ledger.get('s1', 'toolu_1'))?.record, record);
    });
}
(0, node_test_1.test)('configuration: DURABLE_AGENT_STORE URLs pick the store; an unknown one is refused with what to write', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-conf-'));
    const pgStore = (0, configured_1.blobStoreFromUrl)('postgresql://u:secret@db.example:5432/agent?table=my_blobs', dir);
    strict_1.default.ok(pgStore instanceof postgresBlobStore_1.PostgresBlobStore);
    strict_1.default.equal(pgStore.table, 'my_blobs');
    strict_1.default.doesNotMatch((0, configured_1.describeBlobStore)(pgStore), /secret/, 'no password in what is printed');
    strict_1.default.match((0, configured_1.describeBlobStore)(pgStore), /shared/);
    await pgStore.close();
    const files = (0, configured_1.blobStoreFromUrl)(`file://${dir}/b`, dir);
    strict_1.default.ok(files instanceof messageStore_1.LocalBlobStore && files.dir === `${dir}/b`);
    strict_1.default.ok((0, configured_1.blobStoreFromUrl)(`${dir}/c`, dir) instanceof messageStore_1.LocalBlobStore);
    strict_1.default.throws(() => (0, configured_1.blobStoreFromUrl)('s3://bucket/x', dir), /unknown store; use postgres:\/\//);
    strict_1.default.throws(() => (0, configured_1.blobStoreFromUrl)('postgres://u@h/db?table=Bad-Name', dir), /invalid PostgreSQL table name/);
    const saved = process.env.DURABLE_AGENT_STORE;
    try {
        process.env.DURABLE_AGENT_STORE = `file://${dir}/env`;
        const fromEnv = (0, configured_1.configuredBlobStore)({ storeDir: dir });
        strict_1.default.ok(fromEnv instanceof messageStore_1.LocalBlobStore && fromEnv.dir === `${dir}/env`);
        const explicit = (0, configured_1.configuredBlobStore)({ storeDir: dir, store: `${dir}/flag` });
        strict_1.default.ok(explicit instanceof messageStore_1.LocalBlobStore && explicit.dir === `${dir}/flag`, 'the CLI flag wins over the env');
    }
    finally {
        if (saved === undefined)
            delete process.env.DURABLE_AGENT_STORE;
        else
            process.env.DURABLE_AGENT_STORE = saved;
    }
});
(0, node_test_1.test)('store (postgres): a server that is not there fails the call with the store named (no password)', { skip: pg.skip }, async () => {
    pg.assert();
    const s = new postgresBlobStore_1.PostgresBlobStore({ connectionString: 'postgres://u:hunter2@127.0.0.1:1/none' });
    await strict_1.default.rejects(s.get('k'), (e) => {
        strict_1.default.match(e.message, /^blob store postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/none: could not create the blob table: /);
        strict_1.default.doesNotMatch(e.message, /hunter2/);
        return true;
    });
    await s.close();
});
(0, node_test_1.test)('store (postgres): a server restart drops the connections; the store reconnects and the data is there', { skip: pg.skip }, async () => {
    pg.assert();
    const own = await (0, postgres_1.startPostgres)();
    const s = new postgresBlobStore_1.PostgresBlobStore({ connectionString: own.url });
    try {
        await s.put('before-restart', 'kept');
        await own.restart();
        // The pool's idle connections died with the server: a call may fail once (the activity is
        // retried), never with a wrong answer, and the next one opens a new connection.
        let value;
        const errors = [];
        for (let i = 0; i < 3 && value === undefined; i++) {
            try {
                value = await s.get('before-restart');
            }
            catch (e) {
                errors.push(e.message);
            }
        }
        for (const m of errors)
            strict_1.default.match(m, /^blob store postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres: could not read before-restart: /);
        strict_1.default.equal(value, 'kept');
        await s.put('after-restart', 'new');
        strict_1.default.equal(await s.get('after-restart'), 'new');
    }
    finally {
        await s.close();
        await own.stop();
    }
});
(0, node_test_1.test)('cli: `worker --store` with an unknown URL fails in one line naming what to write, before connecting anywhere', () => {
    const main = (0, node_path_1.join)(__dirname, '../../src/cli/main.js');
    const r = (0, node_child_process_1.spawnSync)(process.execPath, [main, 'worker', '--store', 's3://bucket/x'], {
        encoding: 'utf8',
        env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
        timeout: 60_000,
    });
    strict_1.default.equal(r.status, 1);
    strict_1.default.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    strict_1.default.match(r.stderr, /^durable-agent: DURABLE_AGENT_STORE=s3:\/\/bucket\/x: unknown store; use postgres:\/\//);
});
//# sourceMappingURL=stores.test.js.map