"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RunState = void 0;
const messages_1 = require("./messages");
const records_1 = require("./records");
class RunState {
    startedAt = Date.now();
    toolUseId;
    toolName;
    /** The input actually used (after hooks' or the permission check's updatedInput). */
    input;
    hookNotices = [];
    hookRuns = [];
    /** Text appended to the result the model sees (hooks' additional context and feedback). */
    context = [];
    permission;
    ask;
    stop;
    constructor(block) {
        this.toolUseId = typeof block?.id === 'string' ? block.id : String(block?.id);
        this.toolName = typeof block?.name === 'string' ? block.name : String(block?.name);
        this.input = block?.input;
    }
    /** The run ends here with this status. */
    outcome(status, extra) {
        const o = {
            toolUseId: this.toolUseId,
            toolName: this.toolName,
            status,
            contextModifiers: [],
            newMessages: [],
            input: this.input,
            hookNotices: this.hookNotices,
            startedAt: this.startedAt,
            endedAt: Date.now(),
            ...extra,
        };
        if (this.hookRuns.length)
            o.hookRuns = this.hookRuns.map(records_1.trimRun);
        if (this.permission && !o.permission)
            o.permission = this.permission;
        if (this.ask && !o.ask)
            o.ask = this.ask;
        if (this.stop)
            o.stop = this.stop;
        return o;
    }
    /** The result with the hooks' text appended. */
    withContext(result) {
        let r = result;
        for (const c of this.context)
            r = (0, messages_1.appendToToolResult)(r, c);
        return r;
    }
    /** The run ends with an is_error result (the message, unless a result is given). */
    failed(status, stage, message, result) {
        return this.outcome(status, {
            result: this.withContext(result ?? (0, messages_1.errorToolResult)(this.toolUseId, message)),
            failure: { stage, message },
        });
    }
    interrupted(detail) {
        return this.failed('interrupted', 'aborted', (0, messages_1.interruptedToolResult)(this.toolUseId, detail).content);
    }
    /** After the call: feedback, context and a stop from PostToolUse or PostToolUseFailure hooks. */
    takeAfterCall(post, event) {
        this.hookRuns.push(...post.runs);
        this.hookNotices.push(...post.notices);
        if (post.stop && !this.stop)
            this.stop = post.stop;
        for (const f of post.feedback)
            this.context.push(`${event} hook feedback (blocking): ${f.reason}`);
        for (const c of post.additionalContext)
            this.context.push(`${event} hook additional context: ${c}`);
    }
}
exports.RunState = RunState;
//# sourceMappingURL=runState.js.map