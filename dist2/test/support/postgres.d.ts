import { type SystemRequirement } from './systemPackages';
/** The directory holding initdb and postgres: PATH, else Debian's /usr/lib/postgresql/<newest>/bin. */
export declare function postgresBinDir(): string | undefined;
export declare function requirePostgres(): SystemRequirement;
export interface PostgresServer {
    /** postgres://postgres@127.0.0.1:<port>/postgres */
    url: string;
    port: number;
    /** A URL naming its own table, so that tests sharing the server never see each other's blobs. */
    urlWithTable(table: string): string;
    /** Stops the server (fast shutdown: clients' connections are dropped) and starts it again on the same data and port. */
    restart(): Promise<void>;
    /**
     * A crash: SIGKILL of the server and every backend at once (no shutdown, no checkpoint), `downMs`
     * of nothing listening, then a new server on the same data and port (WAL recovery at start).
     */
    crash(downMs: number): Promise<void>;
    /** The server's pid (its backends are its children). */
    pid(): number | undefined;
    stop(): Promise<void>;
}
export interface StartPostgresOptions {
    /** `max_connections` (default 200). */
    maxConnections?: number;
    /**
     * Keep every acknowledged commit across a crash of the server (`synchronous_commit=on`, the
     * PostgreSQL default). Off by default here, for speed: then a crash (`crash()`) loses the last
     * few hundred milliseconds of commits that clients were told had succeeded. A process crash
     * never needs fsync (the OS keeps what was written), so fsync stays off either way.
     */
    durableCommits?: boolean;
}
export declare function startPostgres(opts?: StartPostgresOptions): Promise<PostgresServer>;
