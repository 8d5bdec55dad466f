import type { McpServers } from '../mcp/config';
import type { HooksJson } from '../workflows/definitions';
import { type ControlSnapshot } from '../permissions/controlWrites';
/** The user's data directory (env DURABLE_AGENT_HOME, default ~/.durable-agent): the same base as the store's default. */
export declare function dataHome(env?: NodeJS.ProcessEnv): string;
export interface ManifestEntry {
    session: string;
    startedAt: string;
    /** path → content hash at the start (absent paths did not exist). */
    start: Record<string, string>;
    /** The files the session's hooks and MCP servers ran (runFilesOf), watched besides the built-in control files. */
    runFiles?: string[];
    endedAt?: string;
    end?: Record<string, string>;
}
export interface ControlFileChange {
    path: string;
    change: 'created' | 'modified' | 'deleted';
    /** during: between the previous session's start and end; after: since it ended; unknown: it was not followed to its end. */
    when: 'during' | 'after' | 'unknown';
}
export interface SinceLastSession {
    previous?: ManifestEntry;
    changes: ControlFileChange[];
    /** The control files now: what the next manifest entry records (with the run files it watched). */
    now: ControlSnapshot & {
        runFiles?: string[];
    };
}
export declare function manifestPath(cwd: string, home?: string): string;
/**
 * The files the session's hooks and stdio MCP servers run (protectedPaths hookControlFiles,
 * mcpServerControlFiles): control files of the manifest too, so that a script rewritten by one
 * session is named before the next one runs it. A package runner's local copy counts even when
 * absent: one planted by a session is named as created.
 */
export declare function runFilesOf(cwd: string, dirs: readonly string[], hooks: HooksJson | undefined, servers: McpServers | undefined): string[];
/** Which control files of `dirs` (cwd first) changed since the previous session in `cwd` started. `runFiles`: runFilesOf. */
export declare function controlFilesSinceLastSession(cwd: string, dirs: readonly string[], home?: string, runFiles?: readonly string[]): Promise<SinceLastSession>;
/** The manifest entry of a session that starts now, with the snapshot taken just before it started. */
export declare function recordSessionStart(cwd: string, session: string, now: ControlSnapshot & {
    runFiles?: string[];
}, home?: string, at?: Date): Promise<void>;
/** The end of a session: its control files now (kept only while it is still the last session there). */
export declare function recordSessionEnd(cwd: string, dirs: readonly string[], session: string, home?: string, at?: Date, runFiles?: readonly string[]): Promise<void>;
/** One line per change, as `run` prints them. */
export declare function changeLines(since: SinceLastSession, cwd: string): string[];
