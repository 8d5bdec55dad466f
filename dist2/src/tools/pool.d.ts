import type { AnyTool } from './Tool';
/** The tools of one session, in the order they are offered to the model. */
export type ToolPool = readonly AnyTool[];
/** Finds a tool of the pool by name or alias. Only the pool is searched. */
export declare function findToolByName(pool: ToolPool, name: string): AnyTool | undefined;
