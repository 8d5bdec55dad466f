"use strict";
// Permission rule strings: `Tool` or `Tool(spec)`.
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseRule = parseRule;
exports.parseRuleSafe = parseRuleSafe;
exports.formatRule = formatRule;
exports.validatePermissionRules = validatePermissionRules;
/** A tool name, or an MCP name with `*` wildcards (`mcp__server__*`; in deny/ask rules any glob: `mcp__*`, `mcp__s__get-*`). */
const TOOL_NAME = /^(?:[A-Za-z_][A-Za-z0-9_.:-]*|mcp__[A-Za-z0-9_.*-]*)$/;
/**
 * Parses `Tool` or `Tool(spec)`. The spec runs to the LAST `)` (so `Bash(echo (x))` keeps its
 * parentheses); `\(` and `\)` inside it are unescaped. `Tool()` and `Tool(*)` mean the whole tool.
 * Throws on malformed rules.
 */
function parseRule(text) {
    const raw = text;
    const s = text.trim();
    const open = s.indexOf('(');
    if (open === -1) {
        if (!TOOL_NAME.test(s))
            throw new Error(`Malformed permission rule ${JSON.stringify(text)}: bad tool name`);
        return { raw, toolName: s };
    }
    if (!s.endsWith(')'))
        throw new Error(`Malformed permission rule ${JSON.stringify(text)}: missing closing parenthesis`);
    const toolName = s.slice(0, open).trim();
    if (!TOOL_NAME.test(toolName))
        throw new Error(`Malformed permission rule ${JSON.stringify(text)}: bad tool name`);
    const content = s
        .slice(open + 1, -1)
        .replace(/\\([()])/g, '$1')
        .trim();
    if (content === '' || content === '*')
        return { raw, toolName };
    return { raw, toolName, content };
}
/** parseRule that returns undefined instead of throwing. */
function parseRuleSafe(text) {
    try {
        return parseRule(text);
    }
    catch {
        return undefined;
    }
}
function formatRule(rule) {
    return rule.content === undefined ? rule.toolName : `${rule.toolName}(${rule.content})`;
}
/** Every malformed rule of a rule set, as messages (empty when all parse). Use it at start-up. */
function validatePermissionRules(rules) {
    const errors = [];
    for (const behavior of ['allow', 'ask', 'deny']) {
        for (const r of rules[behavior] ?? []) {
            try {
                parseRule(r);
            }
            catch (e) {
                errors.push(`${behavior}: ${e.message}`);
            }
        }
    }
    return errors;
}
//# sourceMappingURL=rules.js.map