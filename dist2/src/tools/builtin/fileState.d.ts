import type { AgentContext } from '../../engine/context';
import { type RealPathCheck } from '../safeFs';
export type StateCheck = {
    ok: true;
} | {
    ok: false;
    message: string;
    errorCode: number;
};
export declare const NOT_READ_MESSAGE = "File has not been read yet. Read it first before writing to it.";
export declare const PARTIAL_READ_MESSAGE = "File has only been partially read (with offset/limit, or it was longer than one page). Read the whole file first (pass a larger limit if it has more lines than the default page) before writing to it.";
export declare const MODIFIED_MESSAGE = "File has been modified since it was read, either by the user, a linter or another command. Read it again before writing to it.";
export declare function checkReadState(agent: AgentContext, abs: string): Promise<StateCheck>;
/** The file's stats, or null when it does not exist. */
export declare function statOrNull(abs: string): Promise<import('node:fs').Stats | null>;
/**
 * Does the existing file hold exactly `content` (UTF-8)? Cheap when the sizes differ. Read
 * through a descriptor bound by `check`; undefined when `check` refused what was opened.
 */
export declare function hasExactContent(abs: string, size: number, content: string, check: RealPathCheck): Promise<boolean | undefined>;
