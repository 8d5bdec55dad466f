import { type Command } from 'commander';
import { type AgentDefinition } from '../../agents/definitions';
import { type SkillDefinition } from '../../agents/skills';
import { type SessionOptions } from '../../client';
import { resolveMcpServers } from '../../mcp/config';
import { loadMemory } from '../../memory/claudeMd';
import { type PermissionMode } from '../../tools/permissionTypes';
import { type ConnOpts } from '../options';
import { type EffectiveSettings } from '../settings';
import { type OutputFormat } from '../printFormat';
/** The flags of `run`, as commander parses them (see addRunCommand). */
export interface RunOpts extends ConnOpts {
    cwd: string;
    worktree?: string | true;
    model?: string;
    maxTokens?: number;
    systemPrompt?: string;
    appendSystemPrompt?: string;
    permissionMode?: PermissionMode;
    allow: string[];
    ask: string[];
    deny: string[];
    addDir: string[];
    mcpConfig: string[];
    strictMcpConfig?: boolean;
    maxTurns?: number;
    maxTotalTokens?: number;
    approvalTimeout?: number;
    onInterrupt?: 'wait' | 'end';
    id?: string;
    toolTaskQueue?: string;
    sandbox?: boolean;
    streamingTools?: boolean;
    toolSearch?: string;
    detach?: boolean;
    print?: boolean;
    outputFormat?: OutputFormat;
    verbose?: boolean;
}
type Memory = ReturnType<typeof loadMemory>;
type McpServers = ReturnType<typeof resolveMcpServers>;
type RunSessionOptions = SessionOptions & {
    id?: string;
    taskQueue?: string;
};
/**
 * The flags that shape a session (everything of `run` but --id, --detach and --json): `run` and
 * `schedule add` share them, and buildRunSession reads them.
 */
export declare function addSessionFlags(cmd: Command): Command;
export declare function addRunCommand(program: Command): void;
/**
 * Steps 1–7: the session's options from the flags, the settings, memory, MCP servers and agents,
 * with every one-line UsageError before anything starts (`run`, and `schedule add` for each firing).
 */
export declare function buildRunSession(promptWords: string[], o: RunOpts): Promise<{
    opts: RunSessionOptions;
    loaded: Loaded;
}>;
interface Loaded {
    cwd: string;
    settings: EffectiveSettings;
    memory: Memory;
    mcp: McpServers;
    agents: AgentDefinition[];
    skills: SkillDefinition[];
}
export {};
