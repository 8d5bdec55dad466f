"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.storedToolSettings = storedToolSettings;
exports.toolSession = toolSession;
/** The settings the session stores: exactly what its turns would otherwise put inline in every tool activity's input. */
function storedToolSettings(input) {
    const agents = input.tools.includes('Agent') && !input.parent ? input.agents : undefined;
    const skills = input.tools.includes('Skill') && input.skills && input.skills.length > 0 ? input.skills : undefined;
    return {
        toolNames: input.tools,
        rules: input.rules,
        ...(input.sandbox ? { sandbox: input.sandbox } : {}),
        ...(input.hooks ? { hooks: input.hooks } : {}),
        ...(input.mcpServers && Object.keys(input.mcpServers).length > 0 ? { mcpServers: input.mcpServers } : {}),
        ...(agents ? { agents } : {}),
        ...(skills ? { skills } : {}),
    };
}
/** The session as the turn's tool activities see it: by reference when the session stored its settings, else whole. */
function toolSession(input) {
    const workingDirectories = [input.context.cwd, ...input.context.additionalDirectories];
    if (input.toolSettingsRef) {
        return {
            sessionId: input.sessionId,
            ...(input.ledgerKey ? { ledgerKey: input.ledgerKey } : {}),
            settingsRef: input.toolSettingsRef,
            mode: input.permissionMode,
            workingDirectories,
            ...(input.agentHookFields ? { agentHookFields: input.agentHookFields } : {}),
        };
    }
    const inline = {
        sessionId: input.sessionId,
        ...(input.ledgerKey ? { ledgerKey: input.ledgerKey } : {}),
        toolNames: input.tools,
        permission: {
            mode: input.permissionMode,
            rules: input.rules,
            workingDirectories,
            ...(input.sandbox ? { sandbox: input.sandbox } : {}),
        },
        ...(input.hooks ? { hooks: input.hooks } : {}),
        ...(input.mcpServers ? { mcpServers: input.mcpServers } : {}),
        ...(input.subagents?.agents ? { agents: input.subagents.agents } : {}),
        ...(input.skills ? { skills: input.skills } : {}),
        ...(input.agentHookFields ? { agentHookFields: input.agentHookFields } : {}),
    };
    return inline;
}
//# sourceMappingURL=toolSettings.js.map