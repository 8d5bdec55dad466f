import Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { type FakeAnthropicOptions, type FakeAnthropicServer } from '../../src/testing/fakeAnthropic';
import { type SessionHandle, type SessionOptions } from '../../src/client';
import { type AgentWorkerOptions } from '../../src/worker';
export interface AgentTestContext {
    env: TestWorkflowEnvironment;
    client: Client;
    fake: FakeAnthropicServer;
    taskQueue: string;
    storeDir: string;
    workDir: string;
    start(opts: Partial<SessionOptions> & {
        prompt: string;
        id?: string;
    }): Promise<SessionHandle>;
    /** Starts another in-process worker on the same task queue; `stop()` shuts it down. */
    startWorker(): Promise<{
        stop(): Promise<void>;
    }>;
}
export interface WithAgentOptions {
    fake?: FakeAnthropicOptions;
    worker?: Partial<Omit<AgentWorkerOptions, 'connection'>>;
    /** Start no in-process worker (the test runs its own, e.g. in a child process). */
    noWorker?: boolean;
}
export declare function fakeAnthropicFactory(fake: FakeAnthropicServer): () => Anthropic;
export declare function withAgent<T>(opts: WithAgentOptions, fn: (ctx: AgentTestContext) => Promise<T>): Promise<T>;
