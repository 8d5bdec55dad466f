export declare const TAG_ENV = "DURABLE_AGENT_TEST_TAG";
export interface TaggedProcess {
    pid: number;
    ppid: number;
    comm: string;
    args: string;
}
export declare function newTag(): string;
/** Live processes (not zombies) whose environment holds `TAG_ENV=tag`. Empty where /proc is missing. */
export declare function taggedProcesses(tag: string): TaggedProcess[];
/** Polls until no tagged process is left, or `timeoutMs` passed; returns what is left. */
export declare function waitUntilNoneTagged(tag: string, timeoutMs: number, filter?: (p: TaggedProcess) => boolean): Promise<TaggedProcess[]>;
/** `bwrap 2, socat 3` */
export declare function countByName(ps: TaggedProcess[]): string;
export declare function describe(ps: TaggedProcess[]): string;
/** SIGKILLs them (a test's own leftovers, after it reported them). */
export declare function killAll(ps: TaggedProcess[]): void;
