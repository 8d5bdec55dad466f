// The built-in tools. Order is the order the model sees them in.
import type { AnyTool } from '../toolProtocol/Tool';
import { BashTool } from './bash';
import { EditTool } from './edit';
import { GlobTool } from './glob';
import { GrepTool } from './grep';
import { NotebookEditTool } from './notebookEdit';
import { ReadTool } from './read';
import { WriteTool } from './write';
import { WebFetchTool } from './webFetch';
import { WebSearchTool } from './webSearch';
import { AgentTool } from './agent';
import { EnterWorktreeTool, ExitWorktreeTool } from './worktree';
import { SCHEDULE_TOOLS } from './schedule';
import { SkillTool } from './skill';
import { ToolSearchTool } from './toolSearch';
import { TaskStopTool } from './taskStop';
import { MonitorTool } from './monitor';

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
export { isReadOnlyCommand, exitCodeOneIsBenign } from './bash/command';
export { globToRegExp, expandBraces } from './globPattern';

export const BUILTIN_TOOLS: AnyTool[] = [BashTool, GlobTool, GrepTool, ReadTool, EditTool, WriteTool, NotebookEditTool];

/** The web tools: they reach the network from the worker (not from the sandbox) and call the model themselves. */
export const WEB_TOOLS: AnyTool[] = [WebFetchTool, WebSearchTool];
/** Every tool the worker registers by default (src/temporal/worker.ts): the built-ins, the web tools, Agent, Skill, the worktree and schedule tools, Monitor, TaskStop, ToolSearch. */
export const DEFAULT_WORKER_TOOLS: AnyTool[] = [
  ...BUILTIN_TOOLS,
  ...WEB_TOOLS,
  AgentTool,
  SkillTool,
  EnterWorktreeTool,
  ExitWorktreeTool,
  ...SCHEDULE_TOOLS,
  MonitorTool,
  TaskStopTool,
  ToolSearchTool,
];
