"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.addSessionFlags = addSessionFlags;
exports.addRunCommand = addRunCommand;
exports.buildRunSession = buildRunSession;
// `durable-agent run`: start a session and follow it live. The steps, in order (each one may stop
// the run with a one-line UsageError before anything starts):
//   1. check the prompt, --cwd and --add-dir;   2. load settings (managed ones beat the flags);
//   3. load memory (CLAUDE.md);   4. refuse a disabled bypassPermissions mode;
//   5. resolve MCP servers;   6. load subagents;   7. build the session's options;
//   8. compare the control files with the last session here;   9. start, print, follow.
// With -p/--print or --output-format (text|json|stream-json), step 9 prints only what `claude -p`
// prints in that format (src/cli/printFollow.ts, src/cli/printFormat.ts); the prompt may come on stdin.
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const commander_1 = require("commander");
const definitions_1 = require("../../agents/definitions");
const skills_1 = require("../../agents/skills");
const client_1 = require("../../client");
const sessionInput_1 = require("../../sessionInput");
const memory_1 = require("../../engine/memory");
const claudeJson_1 = require("../../mcp/claudeJson");
const cliConfig_1 = require("../../mcp/cliConfig");
const config_1 = require("../../mcp/config");
const blobs_1 = require("../../memory/blobs");
const claudeMd_1 = require("../../memory/claudeMd");
const resultFilter_1 = require("../../permissions/resultFilter");
const permissionTypes_1 = require("../../tools/permissionTypes");
const model_1 = require("../model");
const options_1 = require("../options");
const settings_1 = require("../settings");
const printFollow_1 = require("../printFollow");
const printFormat_1 = require("../printFormat");
const worktree_1 = require("../worktree");
/**
 * The flags that shape a session (everything of `run` but --id, --detach and --json): `run` and
 * `schedule add` share them, and buildRunSession reads them.
 */
function addSessionFlags(cmd) {
    return cmd
        .option('--cwd <dir>', 'working directory of the session', process.cwd())
        .option('--model <name>', 'model (env ANTHROPIC_MODEL)')
        .option('--max-tokens <n>', 'max output tokens per model call', (0, options_1.positiveInt)('--max-tokens'))
        .option('--system-prompt <text>', 'replace the default system prompt')
        .option('--append-system-prompt <text>', 'add to the system prompt')
        .addOption(new commander_1.Option('--permission-mode <mode>', 'permission mode').choices([...permissionTypes_1.PERMISSION_MODES]))
        .option('--allow <rule>', 'allow rule, e.g. "Bash(npm test)" (repeatable)', options_1.collect, [])
        .option('--ask <rule>', 'ask rule (repeatable)', options_1.collect, [])
        .option('--deny <rule>', 'deny rule (repeatable)', options_1.collect, [])
        .option('--add-dir <dir>', 'additional working directory (repeatable)', options_1.collect, [])
        .option('--mcp-config <file|json>', 'MCP servers from a JSON file or string { "mcpServers": … } (repeatable; no approval needed)', options_1.collect, [])
        .option('--strict-mcp-config', 'use only the --mcp-config servers (not ~/.claude.json, .mcp.json or settings)')
        .option('--max-turns <n>', 'stop after N turns', (0, options_1.positiveInt)('--max-turns'))
        .option('--max-total-tokens <n>', 'stop after N tokens in all', (0, options_1.positiveInt)('--max-total-tokens'))
        .option('--approval-timeout <seconds>', 'deny a pending approval after this long', (0, options_1.positiveInt)('--approval-timeout'))
        .addOption(new commander_1.Option('--on-interrupt <what>', 'after an interrupt: wait for a message or end').choices(['wait', 'end']))
        .option('--task-queue <name>', 'task queue (env DURABLE_AGENT_TASK_QUEUE)')
        .option('--tool-task-queue <name>', 'task queue of the tool activities: a worker on the host that has the working directory')
        .option('--no-sandbox', 'run Bash without the OS sandbox (default: sandboxed where the platform supports it)')
        .option('--no-streaming-tools', 'start tools only when the model message is complete (default: safe tools start while it streams; env DURABLE_AGENT_STREAMING_TOOL_EXECUTION=0)')
        .option('--tool-search <mode>', 'deferred tools behind ToolSearch: true, false, auto or auto:N (default auto: when MCP and other deferrable schemas reach N% (10) of the window; env ENABLE_TOOL_SEARCH)');
}
function addRunCommand(program) {
    addSessionFlags((0, options_1.addConnectionOptions)(program
        .command('run')
        .description('Start a session and follow it live (Ctrl-C detaches; the job keeps running)')
        .argument('[prompt...]', 'what the agent should do (with -p: else read from stdin)')))
        // Run only: a schedule's firings would all share one worktree.
        .option('--worktree [name]', 'run in the git worktree .claude/worktrees/<name> (branch worktree-<name>) of the repository, created or reused before the session starts')
        .option('--id <id>', 'session id (default: generated)')
        .option('--detach', 'print the session id and return')
        .option('--json', 'JSON lines')
        .option('-p, --print', "print the session's result and nothing else, as `claude -p` (default format text)")
        .addOption(new commander_1.Option('--output-format <format>', 'with -p: what to print (implies -p)').choices([...printFormat_1.OUTPUT_FORMATS]))
        .option('--verbose', 'with -p: needed by --output-format stream-json, as the reference')
        .action(runCommand);
}
async function runCommand(promptWords, o) {
    if (o.outputFormat)
        o.print = true;
    if (o.print) {
        o.outputFormat ??= 'text';
        if (o.detach)
            throw new options_1.UsageError('-p/--print follows the session to its end: it does not take --detach');
        if (o.outputFormat === 'stream-json' && !o.verbose)
            throw new options_1.UsageError('When using --print, --output-format=stream-json requires --verbose');
        if (promptWords.length === 0)
            promptWords = [await readStdinPrompt()];
    }
    else if (promptWords.length === 0)
        throw new options_1.UsageError("missing required argument 'prompt'");
    const { opts, loaded } = await buildRunSession(promptWords, o);
    await startAndFollow(o, opts, loaded);
}
/** `-p` without a prompt argument: the prompt is stdin (as the reference); a terminal or nothing is refused. */
async function readStdinPrompt() {
    const none = 'Input must be provided either through stdin or as a prompt argument when using --print';
    if (process.stdin.isTTY)
        throw new options_1.UsageError(none);
    const chunks = [];
    for await (const c of process.stdin)
        chunks.push(c);
    const text = Buffer.concat(chunks).toString('utf8').trim();
    if (!text)
        throw new options_1.UsageError(none);
    return text;
}
/**
 * Steps 1–7: the session's options from the flags, the settings, memory, MCP servers and agents,
 * with every one-line UsageError before anything starts (`run`, and `schedule add` for each firing).
 */
