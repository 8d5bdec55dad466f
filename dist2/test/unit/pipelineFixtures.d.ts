import type { ToolUseBlock } from '../../src/engine/messages';
import { type AnyTool, type ToolUseContext } from '../../src/tools/Tool';
import type { PermissionMode, PermissionRules } from '../../src/tools/permissionTypes';
import type { PipelineEnv } from '../../src/pipeline/types';
export declare const calls: Array<{
    tool: string;
    input: unknown;
    ctx: ToolUseContext;
}>;
export declare const Echo: import("../../src/tools/Tool").Tool<{
    text: string;
    times: number;
}, unknown>;
export declare const WriteFile: import("../../src/tools/Tool").Tool<{
    file_path: string;
    content: string;
}, {
    path: string;
    bytes: number;
}>;
export declare const Big: import("../../src/tools/Tool").Tool<{
    size: number;
}, unknown>;
export declare const Slow: import("../../src/tools/Tool").Tool<{
    ms: number;
}, unknown>;
export declare const Thrower: import("../../src/tools/Tool").Tool<Record<string, never>, unknown>;
export declare const FAKE_TOOLS: AnyTool[];
export declare function tempDir(prefix?: string): Promise<string>;
export declare function makeEnv(cwd: string, opts?: Partial<PipelineEnv> & {
    mode?: PermissionMode;
    rules?: Partial<PermissionRules>;
    tools?: AnyTool[];
}): PipelineEnv;
export declare function use(name: string, input: unknown, id?: string): ToolUseBlock;
/** Writes an executable shell script and returns the command that runs it. */
export declare function script(dir: string, name: string, body: string): Promise<string>;
