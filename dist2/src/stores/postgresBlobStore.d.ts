import type { BlobStore } from './messageStore';
export interface PostgresBlobStoreOptions {
    /** postgres://user:password@host:port/database (libpq's URL form; `?sslmode=…` honoured by pg). */
    connectionString: string;
    /** Table name (created on first use): default durable_agent_blobs. */
    table?: string;
    /** Connections per worker process: default 10 (each concurrent activity holds one for a query). */
    maxConnections?: number;
}
export declare class PostgresBlobStore implements BlobStore {
    readonly table: string;
    /** Where the blobs are, for messages: the URL without its password. */
    readonly where: string;
    private readonly pool;
    private ready;
    constructor(opts: PostgresBlobStoreOptions);
    /** Creates the table once per process (idempotent across hosts: concurrent creators race harmlessly). */
    private ensureTable;
    private check;
    put(key: string, data: string): Promise<void>;
    get(key: string): Promise<string | undefined>;
    /** Closes the connections (a worker's shutdown, a test's end). */
    close(): Promise<void>;
    toString(): string;
    private explain;
}
/** The URL without its password (for messages and logs). */
export declare function redact(url: string): string;
