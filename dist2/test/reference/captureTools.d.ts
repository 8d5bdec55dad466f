import '../support/isolatedHome';
export interface CapturedTool {
    name: string;
    input_schema: unknown;
}
export interface ToolIndex {
    version: string;
    upFront: string[];
    deferred: string[];
    onlyWithTools: string[];
}
export declare function captureTools(): Promise<{
    index: ToolIndex;
    tools: CapturedTool[];
}>;
