import { z } from 'zod';
import { type AgentDefinition } from '../../agents/definitions';
import { type SubagentOutput } from '../../engine/subagents';
declare const inputSchema: z.ZodObject<{
    description: z.ZodString;
    prompt: z.ZodString;
    subagent_type: z.ZodOptional<z.ZodString>;
    model: z.ZodOptional<z.ZodEnum<{
        haiku: "haiku";
        sonnet: "sonnet";
        opus: "opus";
        fable: "fable";
    }>>;
    effort: z.ZodOptional<z.ZodEnum<{
        low: "low";
        medium: "medium";
        high: "high";
        xhigh: "xhigh";
        max: "max";
    }>>;
    run_in_background: z.ZodOptional<z.ZodBoolean>;
    isolation: z.ZodOptional<z.ZodEnum<{
        worktree: "worktree";
        remote: "remote";
    }>>;
}, z.core.$strict>;
export type AgentInput = z.infer<typeof inputSchema>;
/** The description the model sees, listing the session's agent types. */
export declare function agentToolPrompt(agents: readonly AgentDefinition[] | undefined): string;
export declare const AgentTool: import("../Tool").Tool<{
    description: string;
    prompt: string;
    subagent_type?: string | undefined;
    model?: "haiku" | "sonnet" | "opus" | "fable" | undefined;
    effort?: "low" | "medium" | "high" | "xhigh" | "max" | undefined;
    run_in_background?: boolean | undefined;
    isolation?: "worktree" | "remote" | undefined;
}, SubagentOutput>;
export {};
