#!/usr/bin/env node
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.buildProgram = buildProgram;
exports.describeError = describeError;
exports.withPrintAlias = withPrintAlias;
exports.main = main;
// durable-agent: the command-line program — the embedded default (`dev`), workers, and the
// commands that start, follow, steer and audit sessions.
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const commander_1 = require("commander");
const errors_1 = require("../engine/errors");
const demo_1 = require("./commands/demo");
const dev_1 = require("./commands/dev");
const run_1 = require("./commands/run");
const schedule_1 = require("./commands/schedule");
const service_1 = require("./commands/service");
const sessions_1 = require("./commands/sessions");
const steer_1 = require("./commands/steer");
const stop_1 = require("./commands/stop");
const worker_1 = require("./commands/worker");
/**
 * The commands, in the order `--help` lists them. A new command is a file in src/cli/commands/
 * exporting `addXCommand(program: Command): void` (commander's `program.command(…)`; the shared
 * flags and helpers are in ./options) and one line here.
 */
const COMMANDS = [
    dev_1.addDevCommand,
    service_1.addServiceCommands,
    demo_1.addDemoCommand,
    worker_1.addWorkerCommand,
    run_1.addRunCommand,
    sessions_1.addAttachCommand,
    sessions_1.addLsCommand,
    sessions_1.addStatusCommand,
    sessions_1.addTranscriptCommand,
    sessions_1.addAuditCommand,
    steer_1.addInterruptCommand,
    steer_1.addSendCommand,
    steer_1.addApproveCommand,
    steer_1.addDenyCommand,
    steer_1.addCancelCommand,
    schedule_1.addScheduleCommands,
    stop_1.addStopCommand,
];
function buildProgram() {
    const program = new commander_1.Command('durable-agent')
        .description('A durable agent runner: every model call and every tool call is a Temporal activity.')
        .version(JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version)
        .showSuggestionAfterError(true)
        .exitOverride();
    program.configureOutput({ outputError: (str, write) => write(str.split('\n').filter(Boolean)[0] + '\n') });
    for (const add of COMMANDS)
        add(program);
    return program;
}
const WHOLE_MESSAGE = new Set(['SERVER_UNREACHABLE', 'NOT_FOUND', 'NOT_PENDING', 'SESSION_ENDED']);
/** One line, no stack: what went wrong and what to do. */
function describeError(err) {
    // These say all they need in a message made for the terminal; the others' first line is the point.
    if (err instanceof errors_1.DurableAgentError && WHOLE_MESSAGE.has(err.code))
        return err.message;
    if (err instanceof Error)
        return (err.message.split('\n')[0] ?? String(err));
    return String(err);
}
/** `durable-agent -p …` and `durable-agent --output-format … -p …`, as `claude -p …`: `run -p …`. */
function withPrintAlias(argv) {
    const first = argv[2] ?? '';
    return first === '-p' || first === '--print' || first === '--output-format' || first.startsWith('--output-format=')
        ? [...argv.slice(0, 2), 'run', ...argv.slice(2)]
        : [...argv];
}
async function main(argv) {
    const program = buildProgram();
    try {
        await program.parseAsync(withPrintAlias(argv));
        return typeof process.exitCode === 'number' ? process.exitCode : 0;
    }
    catch (err) {
        if (err instanceof commander_1.CommanderError) {
            // Help and version exit 0; usage errors were printed by commander in one line.
            return err.exitCode;
        }
        process.stderr.write(`durable-agent: ${describeError(err)}\n`);
        return 1;
    }
}
if (require.main === module) {
    main(process.argv).then((code) => process.exit(code), (err) => {
        process.stderr.write(`durable-agent: ${describeError(err)}\n`);
        process.exit(1);
    });
}
//# sourceMappingURL=main.js.map