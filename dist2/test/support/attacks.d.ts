import type { PermissionMode, PermissionRules } from '../../src/tools/permissionTypes';
export declare const CANARY_OUT = "CANARY-OUT-5d1e";
export declare const CANARY_ENV = "CANARY-ENV-77aa";
export declare const CANARY_HOME = "CANARY-HOME-3c9f";
export declare const CANARIES: string[];
/** The outside file (holding CANARY_OUT): its name must not be listed either. */
export declare const SECRET = "secret-5d1e";
export type AttackClass = 'chars' | 'code-expansions' | 'read-only-that-writes' | 'hidden-paths' | 'search-and-anchoring' | 'existence-oracles' | 'deny-rules' | 'allow-rules';
export interface AttackCase {
    id: string;
    cls: AttackClass;
    mode: PermissionMode;
    tool: 'Bash' | 'Read' | 'Write' | 'Edit' | 'Glob' | 'Grep';
    /** `{M}` = this case's marker file, `{O}` = the outside directory, `{P}` = the project. */
    input: Record<string, unknown>;
    rules?: Partial<PermissionRules>;
    /** Session cwd relative to the project (the project stays the rule anchor and a working dir). */
    cwd?: string;
    /** What the command does when bash runs it directly (the control proves the attack is real). */
    effect?: 'mark' | 'leak' | 'outside-write';
    /** Extra strings the result must not contain. */
    forbid?: string[];
    /** Existence oracle: the same call on a path that does not exist must give the same answer. */
    twin?: Record<string, unknown>;
}
export interface AttackFixture {
    root: string;
    proj: string;
    outside: string;
    home: string;
    marks: string;
}
/** root/{proj (a git repo), outside, home, marks} with symlinks out of the project. */
export declare function createAttackFixture(): AttackFixture;
/** Every file under a directory with its content (symlinks as their target), for before/after. */
export declare function snapshot(dir: string): string;
export declare function fillInput(c: AttackCase, fx: AttackFixture, input?: Record<string, unknown>): Record<string, unknown>;
export declare const ATTACK_CASES: readonly AttackCase[];
export declare function countByClass(list?: readonly AttackCase[]): Record<string, number>;
