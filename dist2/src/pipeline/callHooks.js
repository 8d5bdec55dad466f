"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CallHooks = void 0;
// The tool hooks of one call: the configuration, what every hook receives on stdin, and the
// PreToolUse, PostToolUse and PostToolUseFailure runs whose answers the call's state takes.
const context_1 = require("../engine/context");
const config_1 = require("../hooks/config");
const run_1 = require("../hooks/run");
const matcher_1 = require("../permissions/matcher");
const messages_1 = require("./messages");
class CallHooks {
    run;
    env;
    transcriptPath;
    constructor(run, env, transcriptPath) {
        this.run = run;
        this.env = env;
        this.transcriptPath = transcriptPath;
    }
    /** The hooks of this call, or the outcome when the configuration is invalid (the tool does not run). */
    static async of(run) {
        const { env, tool, ctx, state } = run;
        let config;
        try {
            config = env.hooks === undefined ? undefined : (0, config_1.normalizeHooksConfig)(env.hooks);
        }
        catch (e) {
            return state.failed('error', 'hook', `The hooks configuration is invalid, so ${tool.name} was not run: ${(0, messages_1.errMessage)(e)}`);
        }
        // A hook's `if` rule is matched as an ask rule would be (a Bash rule matches a command anywhere in the line).
        const callMatches = (rule) => {
            try {
                return (0, matcher_1.ruleMatches)(rule, 'ask', tool, run.data, (0, matcher_1.permissionEnvOf)(ctx));
            }
            catch {
                return false;
            }
        };
        const hookEnv = {
            config,
            cwd: env.agent.cwd,
            signal: run.controller.signal,
            aliases: tool.aliases ?? [],
            callMatches,
        };
        if ((0, config_1.hooksFor)(config, 'PostToolUse', tool.name, tool.aliases ?? [], callMatches).length > 0)
            ctx.fileChangeForHooks = true;
        const anyToolHooks = !!(config?.PreToolUse?.length ||
            config?.PostToolUse?.length ||
            config?.PostToolUseFailure?.length);
        let transcriptPath;
        if (anyToolHooks && env.transcriptPath) {
            try {
                transcriptPath = await env.transcriptPath();
            }
            catch (e) {
                state.hookNotices.push(`Could not write the transcript file for the hooks: ${(0, messages_1.errMessage)(e)}`);
            }
        }
        return new CallHooks(run, hookEnv, transcriptPath);
    }
    /**
     * What every hook of this call receives on stdin (PostToolUse adds tool_response): the input as
     * the tool's observableInput shows it (absolute paths, defaults filled in).
     */
    input() {
        const { env, tool, data, state } = this.run;
        let toolInput;
        try {
            toolInput = tool.observableInput ? tool.observableInput(data, env.agent.cwd) : data;
        }
        catch {
            toolInput = data;
        }
        return {
            session_id: env.sessionId,
            ...(this.transcriptPath ? { transcript_path: this.transcriptPath } : {}),
            cwd: env.agent.cwd,
            permission_mode: env.permission.mode,
            ...(env.agentHookFields ?? {}),
            tool_name: tool.name,
            tool_input: toolInput,
            tool_use_id: state.toolUseId,
        };
    }
    /** PreToolUse: runs, notices, additional context and a stop go into the state; the rest is the caller's. */
    async preToolUse() {
        const { state } = this.run;
        const pre = await (0, run_1.runPreToolUseHooks)(this.input(), this.env);
        state.hookRuns.push(...pre.runs);
        state.hookNotices.push(...pre.notices);
        for (const c of pre.additionalContext)
            state.context.push(`PreToolUse hook additional context: ${c}`);
        if (pre.stop)
            state.stop = pre.stop;
        return pre;
    }
    /** A call that failed: PostToolUseFailure hooks instead of PostToolUse (as the reference). */
    async failure(error) {
        const post = await (0, run_1.runPostToolUseFailureHooks)({ ...this.input(), error, is_interrupt: false, duration_ms: Date.now() - this.run.callStarted }, this.env);
        this.run.state.takeAfterCall(post, 'PostToolUseFailure');
    }
    /** PostToolUse with the tool's response, run where a worktree call leaves the session. */
    async postToolUse(result, response) {
        const { env } = this.run;
        // As the reference, PostToolUse runs where a worktree call leaves the session (after
        // ExitWorktree remove the directory it started in is gone).
        const mods = Array.isArray(result.contextModifiers) ? result.contextModifiers : [];
        const cwdAfter = mods.some((m) => m.type === 'worktreeEntered' || m.type === 'worktreeExited')
            ? (0, context_1.applyContextModifiers)(env.agent, mods).cwd
            : env.agent.cwd;
        const post = await (0, run_1.runPostToolUseHooks)({ ...this.input(), cwd: cwdAfter, tool_response: response, duration_ms: Date.now() - this.run.callStarted }, { ...this.env, cwd: cwdAfter });
        this.run.state.takeAfterCall(post, 'PostToolUse');
    }
}
exports.CallHooks = CallHooks;
//# sourceMappingURL=callHooks.js.map