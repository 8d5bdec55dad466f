export interface ClaudeRepo {
    home: string;
    env: Record<string, string>;
    shared: string;
    local: string;
    userSettings: string;
    claudeMd: string;
    imported: string;
    userMd: string;
    mcpJson: string;
}
/** A repository with Claude Code files only, and a user home with ~/.claude. */
export declare function claudeRepo(workDir: string, taskQueue: string, shared?: Record<string, unknown>): Promise<ClaudeRepo>;
