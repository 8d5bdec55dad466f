export interface RefCall {
    id: string;
    name: string;
    input: unknown;
}
export interface RefCase {
    name: string;
    files?: Record<string, string>;
    /** One array per model turn (turn n+1 is sent after the tool results of turn n). */
    turns: RefCall[][];
    /** What the capture hook of an event answers on stdout (JSON; `$DIR` substituted). */
    hookReplies?: Record<string, unknown>;
    /** Texts whose presence in the model's conversation is compared (a hook's reason or context reaching the model). */
    modelSees?: string[];
    /**
     * MCP servers: written to `.mcp.json` on both sides and approved (`enableAllProjectMcpServers`).
     * `$DIR`, `$NODE`, `$MCP_EVERYTHING` (@modelcontextprotocol/server-everything), `$MCP_FILESYSTEM` and `$MCP_TEST`
     * (test/support/mcpServer.js) stand for their paths. The tool_result text of an `mcp__` call is compared too.
     */
    mcpServers?: Record<string, unknown>;
    /** As hookReplies, but answered only the first time the event fires (a Stop hook that blocks once). */
    hookRepliesOnce?: Record<string, unknown>;
    /** The capture hook of the event exits 2 with this stderr the first time it fires. */
    hookExit2Once?: Record<string, string>;
    /** How durable-agent's session ends (default completed). */
    ends?: 'completed' | 'stopped';
    /** The session's permission mode on both sides (default bypassPermissions). */
    permissionMode?: 'default' | 'acceptEdits' | 'dontAsk' | 'bypassPermissions';
    /**
     * User settings on both sides (`$DIR`/`$OTHER` substituted): the reference reads them from its
     * settings file (next to the capture hooks); durable-agent gets `permissions` as its rules and
     * `sandbox` as its sandbox settings, as `run` would.
     */
    settings?: {
        permissions?: {
            allow?: string[];
            ask?: string[];
            deny?: string[];
        };
        sandbox?: Record<string, unknown>;
    };
    /** Symlinks to create (name → target; a relative target stays relative). */
    symlinks?: Record<string, string>;
    /** Additional working directories (`--add-dir`): `$OTHER` is an empty sibling of the project; files named `$OTHER/…` go there. */
    additionalDirectories?: string[];
    /**
     * The project is a git repository (branch main, the case's files in one commit). Its `.git`
     * internals are left out of the file comparison (each side's bookkeeping differs); the worktrees
     * and branches are compared instead, as the `$GIT` entry. The reference gets every tool up front
     * (ENABLE_TOOL_SEARCH=false: EnterWorktree/ExitWorktree are deferred there).
     */
    git?: boolean;
    /**
     * WebFetch cases: `$WEB` stands for a local HTTPS site (`https://127.0.0.1:<port>`, ./webSite.ts:
     * /page, /redirect-same-host, /redirect-other-host to localhost, anything else 404) whose CA both
     * sides trust; the reference skips its claude.ai domain check (skipWebFetchPreflight).
     */
    web?: boolean;
    /**
     * ToolSearch cases: the reference defers its tools as by default (ENABLE_TOOL_SEARCH not set to
     * false); durable-agent offers ToolSearch with deferral on (contextManagement.toolSearch 'on').
     */
    toolSearch?: boolean;
}
export declare const CASES: RefCase[];
/**
 * Protected paths (issue 18): the control files an agent must not rewrite unasked. For each, Write
 * in acceptEdits (the reference asks: denied under -p; CLAUDE.md is written), and Bash in the
 * sandbox (its settings on, `autoAllowBashIfSandboxed: true` on both sides so that the sandbox, not
 * a permission prompt, decides) overwriting the file and creating it with its directory. The
 * reference's answers for each path: /work/wt/REFERENCE-FACTS.md, summarised in docs/tools.md.
 */
export declare const PROTECTED_PATHS: string[];
export declare const PROTECTED_CASES: RefCase[];
/**
 * Where the reference (Claude Code 2.1.x) and durable-agent deliberately differ: case → reason.
 * A differing case listed here is reported as "deliberate"; any other difference fails the run.
 * docs/tools.md lists the same rows (a unit test keeps them in sync).
 */
/** MCP cases: real servers from npm and the test server, over stdio. */
export declare const MCP_CASES: RefCase[];
export interface Deliberate {
    /** Comma-separated case names; `X*` = every case whose name starts with X; `*` = all. */
    cases: string;
    /** Only calls of these tools (default: any). */
    tools?: string[];
    /** Only this aspect of the comparison (default: any): is_error, tool_response keys, … */
    aspect?: string;
    /**
     * A `file` difference is covered only when it names one of these paths (or a directory on the
     * way to one), whatever `tools` says: other files that differ in the case stay unexpected.
     * Default: any file (and, with `tools`, no file).
     */
    files?: string[];
    reason: string;
}
export declare const DELIBERATE: Deliberate[];
export declare function deliberateReason(caseName: string, diff: {
    tool?: string;
    aspect: string;
    path?: string;
}): string | undefined;
