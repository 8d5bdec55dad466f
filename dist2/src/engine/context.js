"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.modelWithSkillGrants = modelWithSkillGrants;
exports.initialContext = initialContext;
exports.applyContextModifier = applyContextModifier;
exports.applyContextModifiers = applyContextModifiers;
// The agent context every tool call sees, and the one pure reducer that changes it.
// Tools return context modifiers as data (never closures) so that a workflow can apply them
// deterministically, in original block order, after a batch (invariant 4).
const autonomy_1 = require("./autonomy");
/** The session's model settings with the model of the skills loaded so far (a Skill call's `model`, resolved by the tool). */
function modelWithSkillGrants(model, ctx) {
    const granted = ctx.skillGrants?.model;
    return granted && granted !== model.model ? { ...model, model: granted } : model;
}
function initialContext(cwd, additionalDirectories = []) {
    return { cwd, additionalDirectories: [...additionalDirectories], readFiles: {} };
}
/** Applies one modifier. Pure: returns a new context, never mutates its argument. */
function applyContextModifier(ctx, mod) {
    switch (mod.type) {
        case 'fileRead': {
            const prev = ctx.readFiles[mod.path];
            // A partial read never downgrades a full read of the same content.
            const partial = mod.partial && !(prev && !prev.partial && prev.mtimeMs === mod.mtimeMs);
            return { ...ctx, readFiles: { ...ctx.readFiles, [mod.path]: { mtimeMs: mod.mtimeMs, partial } } };
        }
        case 'fileWritten':
            // Writing a file means the session knows its whole content.
            return { ...ctx, readFiles: { ...ctx.readFiles, [mod.path]: { mtimeMs: mod.mtimeMs, partial: false } } };
        case 'setCwd':
            return { ...ctx, projectDir: ctx.projectDir ?? ctx.cwd, cwd: mod.cwd };
        case 'addDirectory':
            return ctx.additionalDirectories.includes(mod.path)
                ? ctx
                : { ...ctx, additionalDirectories: [...ctx.additionalDirectories, mod.path] };
        case 'worktreeEntered': {
            // Switching from one worktree to another keeps what the first entry saved.
            const originalCwd = ctx.worktree ? ctx.worktree.originalCwd : ctx.cwd;
            const originalProjectDir = ctx.worktree ? ctx.worktree.originalProjectDir : ctx.projectDir;
            return {
                ...ctx,
                cwd: mod.worktree.path,
                projectDir: mod.worktree.path,
                worktree: {
                    ...mod.worktree,
                    originalCwd,
                    ...(originalProjectDir !== undefined ? { originalProjectDir } : {}),
                },
            };
        }
        case 'worktreeExited': {
            if (!ctx.worktree)
                return ctx;
            const { worktree, projectDir: _moved, ...rest } = ctx;
            return {
                ...rest,
                cwd: worktree.originalCwd,
                ...(worktree.originalProjectDir !== undefined ? { projectDir: worktree.originalProjectDir } : {}),
            };
        }
        case 'skillLoaded': {
            const prev = ctx.skillGrants ?? { allowedTools: [], skills: [] };
            const model = mod.model ?? prev.model;
            return {
                ...ctx,
                skillGrants: {
                    allowedTools: [...new Set([...prev.allowedTools, ...(mod.allowedTools ?? [])])],
                    ...(model !== undefined ? { model } : {}),
                    skills: [...prev.skills, mod.skill],
                },
            };
        }
        case 'taskStarted':
        case 'taskStopRequested':
        case 'wakeupScheduled':
        case 'wakeupCancelled':
        case 'cronCreated':
        case 'cronDeleted':
            return { ...ctx, autonomy: (0, autonomy_1.applyAutonomyModifier)(ctx.autonomy, mod) };
        default: {
            const never = mod;
            throw new Error(`unknown context modifier ${JSON.stringify(never)}`);
        }
    }
}
function applyContextModifiers(ctx, mods) {
    return mods.reduce(applyContextModifier, ctx);
}
//# sourceMappingURL=context.js.map