async function buildRunSession(promptWords, o) {
    const prompt = promptWords.join(' ').trim();
    if (!prompt)
        throw new options_1.UsageError('the prompt is empty: durable-agent run "what to do"');
    let cwd = (0, node_path_1.resolve)(o.cwd);
    if (!(0, node_fs_1.existsSync)(cwd))
        throw new options_1.UsageError(`--cwd ${cwd} does not exist`);
    let worktree;
    if (o.worktree !== undefined) {
        worktree = await (0, worktree_1.prepareRunWorktree)(cwd, o.worktree);
        process.stderr.write((0, worktree_1.worktreeNotice)(worktree));
        cwd = worktree.path;
    }
    for (const d of o.addDir)
        if (!(0, node_fs_1.existsSync)((0, node_path_1.resolve)(d)))
            throw new options_1.UsageError(`--add-dir ${(0, node_path_1.resolve)(d)} does not exist`);
    const settings = (0, settings_1.loadSettings)(cwd);
    if (worktree)
        settings.sandbox = (0, worktree_1.worktreeSandbox)(settings.sandbox, worktree);
    for (const w of settings.warnings)
        warn(w);
    for (const n of settings.notes)
        process.stderr.write(`durable-agent: note: ${n}\n`);
    applyManagedSettings(o, settings);
    const memory = loadRunMemory(cwd, settings, o);
    checkBypassAllowed(o, settings);
    const mcp = runMcpServers(cwd, settings, o);
    const agents = await runAgents(cwd);
    const skills = runSkills(cwd);
    const opts = { ...(await runSessionOptions(prompt, cwd, o, settings, memory, mcp, agents)), skills };
    return { opts, loaded: { cwd, settings, memory, mcp, agents, skills } };
}
function warn(w) {
    process.stderr.write(`durable-agent: warning: ${w}\n`);
}
/** Managed settings beat the command line (as the reference); a flag they override is reported. Changes `o`. */
function applyManagedSettings(o, settings) {
    const managed = settings.managed;
    for (const [flag, key, value] of [
        ['--model', 'model', managed.model],
        ['--max-tokens', 'maxTokens', managed.maxTokens],
        ['--permission-mode', 'permissions.defaultMode', managed.mode],
    ]) {
        const given = flag === '--model' ? o.model : flag === '--max-tokens' ? o.maxTokens : o.permissionMode;
        if (value !== undefined && given !== undefined && given !== value)
            warn(`${flag} ${String(given)} is overridden by ${key} in the managed settings ${managed.path}`);
    }
    if (managed.model)
        o.model = managed.model;
    if (managed.maxTokens)
        o.maxTokens = managed.maxTokens;
    if (managed.mode)
        o.permissionMode = managed.mode;
    if (settings.managedRulesOnly) {
        const dropped = [...o.allow, ...o.ask, ...o.deny];
        if (dropped.length > 0)
            warn(`--allow/--ask/--deny rules are ignored: allowManagedPermissionRulesOnly in ${managed.path}`);
        o.allow = [];
        o.ask = [];
        o.deny = [];
    }
}
/**
 * Memory files are read by the worker outside the sandbox: never a credential file, nothing a
 * Read deny rule covers, no project import or rule that really lies outside (claudeMd.ts).
 */
