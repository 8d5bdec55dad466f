import { type ShellWord } from './shellWords';
export type { ShellWord } from './shellWords';
export interface ShellRedirect {
    /** `>`, `>>`, `<`, `&>`, `&>>`, `>&`, `<&`, `>|`, `<>`, `<<<`, `<<`… */
    op: string;
    fd?: string;
    target?: ShellWord;
    nested: boolean;
}
export interface ShellCommand {
    /** Command name and arguments (assignments in front are in `assignments`). */
    words: ShellWord[];
    assignments: Array<{
        name: string;
        value?: ShellWord;
    }>;
    /** Runs inside a substitution or a here-document, not as a part of the command line itself. */
    nested: boolean;
    background: boolean;
    /** The words as written, joined by one space. */
    text: string;
    /** A declaration/unset command: `export`, `declare`, `local`, `unset`… */
    declaration?: boolean;
    /** Inside `( … )` or `{ …; }`. */
    grouped?: boolean;
}
export interface ShellAnalysis {
    /** The parser was available and produced a tree. */
    parsed: boolean;
    /** Every construct is understood (see the file header); reasons lists what was not. */
    certain: boolean;
    reasons: string[];
    commands: ShellCommand[];
    redirects: ShellRedirect[];
}
export declare function suspiciousCharacters(command: string): string | undefined;
export declare function analyzeShell(command: string, home?: string): ShellAnalysis;
