import { DurableAgentError } from '../engine/errors';
/** What a session carries about one agent type (plain data: it travels in the session input). */
export interface AgentDefinition {
    name: string;
    description: string;
    /** Tool names the agent may use; absent = every tool of the parent session (but Agent). */
    tools?: string[];
    /** Tools taken away from the inherited or listed set. */
    disallowedTools?: string[];
    /** `sonnet` | `opus` | `haiku` | `inherit` | a full model id; absent = inherit. */
    model?: string;
    /** The child session's turn limit (default: the parent's). */
    maxTurns?: number;
    systemPrompt: string;
    /** `built-in`, or the file it came from. */
    source: string;
}
export declare class AgentDefinitionError extends DurableAgentError {
    readonly file: string;
    constructor(file: string, message: string);
}
export declare const GENERAL_PURPOSE_AGENT: AgentDefinition;
/**
 * The reference's read-only search agent (2.1.328: every tool of the parent but the ones that
 * change files; the parent's model). Bash stays, as in the reference: its prompt keeps it to
 * read-only commands, and the session's permission mode and sandbox still decide each command.
 */
export declare const EXPLORE_AGENT: AgentDefinition;
/** The reference's planning agent: read-only like Explore; it returns an implementation plan. */
export declare const PLAN_AGENT: AgentDefinition;
/** The built-in agent types, in the order the Agent tool lists them; an agent file of the same name replaces one. */
export declare const BUILT_IN_AGENTS: readonly AgentDefinition[];
/** The agent types a session offers (general-purpose when the session carries none). */
export declare function sessionAgents(agents: readonly AgentDefinition[] | undefined): readonly AgentDefinition[];
/** The agent type an Agent call names (general-purpose when it names none). */
export declare function agentTypeOf(input: {
    subagent_type?: string | undefined;
}): string;
/**
 * The frontmatter of a Markdown control file (an agent or a skill) as key → raw value; `fail`
 * makes the error naming the file. The file must start with a `---` block.
 */
export declare function parseFrontmatter(text: string, fail: (message: string) => Error): {
    fields: Map<string, string | string[]>;
    body: string;
    rawBody: string;
};
/** Parses one agent file. Throws AgentDefinitionError naming the file and the key. */
export declare function parseAgentDefinition(file: string, text: string): AgentDefinition;
/**
 * The agents a session may start: the built-in ones (general-purpose, Explore, Plan), then the user's (`~/.claude/agents`, or
 * `$CLAUDE_CONFIG_DIR/agents` as the reference reads it), then the
 * project's (`<cwd>/.claude/agents`); a project agent replaces a user or built-in one of the same name.
 */
export declare function loadAgentDefinitions(cwd: string, userConfigDir?: string): Promise<AgentDefinition[]>;
/**
 * The agents a session offers the model: those no deny rule `Agent(<name>)` (or `Task(<name>)`)
 * turns off, as the reference hides them; a call naming one anyway is denied by that rule.
 */
export declare function agentsNotDenied(agents: readonly AgentDefinition[], denyRules: readonly string[]): AgentDefinition[];
/**
 * The model ids Claude Code 2.1.197 sends for its aliases (captured from its requests to the fake
 * Messages API); each may be overridden by the reference's environment variable.
 */
export declare const MODEL_ALIAS_IDS: Readonly<Record<string, readonly [envVar: string, id: string]>>;
/** The full model id for an agent's `model` (an alias as the reference maps it; env overrides as the reference's). */
export declare function resolveAgentModel(model: string | undefined, parentModel: string, env?: NodeJS.ProcessEnv): string;
/**
 * The tools of a child session: the agent's list (or all of the parent's) within the parent's,
 * never Agent itself. MCP names the agent lists (`mcp__server__tool`, `mcp__server`) stay in the
 * list: they restrict the child to those MCP tools (restrictMcpTools); an agent without `tools`
 * gets every MCP tool of the parent's servers.
 */
export declare function subagentTools(def: AgentDefinition, parentTools: readonly string[], agentToolNames: readonly string[]): {
    tools: string[];
    dropped: string[];
};
/** An agent's `disallowedTools` MCP names, as deny rules of the child (they cover MCP tools it would otherwise inherit). */
export declare function disallowedMcpRules(def: AgentDefinition): string[];