function loadRunMemory(cwd, settings, o) {
    const memoryDirs = [cwd, ...settings.additionalDirectories, ...o.addDir.map((d) => (0, node_path_1.resolve)(d))];
    const memoryDeny = (0, resultFilter_1.hiddenPathPredicate)('Read', { allow: [], ask: [], deny: [...settings.deny, ...o.deny] }, { cwd, workingDirectories: memoryDirs });
    const memory = (0, claudeMd_1.loadMemory)(cwd, {
        excludes: settings.claudeMdExcludes,
        workingDirectories: memoryDirs,
        ...(memoryDeny ? { readDenied: memoryDeny } : {}),
    });
    for (const w of memory.warnings)
        warn(w);
    return memory;
}
function checkBypassAllowed(o, settings) {
    const permissionMode = o.permissionMode ?? settings.mode ?? process.env.DURABLE_AGENT_PERMISSION_MODE;
    if (permissionMode === 'bypassPermissions' && settings.disableBypassPermissionsMode) {
        throw new options_1.UsageError(`bypassPermissions mode is disabled by permissions.disableBypassPermissionsMode ("disable") in ${settings.bypassDisabledBy ?? settings.sources.join(', ')}: choose another --permission-mode`);
    }
}
/**
 * MCP servers: ~/.claude.json (user and local scope), the approved servers of `.mcp.json`,
 * settings `mcpServers`, then --mcp-config (src/mcp/config.ts).
 */
