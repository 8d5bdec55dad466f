import type { FakeAnthropicServer, ResponseSpec } from '../support/fakeAnthropic';
import type { Cluster } from './cluster';
import type { Pacing } from './plan';
import type { Size } from './report';
import { type SessionSettings, type StartedSession } from './sessions';
import { type KillRecord } from './workerKills';
import { type StoreMount } from './disk';
export declare const SCENARIOS: readonly ["kills", "restart", "model", "disk"];
export type ScenarioName = (typeof SCENARIOS)[number];
export interface SuiteContext {
    size: Size;
    sizes: {
        sessions: number;
        kills: number;
        restarts: number;
        minTurns: number;
        restartSessions: number;
        diskSessions: number;
        diskHoldMs: number;
    };
    cluster: Cluster;
    fake: FakeAnthropicServer;
    store: StoreMount;
    workRoot: string;
    log: (line: string) => void;
    pacing: Pacing;
    settings: SessionSettings;
    /** A crash session's model: `finish(turn)` says whether this turn is the last. */
    crashHandler: (name: string, finish: (turn: number) => boolean) => (turn: number, stream: boolean) => ResponseSpec | undefined;
    handlers: Map<string, (turn: number, stream: boolean) => ResponseSpec | undefined>;
}
export interface ScenarioResult {
    name: ScenarioName;
    title: string;
    sessions: StartedSession[];
    kills?: KillRecord[];
    continuesAsNew?: number;
    serverRestarts?: number;
    approvals?: number;
    /** Extra lines for the report (what was injected, what the sessions said). */
    notes: string[];
    /** Invariant failures found by the scenario itself (beyond the per-session checks). */
    violations: string[];
}
/**
 * Worker kills and model faults run together (independent sessions on the same workers: a kill may
 * also land in a faulty model call); the server restart and the disk faults run alone, after them.
 */
export declare function runScenarios(ctx: SuiteContext, only: readonly ScenarioName[]): Promise<ScenarioResult[]>;
