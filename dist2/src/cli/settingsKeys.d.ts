/** Behaviour keys that durable-agent does not implement: the reason shown with the warning. */
export declare const UNSUPPORTED_KEYS: Readonly<Record<string, string>>;
/**
 * Keys that only shape Claude Code's interactive terminal, notifications, login, updates, local
 * housekeeping or plugin marketplace UI: nothing a durable-agent session does depends on them.
 */
export declare const NOT_APPLICABLE_KEYS: ReadonlySet<string>;
/** What the loader says of a key it does not honour: a warning of its own, a note (grouped per file), or unknown. */
export declare function unhonouredKey(key: string): {
    kind: 'unsupported';
    reason: string;
} | {
    kind: 'not-applicable';
} | {
    kind: 'unknown';
};
