import type { AnyTool } from '../Tool';
export { AgentTool, agentToolPrompt } from './agent';
export { BashTool } from './bash';
export { EditTool } from './edit';
export { GlobTool } from './glob';
export { GrepTool } from './grep';
export { NotebookEditTool } from './notebookEdit';
export { ReadTool } from './read';
export { WriteTool } from './write';
export { EnterWorktreeTool, ExitWorktreeTool } from './worktree';
export { ScheduleWakeupTool, CronCreateTool, CronListTool, CronDeleteTool, SCHEDULE_TOOLS } from './schedule';
export { WebFetchTool } from './webFetch';
export { TaskStopTool } from './taskStop';
export { MonitorTool } from './monitor';
export { WebSearchTool } from './webSearch';
export { SkillTool } from './skill';
export { ToolSearchTool } from './toolSearch';
export { isReadOnlyCommand, exitCodeOneIsBenign } from './bashCommand';
export { globToRegExp, expandBraces } from './globPattern';
export declare const BUILTIN_TOOLS: AnyTool[];
/** The web tools: they reach the network from the worker (not from the sandbox) and call the model themselves. */
export declare const WEB_TOOLS: AnyTool[];
/** Every tool the worker registers by default (src/worker.ts): the built-ins, the web tools, Agent, Skill, the worktree and schedule tools, Monitor, TaskStop, ToolSearch. */
export declare const DEFAULT_WORKER_TOOLS: AnyTool[];
