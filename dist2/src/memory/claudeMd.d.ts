export type MemoryType = 'managed' | 'user' | 'project' | 'local';
export interface MemoryFile {
    path: string;
    /** The kind of the file that brought it in (an import has its importer's kind, as the reference). */
    type: MemoryType;
    content: string;
    /** For imports: the file that imported it. */
    importedBy?: string;
}
export interface LoadedMemory {
    files: MemoryFile[];
    warnings: string[];
}
/**
 * The reference's MAX_INCLUDE_DEPTH: a root file is depth 0 and a file at depth 5 is not read, so
 * an import chain is at most 4 hops long (checked against Claude Code 2.1.197).
 */
export declare const MAX_IMPORT_DEPTH = 5;
/** The longest import chain that is loaded (root → 4 imports). */
export declare const MAX_IMPORT_HOPS: number;
/** The reference warns above this many characters of memory ("may impact performance"). */
export declare const LARGE_MEMORY_CHARS = 40000;
export declare function claudeConfigDir(): string;
export declare function managedMemoryPath(): string;
/** Text with fenced code blocks and inline code spans blanked out (same length, newlines kept). */
export declare function withoutCode(text: string): string;
/** Leading YAML frontmatter (`---` … `---`), split off: the reference never shows it to the model. */
export declare function splitFrontmatter(text: string): {
    frontmatter?: string;
    body: string;
};
/** Whether a rule's frontmatter has a non-empty `paths:` (the reference loads such a rule only when matching files are read). */
export declare function hasPathsCondition(frontmatter: string | undefined): boolean;
/** Block-level HTML comments (`<!-- … -->` starting a line, outside code) removed, as the reference does. */
export declare function withoutHtmlComments(text: string): string;
/** What the model sees of a memory file: without frontmatter and block-level HTML comments. */
export declare function memoryText(raw: string): string;
/**
 * The `@path` imports of a memory file's text, in order (not inside code). As the reference: `@`
 * at the start of a line or after whitespace, the path runs to the next whitespace (`\ ` escapes
 * a space), a `#fragment` is dropped; nothing else is trimmed, so `@a.md,` names `a.md,`.
 */
export declare function importsOf(text: string): string[];
/** File types the reference never imports into memory (its binary-extension list, Claude Code 2.1.197). */
export declare const BINARY_EXTENSIONS: ReadonlySet<string>;
/** `base`: for a project rule, the directory whose `.claude/rules` holds it (its real path must stay inside). */
type Candidate = {
    path: string;
    type: MemoryType;
    rule?: boolean;
    base?: string;
};
/** The candidate files in discovery order (lowest priority first). */
export declare function memoryCandidates(cwd: string, opts?: MemoryOptions): Candidate[];
/** Options of loadMemory: where home, ~/.claude and the managed file are; `excludes` is settings' `claudeMdExcludes`. */
export interface MemoryOptions {
    home?: string;
    configDir?: string;
    managed?: string;
    excludes?: readonly string[];
    /** The session's working directories (default: cwd): project imports and rules must really lie inside them. */
    workingDirectories?: readonly string[];
    /** A Read deny rule covers this path (its real path is asked too): the file is not read. */
    readDenied?: (abs: string) => boolean;
}
/**
 * `claudeMdExcludes`: globs (or absolute paths) matched against a file's absolute path, as the
 * reference (`**` spans directories, dot directories included).
 */
export declare function excludedBy(patterns: readonly string[]): (path: string) => boolean;
export declare function loadMemory(cwd: string, opts?: MemoryOptions): LoadedMemory;
/**
 * The memory as the reference hands it to the model: a `<system-reminder>` at the start of the
 * first user message ("claudeMd" user context), one section per file.
 */
export declare function memoryReminder(files: readonly MemoryFile[]): string;
export declare function sha256(text: string): string;
export {};
