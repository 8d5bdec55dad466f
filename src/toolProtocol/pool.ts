// The tool pool: the set of tools one session may use. It is the capability boundary: the
// pipeline looks tools up only here, never in "everything that was imported". It is made by
// createToolPool (permissions/toolPool.ts: the session's deny rules decide what is in it).
import type { AnyTool } from './Tool';

/** The tools of one session, in the order they are offered to the model. */
export type ToolPool = readonly AnyTool[];

/** Finds a tool of the pool by name or alias. Only the pool is searched. */
export function findToolByName(pool: ToolPool, name: string): AnyTool | undefined {
  return pool.find((t) => t.name === name) ?? pool.find((t) => (t.aliases ?? []).includes(name));
}
