import type { ToolUseBlock } from '../engine/messages';
import type { ToolUseDescription } from '../engine/turn';
import { type ToolPool } from '../tools/pool';
export type { ToolUseDescription };
/**
 * What the scheduler needs to know about a tool_use before running it. Unknown tool, input the
 * schema rejects, or a predicate that throws → not concurrency-safe, not idempotent (runs alone,
 * is not blindly retried). Never throws.
 */
export declare function describeToolUse(block: ToolUseBlock, pool: ToolPool): ToolUseDescription;
