// The words of a direnv `.envrc` (envrcNames.ts) and the Nix and dev-environment readers it calls
// (nixFiles.ts, devEnvFiles.ts): simple commands as words, and a word as a path when a parser can tell
// (`$PWD`, `$(pwd)`, `$(expand_path …)`, `~`, `$HOME` resolved; any other expansion: none).
import * as os from 'node:os';
import * as path from 'node:path';

/** The simple commands of a shell text, as words (quotes removed; `$…` and `$(…)` kept as written). */
export function shellCommands(text: string): string[][] {
  const out: string[][] = [];
  let cmd: string[] = [];
  let word: string | undefined;
  const endWord = () => {
    if (word !== undefined) cmd.push(word);
    word = undefined;
  };
  const endCmd = () => {
    endWord();
    if (cmd.length > 0) out.push(cmd);
    cmd = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '#' && word === undefined) {
      while (i < text.length && text[i] !== '\n') i++;
      endCmd();
    } else if (c === '\n' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '{' || c === '}') {
      if ((c === '(' || c === ')') && word !== undefined) word += c;
      else endCmd();
    } else if (c === ' ' || c === '\t' || c === '\r') endWord();
    else if (c === '\\') word = (word ?? '') + (text[++i] === '\n' ? '' : (text[i] ?? ''));
    else if (c === "'") {
      const j = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, j < 0 ? text.length : j);
      i = j < 0 ? text.length : j;
    } else if (c === '"') {
      let j = i + 1;
      let v = '';
      for (; j < text.length && text[j] !== '"'; j++) v += text[j] === '\\' ? (text[++j] ?? '') : text[j];
      word = (word ?? '') + v;
      i = j;
    } else if (c === '$' && text[i + 1] === '(') {
      // A command substitution whole: `$(expand_path bin)` is one word.
      let depth = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')' && --depth === 0) break;
      }
      word = (word ?? '') + text.slice(i, j + 1);
      i = j;
    } else word = (word ?? '') + c;
  }
  endCmd();
  return out;
}

/** A word as a path from `dir`, or undefined when it holds an expansion no parser can resolve. */
export function resolveWord(word: string, dir: string): string | undefined {
  let v = word
    .replace(/^(?:\$PWD|\$\{PWD\}|\$\(\s*pwd(?:\s+-[LP])?\s*\))(?=\/|$)/, dir)
    .replace(/^\$\(\s*expand_path\s+([^\s$`()]+)\s*\)/, (_m, a: string) => path.resolve(dir, a))
    .replace(/^(?:\$HOME|\$\{HOME\}|~)(?=\/|$)/, os.homedir());
  if (v === '' || /[$`*?[]/.test(v)) return undefined;
  if (v.endsWith('/') && v.length > 1) v = v.slice(0, -1);
  return path.resolve(dir, v);
}
