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
exports.hiddenPathPredicate = hiddenPathPredicate;
exports.hiddenPathFilter = hiddenPathFilter;
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const matcher_1 = require("./matcher");
const paths_1 = require("./paths");
const rules_1 = require("./rules");
function hiddenPathPredicate(toolName, rules, env) {
    const r = rules ?? { allow: [], ask: [], deny: [] };
    const relevant = [...(r.deny ?? []), ...(r.ask ?? [])].filter((x) => {
        const p = (0, rules_1.parseRuleSafe)(x);
        return p !== undefined && p.content !== undefined && (p.toolName === 'Read' || p.toolName === toolName);
    });
    if (relevant.length === 0)
        return undefined;
    const tool = { name: toolName, aliases: [] };
    const hidden = (abs) => {
        const facts = {
            tool,
            input: undefined,
            readOnly: true,
            shell: false,
            path: { given: abs, forms: (0, paths_1.pathForms)(abs, env.cwd) },
        };
        return (0, matcher_1.findMatchingRule)(relevant, 'deny', facts, env) !== undefined;
    };
    // Where each rule's pattern is anchored, up to its first wildcard (undefined: it matches anywhere).
    const anchors = relevant.map((r) => {
        const pat = (0, paths_1.compilePathPattern)((0, rules_1.parseRuleSafe)(r).content);
        if (pat.anywhere)
            return undefined;
        const base = pat.base === 'root' ? '/' : pat.base === 'home' ? (env.home ?? os.homedir()) : (env.root ?? env.cwd);
        const literal = [];
        for (const seg of pat.pattern.split('/')) {
            if (/[*?[\\]/.test(seg))
                break;
            literal.push(seg);
        }
        return path.join(base, ...literal);
    });
    /** Could some file under this directory be hidden (a search of it would need filtering)? */
    const under = (dir) => {
        const dirs = [dir, (0, paths_1.resolveReal)(dir)];
        return anchors.some((a) => a === undefined || dirs.some((d) => (0, paths_1.isInside)(a, d) || (0, paths_1.isInside)(d, a) || (0, paths_1.isInside)((0, paths_1.resolveReal)(a), d)));
    };
    return Object.assign(hidden, { under });
}
/** hiddenPathPredicate for a tool call's context. */
function hiddenPathFilter(toolName, ctx) {
    return hiddenPathPredicate(toolName, ctx.permission.rules, (0, matcher_1.permissionEnvOf)(ctx));
}
//# sourceMappingURL=resultFilter.js.map