import { CancellationScope, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { AgentContext } from '../engine/context';
import type { ToolUseBlock } from '../engine/messages';
import { type AgentWorktreeReady, type SubagentCall, type SubagentOutput } from '../engine/subagents';
import type { Approval, ToolRunResult, ToolUseDescription } from '../engine/turn';
import type { SubagentPrepared, ToolSessionInput, RunToolUseInput } from '../calls/tools';
import type { SubagentResume } from '../engine/subagents';
import { type SessionInput, type SessionResult, type TurnWorkflowInput } from './definitions';
export interface SubagentActivities {
    prepareSubagent(input: RunToolUseInput): Promise<SubagentPrepared>;
    finishSubagent(input: RunToolUseInput & {
        resume: SubagentResume;
        output: SubagentOutput;
        childHead?: string | null;
    }): Promise<ToolRunResult>;
    awaitSubagent(input: {
        workflowId: string;
    }): Promise<SessionResult>;
    prepareAgentWorktree(input: {
        cwd: string;
        name: string;
    }): Promise<AgentWorktreeReady | {
        error: string;
    }>;
    settleAgentWorktree(input: {
        worktree: AgentWorktreeReady;
    }): Promise<{
        path: string;
        branch: string;
    } | null>;
}
export interface SubagentEnv {
    input: TurnWorkflowInput;
    session: ToolSessionInput;
    messageRef: string | null;
    /** The turn's interrupt scope: cancelling it cancels the child session (and its running tools). */
    scope: CancellationScope;
    activities: ActivityInterfaceFor<SubagentActivities>;
}
/** The child session's input: the parent's settings, the agent's prompt, tools, model and limits. */
export declare function childSessionInput(env: SubagentEnv, call: SubagentCall, block: ToolUseBlock, context: AgentContext, worktree?: AgentWorktreeReady): SessionInput;
/** One Agent call: pre-call checks, the child session, post-call result handling. Interrupts and cancellations propagate (thrown). */
export declare function runSubagentCall(env: SubagentEnv, block: ToolUseBlock, context: AgentContext, description: ToolUseDescription, approval?: Approval): Promise<ToolRunResult>;
