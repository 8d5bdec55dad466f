"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_WORKER_TOOLS = exports.WEB_TOOLS = exports.BUILTIN_TOOLS = exports.expandBraces = exports.globToRegExp = exports.exitCodeOneIsBenign = exports.isReadOnlyCommand = exports.ToolSearchTool = exports.SkillTool = exports.WebSearchTool = exports.MonitorTool = exports.TaskStopTool = exports.WebFetchTool = exports.SCHEDULE_TOOLS = exports.CronDeleteTool = exports.CronListTool = exports.CronCreateTool = exports.ScheduleWakeupTool = exports.ExitWorktreeTool = exports.EnterWorktreeTool = exports.WriteTool = exports.ReadTool = exports.NotebookEditTool = exports.GrepTool = exports.GlobTool = exports.EditTool = exports.BashTool = exports.agentToolPrompt = exports.AgentTool = void 0;
const bash_1 = require("./bash");
const edit_1 = require("./edit");
const glob_1 = require("./glob");
const grep_1 = require("./grep");
const notebookEdit_1 = require("./notebookEdit");
const read_1 = require("./read");
const write_1 = require("./write");
const webFetch_1 = require("./webFetch");
const webSearch_1 = require("./webSearch");
const agent_1 = require("./agent");
const worktree_1 = require("./worktree");
const schedule_1 = require("./schedule");
const skill_1 = require("./skill");
const toolSearch_1 = require("./toolSearch");
const taskStop_1 = require("./taskStop");
const monitor_1 = require("./monitor");
var agent_2 = require("./agent");
Object.defineProperty(exports, "AgentTool", { enumerable: true, get: function () { return agent_2.AgentTool; } });
Object.defineProperty(exports, "agentToolPrompt", { enumerable: true, get: function () { return agent_2.agentToolPrompt; } });
var bash_2 = require("./bash");
Object.defineProperty(exports, "BashTool", { enumerable: true, get: function () { return bash_2.BashTool; } });
var edit_2 = require("./edit");
Object.defineProperty(exports, "EditTool", { enumerable: true, get: function () { return edit_2.EditTool; } });
var glob_2 = require("./glob");
Object.defineProperty(exports, "GlobTool", { enumerable: true, get: function () { return glob_2.GlobTool; } });
var grep_2 = require("./grep");
Object.defineProperty(exports, "GrepTool", { enumerable: true, get: function () { return grep_2.GrepTool; } });
var notebookEdit_2 = require("./notebookEdit");
Object.defineProperty(exports, "NotebookEditTool", { enumerable: true, get: function () { return notebookEdit_2.NotebookEditTool; } });
var read_2 = require("./read");
Object.defineProperty(exports, "ReadTool", { enumerable: true, get: function () { return read_2.ReadTool; } });
var write_2 = require("./write");
Object.defineProperty(exports, "WriteTool", { enumerable: true, get: function () { return write_2.WriteTool; } });
var worktree_2 = require("./worktree");
Object.defineProperty(exports, "EnterWorktreeTool", { enumerable: true, get: function () { return worktree_2.EnterWorktreeTool; } });
Object.defineProperty(exports, "ExitWorktreeTool", { enumerable: true, get: function () { return worktree_2.ExitWorktreeTool; } });
var schedule_2 = require("./schedule");
Object.defineProperty(exports, "ScheduleWakeupTool", { enumerable: true, get: function () { return schedule_2.ScheduleWakeupTool; } });
Object.defineProperty(exports, "CronCreateTool", { enumerable: true, get: function () { return schedule_2.CronCreateTool; } });
Object.defineProperty(exports, "CronListTool", { enumerable: true, get: function () { return schedule_2.CronListTool; } });
Object.defineProperty(exports, "CronDeleteTool", { enumerable: true, get: function () { return schedule_2.CronDeleteTool; } });
Object.defineProperty(exports, "SCHEDULE_TOOLS", { enumerable: true, get: function () { return schedule_2.SCHEDULE_TOOLS; } });
var webFetch_2 = require("./webFetch");
Object.defineProperty(exports, "WebFetchTool", { enumerable: true, get: function () { return webFetch_2.WebFetchTool; } });
var taskStop_2 = require("./taskStop");
Object.defineProperty(exports, "TaskStopTool", { enumerable: true, get: function () { return taskStop_2.TaskStopTool; } });
var monitor_2 = require("./monitor");
Object.defineProperty(exports, "MonitorTool", { enumerable: true, get: function () { return monitor_2.MonitorTool; } });
var webSearch_2 = require("./webSearch");
Object.defineProperty(exports, "WebSearchTool", { enumerable: true, get: function () { return webSearch_2.WebSearchTool; } });
var skill_2 = require("./skill");
Object.defineProperty(exports, "SkillTool", { enumerable: true, get: function () { return skill_2.SkillTool; } });
var toolSearch_2 = require("./toolSearch");
Object.defineProperty(exports, "ToolSearchTool", { enumerable: true, get: function () { return toolSearch_2.ToolSearchTool; } });
var bashCommand_1 = require("./bashCommand");
Object.defineProperty(exports, "isReadOnlyCommand", { enumerable: true, get: function () { return bashCommand_1.isReadOnlyCommand; } });
Object.defineProperty(exports, "exitCodeOneIsBenign", { enumerable: true, get: function () { return bashCommand_1.exitCodeOneIsBenign; } });
var globPattern_1 = require("./globPattern");
Object.defineProperty(exports, "globToRegExp", { enumerable: true, get: function () { return globPattern_1.globToRegExp; } });
Object.defineProperty(exports, "expandBraces", { enumerable: true, get: function () { return globPattern_1.expandBraces; } });
exports.BUILTIN_TOOLS = [bash_1.BashTool, glob_1.GlobTool, grep_1.GrepTool, read_1.ReadTool, edit_1.EditTool, write_1.WriteTool, notebookEdit_1.NotebookEditTool];
/** The web tools: they reach the network from the worker (not from the sandbox) and call the model themselves. */
exports.WEB_TOOLS = [webFetch_1.WebFetchTool, webSearch_1.WebSearchTool];
/** Every tool the worker registers by default (src/worker.ts): the built-ins, the web tools, Agent, Skill, the worktree and schedule tools, Monitor, TaskStop, ToolSearch. */
exports.DEFAULT_WORKER_TOOLS = [
    ...exports.BUILTIN_TOOLS,
    ...exports.WEB_TOOLS,
    agent_1.AgentTool,
    skill_1.SkillTool,
    worktree_1.EnterWorktreeTool,
    worktree_1.ExitWorktreeTool,
    ...schedule_1.SCHEDULE_TOOLS,
    monitor_1.MonitorTool,
    taskStop_1.TaskStopTool,
    toolSearch_1.ToolSearchTool,
];
//# sourceMappingURL=index.js.map