export type RuleBehavior = 'allow' | 'ask' | 'deny';
export interface PermissionRule {
    /** The rule as written, for the audit trail. */
    raw: string;
    toolName: string;
    /** The spec between the parentheses; undefined for a blanket rule (`Bash`, `Bash()`, `Bash(*)`). */
    content?: string;
}
/**
 * Parses `Tool` or `Tool(spec)`. The spec runs to the LAST `)` (so `Bash(echo (x))` keeps its
 * parentheses); `\(` and `\)` inside it are unescaped. `Tool()` and `Tool(*)` mean the whole tool.
 * Throws on malformed rules.
 */
export declare function parseRule(text: string): PermissionRule;
/** parseRule that returns undefined instead of throwing. */
export declare function parseRuleSafe(text: string): PermissionRule | undefined;
export declare function formatRule(rule: Pick<PermissionRule, 'toolName' | 'content'>): string;
/** Every malformed rule of a rule set, as messages (empty when all parse). Use it at start-up. */
export declare function validatePermissionRules(rules: {
    allow: string[];
    ask: string[];
    deny: string[];
}): string[];
