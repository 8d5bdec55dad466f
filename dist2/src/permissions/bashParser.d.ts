/** A plain copy of a tree-sitter node (the wasm tree is freed right after parsing). */
export interface BashNode {
    type: string;
    named: boolean;
    text: string;
    /** The node is an ERROR node or a MISSING token inserted by error recovery. */
    bad: boolean;
    children: BashNode[];
}
/** Loads the parser once; resolves true when it is usable. Never rejects. */
export declare function loadShellParser(): Promise<boolean>;
/** Why the parser is not usable (undefined when it is, or while it is still loading). */
export declare function shellParserError(): string | undefined;
export declare function shellParserReady(): boolean;
/** Parses a command line; undefined when the parser is not loaded or the tree is too large. */
export declare function parseBash(source: string): BashNode | undefined;
