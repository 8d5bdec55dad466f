export declare const SLEEP_TOOL_NAME = "BenchSleep";
export declare const SleepTool: import("../src/tools/Tool").Tool<{
    ms: number;
}, number>;
