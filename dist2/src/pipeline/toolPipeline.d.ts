import { type ToolUseBlock } from '../engine/messages';
import type { PipelineEnv, ToolUseOutcome } from './types';
/** Runs one tool_use through the whole pipeline. Never throws. */
export declare function runToolPipeline(block: ToolUseBlock, env: PipelineEnv): Promise<ToolUseOutcome>;
