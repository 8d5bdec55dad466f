"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createToolPool = createToolPool;
const mcpRules_1 = require("./mcpRules");
const rules_1 = require("./rules");
/**
 * Built-ins (and user tools) minus the tools a blanket deny rule names (`Bash`, not
 * `Bash(rm:*)`; the rule may name the tool, one of its aliases or its `rulesAs`: `Bash` removes Monitor) minus disabled tools
 * (`isEnabled()` false or throwing). Two tools answering to the same name (or alias) are an
 * error, thrown here so that a misconfigured session fails at start-up, not mid-job.
 */
function createToolPool(tools, permissionContext, options = {}) {
    const all = [...tools, ...(options.userTools ?? [])];
    const owner = new Map();
    for (const tool of all) {
        for (const name of namesOf(tool)) {
            const prev = owner.get(name);
            if (prev !== undefined) {
                throw new Error(prev === tool.name && name === tool.name
                    ? `Duplicate tool name: ${name}`
                    : `Duplicate tool name: ${name} (used by ${prev} and ${tool.name})`);
            }
            owner.set(name, tool.name);
        }
    }
    const blanketDenied = new Set();
    for (const text of permissionContext.rules.deny) {
        const rule = (0, rules_1.parseRuleSafe)(text);
        if (rule && rule.content === undefined)
            blanketDenied.add(rule.toolName);
    }
    const denied = (tool) => namesOf(tool).some((n) => blanketDenied.has(n)) ||
        (tool.rulesAs !== undefined && blanketDenied.has(tool.rulesAs)) ||
        [...blanketDenied].some((r) => (0, mcpRules_1.mcpRuleCoversTool)(r, tool.name, true));
    const pool = all.filter((tool) => !denied(tool) && enabled(tool));
    return Object.freeze(pool);
}
function namesOf(tool) {
    return [tool.name, ...(tool.aliases ?? [])];
}
function enabled(tool) {
    try {
        return tool.isEnabled() === true;
    }
    catch {
        return false;
    }
}
//# sourceMappingURL=toolPool.js.map