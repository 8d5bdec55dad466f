"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PostgresBlobStore = void 0;
exports.redact = redact;
const KEY = /^[A-Za-z0-9_.:-]+$/;
class PostgresBlobStore {
    table;
    /** Where the blobs are, for messages: the URL without its password. */
    where;
    pool;
    ready;
    constructor(opts) {
        this.table = opts.table ?? 'durable_agent_blobs';
        if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.table))
            throw new Error(`invalid PostgreSQL table name for the blob store: ${this.table} (lower-case letters, digits, _)`);
        this.where = redact(opts.connectionString);
        // pg is loaded only by workers configured for PostgreSQL.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const pg = require('pg');
        const config = {
            connectionString: opts.connectionString,
            max: opts.maxConnections ?? 10,
            connectionTimeoutMillis: 10_000,
            idleTimeoutMillis: 30_000,
        };
        this.pool = new pg.Pool(config);
        // An idle connection dropped by the server (restart, failover) must not crash the worker:
        // the pool discards it, and the next query opens a new one.
        this.pool.on('error', () => undefined);
    }
    /** Creates the table once per process (idempotent across hosts: concurrent creators race harmlessly). */
    ensureTable() {
        this.ready ??= (async () => {
            const sql = `CREATE TABLE IF NOT EXISTS ${this.table} (key text PRIMARY KEY, data bytea NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`;
            try {
                await this.pool.query(sql);
            }
            catch (err) {
                // Two processes creating the table at once: one loses on the catalog's unique index; the table exists.
                const code = err.code;
                if (code !== '23505' && code !== '42P07')
                    throw this.explain(err, 'create the blob table');
            }
        })();
        this.ready.catch(() => {
            this.ready = undefined; // a failed start (server down) is tried again on the next call
        });
        return this.ready;
    }
    check(key) {
        if (!KEY.test(key))
            throw new Error(`invalid blob key: ${key}`);
    }
    async put(key, data) {
        this.check(key);
        await this.ensureTable();
        try {
            // One statement: atomic, and a retried put of the same key is harmless.
            await this.pool.query(`INSERT INTO ${this.table} (key, data) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`, [key, Buffer.from(data, 'utf8')]);
        }
        catch (err) {
            throw this.explain(err, `store ${key}`);
        }
    }
    async get(key) {
        this.check(key);
        await this.ensureTable();
        try {
            const r = await this.pool.query(`SELECT data FROM ${this.table} WHERE key = $1`, [key]);
            const row = r.rows[0];
            return row ? row.data.toString('utf8') : undefined;
        }
        catch (err) {
            throw this.explain(err, `read ${key}`);
        }
    }
    /** Closes the connections (a worker's shutdown, a test's end). */
    async close() {
        await this.pool.end();
    }
    toString() {
        return `PostgreSQL ${this.where} (table ${this.table})`;
    }
    explain(err, what) {
        const e = err;
        const out = new Error(`blob store ${this.where}: could not ${what}: ${e.message ?? String(err)}${e.code ? ` (${e.code})` : ''}`);
        out.cause = err;
        return out;
    }
}
exports.PostgresBlobStore = PostgresBlobStore;
/** The URL without its password (for messages and logs). */
function redact(url) {
    try {
        const u = new URL(url);
        if (u.password)
            u.password = '***';
        return u.toString();
    }
    catch {
        return url.replace(/:[^:@/]*@/, ':***@');
    }
}
//# sourceMappingURL=postgresBlobStore.js.map