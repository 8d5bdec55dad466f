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
exports.isShellTool = isShellTool;
exports.callFacts = callFacts;
exports.ruleCoversTool = ruleCoversTool;
exports.ruleMatchesFacts = ruleMatchesFacts;
exports.ruleMatches = ruleMatches;
exports.findMatchingRule = findMatchingRule;
exports.permissionEnvOf = permissionEnvOf;
// Matching permission rules against one tool call.
const mcpRules_1 = require("./mcpRules");
const os = __importStar(require("node:os"));
const paths_1 = require("./paths");
const rules_1 = require("./rules");
const shell_1 = require("./shell");
const domains_1 = require("./domains");
function safe(fn, fallback) {
    try {
        return fn();
    }
    catch {
        return fallback;
    }
}
function isShellTool(tool) {
    return tool.name === 'Bash' || tool.rulesAs === 'Bash' || (tool.aliases ?? []).includes('Bash');
}
function callFacts(tool, input, env) {
    const readOnly = safe(() => tool.isReadOnly(input) === true, false);
    const facts = { tool, input, readOnly, shell: isShellTool(tool) };
    if (typeof tool.getPath === 'function') {
        try {
            const given = tool.getPath(input);
            if (given !== undefined && typeof given !== 'string')
                throw new Error('getPath returned a non-string');
            if (typeof given === 'string' && given.includes('\0'))
                throw new Error('path contains a NUL byte');
            facts.path = { given, forms: (0, paths_1.pathForms)(given ?? '.', env.cwd) };
        }
        catch (e) {
            facts.path = { given: undefined, forms: [], error: e.message };
        }
    }
    else if (typeof tool.getRuleContent === 'function') {
        const c = safe(() => tool.getRuleContent(input), undefined);
        if (typeof c === 'string')
            facts.ruleContent = c;
    }
    return facts;
}
/**
 * Does the rule's tool name cover this call? Directly (name or alias), or by family for path
 * tools: `Read` covers every read-only tool with getPath (Read, Glob, Grep…), `Edit` covers every
 * file-writing tool with getPath (Edit, Write…).
 */
function ruleCoversTool(rule, facts, glob = false) {
    const t = facts.tool;
    if (rule.toolName === t.name || rule.toolName === t.rulesAs || (t.aliases ?? []).includes(rule.toolName))
        return true;
    // MCP: `mcp__server` and `mcp__server__*` cover every tool of the server; deny/ask rules (glob) match `*` anywhere.
    if ((0, mcpRules_1.mcpRuleCoversTool)(rule.toolName, t.name, glob))
        return true;
    if (facts.path) {
        if (rule.toolName === 'Read' && facts.readOnly)
            return true;
        if (rule.toolName === 'Edit' && !facts.readOnly)
            return true;
    }
    return false;
}
/**
 * Does a rule match a call, for a rule of the given list? Path specs: deny/ask match when ANY
 * form of the path (logical or symlink-resolved) matches, allow only when ALL do. Bash specs:
 * see matchShellRule. Other tools with getRuleContent: prefix (`x:*`), glob or exact match.
 * A `Tool(spec)` rule never matches a tool with neither getPath nor getRuleContent.
 */
function ruleMatchesFacts(rule, behavior, facts, env) {
    if (!ruleCoversTool(rule, facts, behavior !== 'allow'))
        return false;
    if (rule.content === undefined)
        return true;
    if (facts.path) {
        const forms = facts.path.forms;
        if (forms.length === 0)
            return false;
        const pat = (0, paths_1.compilePathPattern)(rule.content);
        const menv = { cwd: env.root ?? env.cwd, home: env.home ?? os.homedir() };
        return behavior === 'allow'
            ? forms.every((f) => (0, paths_1.matchPathPattern)(pat, f, menv, false))
            : forms.some((f) => (0, paths_1.matchPathPattern)(pat, f, menv, true));
    }
    if (facts.ruleContent === undefined)
        return false;
    // WebFetch: `domain:<host>` against `domain:<pattern>` (exact, `*.example.com`, `*`).
    if (facts.ruleContent.startsWith('domain:'))
        return (0, domains_1.matchDomainRule)(rule.content, facts.ruleContent);
    if (facts.shell) {
        const shellEnv = env.home === undefined ? { cwd: env.cwd } : { cwd: env.cwd, home: env.home };
        return (0, shell_1.matchShellRule)(rule.content, facts.ruleContent, behavior, shellEnv);
    }
    return (0, shell_1.matchCommandPattern)(rule.content, facts.ruleContent);
}
/** Table-testable form: `ruleMatches('Bash(npm run test:*)', 'allow', BashTool, {command}, env)`. */
function ruleMatches(rule, behavior, tool, input, env) {
    const r = typeof rule === 'string' ? (0, rules_1.parseRule)(rule) : rule;
    return ruleMatchesFacts(r, behavior, callFacts(tool, input, env), env);
}
/** The first rule of a list that matches (malformed rules are skipped), or undefined. */
function findMatchingRule(rules, behavior, facts, env) {
    for (const text of rules) {
        const rule = (0, rules_1.parseRuleSafe)(text);
        if (rule && ruleMatchesFacts(rule, behavior, facts, env))
            return rule;
    }
    return undefined;
}
/** The environment a ToolUseContext implies: cwd, working directories (cwd + additional ones). */
function permissionEnvOf(ctx) {
    const project = ctx.agent.projectDir;
    const dirs = [
        ...(project ? [project] : []),
        ...(ctx.permission.workingDirectories ?? []),
        ...(ctx.agent.additionalDirectories ?? []),
    ];
    return {
        cwd: ctx.agent.cwd,
        workingDirectories: dirs.length > 0 ? [...new Set(dirs)] : [ctx.agent.cwd],
        root: project ?? ctx.agent.cwd,
    };
}
//# sourceMappingURL=matcher.js.map