function runMcpServers(cwd, settings, o) {
    let mcp;
    try {
        const cliServers = { ...(0, cliConfig_1.readMcpConfigArgs)(o.mcpConfig, cwd), strict: o.strictMcpConfig === true };
        const fromSettings = settings.mcp
            ? {
                settingsServers: settings.mcp.servers,
                settingsOrigin: settings.mcp.origins,
                approval: settings.mcp.approval,
            }
            : {};
        mcp = (0, config_1.resolveMcpServers)({
            cwd,
            ...fromSettings,
            env: process.env,
            claudeJson: (0, claudeJson_1.claudeJsonPath)(),
            cli: cliServers,
        });
    }
    catch (err) {
        if (err instanceof config_1.McpConfigError)
            throw new options_1.UsageError(err.message);
        throw err;
    }
    for (const w of mcp.warnings)
        warn(w);
    return mcp;
}
/** Subagents: general-purpose plus ~/.claude/agents and .claude/agents, checked before anything starts. */
async function runAgents(cwd) {
    try {
        return await (0, definitions_1.loadAgentDefinitions)(cwd);
    }
    catch (err) {
        if (err instanceof definitions_1.AgentDefinitionError)
            throw new options_1.UsageError(err.message);
        throw err;
    }
}
/** Skills: ~/.claude/skills and .claude/skills, checked before anything starts (a bad SKILL.md names the file and key). */
function runSkills(cwd) {
    try {
        return (0, skills_1.loadSkills)(cwd);
    }
    catch (err) {
        if (err instanceof skills_1.SkillDefinitionError)
            throw new options_1.UsageError(err.message);
        throw err;
    }
}
/** The session's memory: inline when small; else stored in the worker's store (same env as the worker) and sent by reference. */
async function memoryForRun(files, text) {
    if (text.length <= memory_1.MEMORY_INLINE_MAX_CHARS)
        return (0, blobs_1.sessionMemory)(files, text);
    const { configuredBlobStore } = await Promise.resolve().then(() => __importStar(require('../../stores/configured')));
    const { defaultStoreDir } = await Promise.resolve().then(() => __importStar(require('../../worker')));
    return (0, blobs_1.sessionMemory)(files, text, configuredBlobStore({ storeDir: defaultStoreDir() }));
}
async function runSessionOptions(prompt, cwd, o, settings, memory, mcp, agents) {
    const memoryText = (0, claudeMd_1.memoryReminder)(memory.files);
    const sandbox = o.sandbox === false ? { ...(settings.sandbox ?? {}), enabled: false } : settings.sandbox;
    const model = (0, model_1.sessionModel)(o.model, process.env, settings.model, warn);
    const maxTokens = o.maxTokens ?? settings.maxTokens;
    return {
        prompt,
        cwd,
        model: {
            ...(model ? { model } : {}),
            ...(maxTokens ? { maxTokens } : {}),
            ...(o.systemPrompt ? { system: o.systemPrompt } : {}),
        },
        ...(o.appendSystemPrompt ? { appendSystemPrompt: o.appendSystemPrompt } : {}),
        // Unset here, the session's input takes DURABLE_AGENT_PERMISSION_MODE (else 'default').
        ...((o.permissionMode ?? settings.mode)
            ? { permissionMode: (o.permissionMode ?? settings.mode) }
            : {}),
        ...(sandbox ? { sandbox } : {}),
        ...(settings.disableBypassPermissionsMode ? { disableBypassPermissionsMode: true } : {}),
        rules: {
            allow: [...settings.allow, ...o.allow],
            ask: [...settings.ask, ...o.ask],
            deny: [...settings.deny, ...o.deny],
        },
        additionalDirectories: [...settings.additionalDirectories, ...o.addDir.map((d) => (0, node_path_1.resolve)(d))],
        ...(settings.hooks ? { hooks: settings.hooks } : {}),
        ...(Object.keys(mcp.servers).length > 0 ? { mcpServers: mcp.servers } : {}),
        ...(settings.autoCompactEnabled !== undefined || o.toolSearch !== undefined
            ? {
                contextManagement: {
                    ...(settings.autoCompactEnabled !== undefined ? { autoCompact: settings.autoCompactEnabled } : {}),
                    // The flag beats ENABLE_TOOL_SEARCH (read by the session input's defaults).
                    ...(o.toolSearch !== undefined ? (0, sessionInput_1.toolSearchFromEnv)(o.toolSearch) : {}),
                },
            }
            : {}),
        settingsSources: settings.sources,
        // A large memory is stored in the worker's store and travels by reference (src/memory/blobs.ts).
        ...(memory.files.length > 0
            ? {
                memory: await memoryForRun(memory.files.map((f) => f.path), memoryText),
            }
            : {}),
        agents,
        ...(o.maxTurns ? { maxTurns: o.maxTurns } : {}),
        ...(o.maxTotalTokens ? { maxTotalTokens: o.maxTotalTokens } : {}),
        ...(o.approvalTimeout ? { approvalTimeoutMs: o.approvalTimeout * 1000 } : {}),
        ...(o.onInterrupt ? { onInterrupt: o.onInterrupt } : {}),
        ...(o.id ? { id: o.id } : {}),
        ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
        ...(o.toolTaskQueue ? { toolTaskQueue: o.toolTaskQueue } : {}),
        ...(o.streamingTools === false ? { streamingToolExecution: false } : {}),
    };
}
/** The init line of stream-json: what the session offers, as the CLI started it. */
function initInfo(id, opts, mcp, agents, skills) {
    return {
        sessionId: id,
        cwd: opts.cwd ?? process.cwd(),
        tools: sessionTools(opts),
        mcpServers: Object.keys(mcp.servers),
        model: opts.model?.model ?? process.env.ANTHROPIC_MODEL ?? client_1.DEFAULT_MODEL,
        permissionMode: opts.permissionMode ?? process.env.DURABLE_AGENT_PERMISSION_MODE ?? 'default',
        agents: agents.map((a) => a.name),
        skills: skills.map((k) => k.name),
        additionalDirectories: opts.additionalDirectories ?? [],
        apiKeySource: process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : 'none',
        version: packageVersion(),
    };
}
/** The session's tools as its input will name them (the default set with ToolSearch unless tool search is off). */
function sessionTools(opts) {
    try {
        return [...(0, client_1.sessionInput)(opts).tools];
    }
    catch {
        return [...(opts.tools ?? client_1.BUILTIN_TOOL_NAMES)];
    }
}
function packageVersion() {
    try {
        return JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')).version;
    }
    catch {
        return 'unknown';
    }
}
/** Compares the control files with the last session here, starts the session, prints what it loaded and follows it. */
async function startAndFollow(o, opts, { cwd, settings, memory, mcp, agents, skills }) {
    // The control files against the previous session's here (src/cli/controlManifest.ts): every change is named.
    const { changeLines, controlFilesSinceLastSession, recordSessionEnd, recordSessionStart, runFilesOf } = await Promise.resolve().then(() => __importStar(require('../controlManifest')));
    // The scripts its hooks and MCP servers run count too: what one session rewrote is named before the next runs it.
    const runFiles = runFilesOf(cwd, opts.additionalDirectories ?? [], opts.hooks, opts.mcpServers);
    const since = await controlFilesSinceLastSession(cwd, opts.additionalDirectories ?? [], undefined, runFiles).catch((err) => {
        warn(`the control files could not be compared with the last session here: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
    });
    const changed = since ? changeLines(since, cwd) : [];
    await (0, options_1.withClient)(o, async (client) => {
        const startedAt = Date.now();
        const handle = await (0, client_1.startSession)(client, opts);
        const id = handle.workflowId;
        if (since) {
            await recordSessionStart(cwd, id, since.now).catch((err) => warn(`the control-file manifest was not written: ${err instanceof Error ? err.message : String(err)}`));
        }
        for (const line of changed)
            process.stderr.write(`${line}\n`);
        // Which files were loaded: in the JSON form too (the first line of `run --json`).
        const loaded = {
            cwd,
            settings: settings.sources,
            memory: memory.files.map((f) => f.path),
            ...(skills.length > 0 ? { skills: skills.map((k) => k.source) } : {}),
            ...(since?.changes.length
                ? { controlFilesChanged: since.changes.map((c) => ({ ...c, since: since.previous?.session })) }
                : {}),
        };
        if (o.detach) {
            (0, options_1.print)(o, { session: id, ...loaded }, id);
            return;
        }
        if (o.print) {
            const code = await (0, printFollow_1.followPrinted)(client, id, {
                format: o.outputFormat ?? 'text',
                init: initInfo(id, opts, mcp, agents, skills),
                startedAt,
                ...(o.maxTurns ? { maxTurns: o.maxTurns } : {}),
            });
            // Everything printed reaches a pipe before the process exits.
            await new Promise((r) => process.stdout.write('', () => r()));
            process.exitCode = code;
            if (code !== 130)
                await recordSessionEnd(cwd, opts.additionalDirectories ?? [], id, undefined, undefined, runFiles).catch(() => undefined);
            return;
        }
        if (o.json)
            console.log(JSON.stringify({ session: id, event: 'started', ...loaded }));
        else {
            console.log(`session ${id} started (cwd ${cwd})`);
            const desc = await handle.describe().catch(() => undefined);
            const line = desc?.memo?.sandbox;
            if (typeof line === 'string')
                console.log(`sandbox: ${line}`);
            const servers = Object.keys(mcp.servers);
            if (servers.length > 0)
                console.log(`MCP servers: ${servers.map((n) => `${n} (${mcp.origins[n]})`).join(', ')}`);
            console.log(`settings: ${settings.sources.length ? settings.sources.join(', ') : 'none'}`);
            console.log(`memory: ${memory.files.length ? memory.files.map((f) => f.path).join(', ') : 'none'}`);
            console.log(`agents: ${agents.map((a) => (a.source === 'built-in' ? a.name : `${a.name} (${a.source})`)).join(', ')}`);
            if (skills.length > 0)
                console.log(`skills: ${skills.map((k) => `${k.name} (${k.source})`).join(', ')}`);
        }
        const outcome = await (0, options_1.followAndExit)(client, id, o);
        if (outcome === 'ended')
            await recordSessionEnd(cwd, opts.additionalDirectories ?? [], id, undefined, undefined, runFiles).catch(() => undefined);
    });
}
//# sourceMappingURL=run.js.map