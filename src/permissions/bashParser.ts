// The Bash parser behind every shell decision: tree-sitter-bash (its wasm ships in the npm
// package) run by web-tree-sitter. Loading wasm is asynchronous, so the parser is loaded once
// (`loadShellParser()`, awaited by the pipeline, the describe activity and the worker) and parsing
// itself is synchronous. Before it is loaded, or if it cannot load, `parseBash` returns undefined
// and every caller treats the command as unknown: not read-only, matched by no allow rule.
import * as path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';

/** A plain copy of a tree-sitter node (the wasm tree is freed right after parsing). */
export interface BashNode {
  type: string;
  named: boolean;
  text: string;
  /** The node is an ERROR node or a MISSING token inserted by error recovery. */
  bad: boolean;
  children: BashNode[];
}

let parser: Parser | undefined;
let loading: Promise<boolean> | undefined;
let loadError: string | undefined;

/** Loads the parser once; resolves true when it is usable. Never rejects. */
export function loadShellParser(): Promise<boolean> {
  loading ??= (async () => {
    try {
      await Parser.init();
      const wasm = path.join(path.dirname(require.resolve('tree-sitter-bash/package.json')), 'tree-sitter-bash.wasm');
      const lang = await Language.load(wasm);
      const p = new Parser();
      p.setLanguage(lang);
      parser = p;
      return true;
    } catch (e) {
      loadError = (e as Error)?.message ?? String(e);
      return false;
    }
  })();
  return loading;
}

/** Why the parser is not usable (undefined when it is, or while it is still loading). */
export function shellParserError(): string | undefined {
  return loadError;
}

export function shellParserReady(): boolean {
  return parser !== undefined;
}

const MAX_NODES = 20_000;

/** Parses a command line; undefined when the parser is not loaded or the tree is too large. */
export function parseBash(source: string): BashNode | undefined {
  if (!parser) return undefined;
  const tree = parser.parse(source);
  if (!tree) return undefined;
  try {
    let count = 0;
    const copy = (n: import('web-tree-sitter').Node): BashNode | undefined => {
      if (++count > MAX_NODES) return undefined;
      const children: BashNode[] = [];
      for (const c of n.children) {
        if (!c) continue;
        const cc = copy(c);
        if (!cc) return undefined;
        children.push(cc);
      }
      return { type: n.type, named: n.isNamed, text: n.text, bad: n.isError || n.isMissing, children };
    };
    return copy(tree.rootNode);
  } finally {
    tree.delete();
  }
}
