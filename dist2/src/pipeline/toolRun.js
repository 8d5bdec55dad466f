"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withSkillGrants = withSkillGrants;
exports.newToolRun = newToolRun;
exports.takeResumed = takeResumed;
/**
 * The session's permission context with the allow rules of the skills loaded so far (their
 * `allowed-tools`, granted by a Skill call: the context modifier the audit shows). Deny and ask
 * rules still come first, as for every allow rule.
 */
function withSkillGrants(permission, agent) {
    const granted = agent.skillGrants?.allowedTools ?? [];
    if (granted.length === 0)
        return permission;
    const allow = [...new Set([...(permission.rules?.allow ?? []), ...granted])];
    return { ...permission, rules: { ...permission.rules, allow } };
}
function newToolRun(state, env, tool, controller) {
    const toolUseId = state.toolUseId;
    const ctx = {
        sessionId: env.sessionId,
        toolUseId,
        idempotencyKey: env.idempotencyScope && env.idempotencyScope !== env.sessionId
            ? `${env.sessionId}/${env.idempotencyScope}/${toolUseId}`
            : `${env.sessionId}/${toolUseId}`,
        agent: env.agent,
        permission: withSkillGrants(env.permission, env.agent),
        abortSignal: controller.signal,
    };
    if (env.resultStore)
        ctx.resultStore = env.resultStore;
    if (env.privatePaths)
        ctx.privatePaths = env.privatePaths;
    if (env.sandboxHost)
        ctx.sandboxHost = env.sandboxHost;
    if (env.agents)
        ctx.agents = env.agents;
    if (env.skills)
        ctx.skills = env.skills;
    if (env.runSubagent)
        ctx.runSubagent = env.runSubagent;
    if (env.backgroundTasks)
        ctx.backgroundTasks = true;
    if (env.monitorTasks === false)
        ctx.monitorTasks = false;
    if (env.sideModel)
        ctx.sideModel = env.sideModel;
    ctx.pool = env.pool;
    const resumed = env.phase?.kind === 'post' ? env.phase : undefined;
    return { state, env, tool, ctx, controller, resumed, data: undefined, callStarted: Date.now() };
}
/** Phase 'post': the state phase 'pre' handed to the scheduler (input, hook text, notices, permission, hook runs). */
function takeResumed(run, resumed) {
    const { state } = run;
    run.data = resumed.resume.input;
    state.input = run.data;
    state.context.push(...resumed.resume.context);
    state.hookNotices.push(...resumed.resume.notices);
    if (resumed.resume.permission)
        state.permission = resumed.resume.permission;
    if (resumed.resume.hookRuns)
        state.hookRuns.push(...resumed.resume.hookRuns);
}
//# sourceMappingURL=toolRun.js.map