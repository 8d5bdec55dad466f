// The Grep engines' shared data: the query, the hits they return, the file types `type` accepts.
import type { RealPathCheck } from '../files/safeFs';

export type GrepMode = 'content' | 'files_with_matches' | 'count';
export type GrepEngineName = 'ripgrep' | 'javascript';

export interface GrepQuery {
  pattern: string;
  /** The session's working directories: rg is looked up on no PATH entry inside them (src/hostProcess/door.ts). */
  projectDirs?: readonly string[];
  /** Absolute file or directory. */
  target: string;
  targetIsFile: boolean;
  mode: GrepMode;
  /** rg --glob patterns (already split). */
  globs: string[];
  /** Basename globs of the selected file type, if any. */
  typeGlobs?: readonly string[];
  caseInsensitive: boolean;
  multiline: boolean;
  before: number;
  after: number;
  /** Content mode: also report the matched texts (GrepLine.parts), for -o. */
  onlyMatching?: boolean;
  signal: AbortSignal;
  /**
   * What the search may open, judged on real paths (src/files/safeFs.ts): `root` for the target
   * once it is open, `under` for each file found below the root's real path. Default: anything.
   */
  access?: GrepAccess;
}

export interface GrepAccess {
  root: RealPathCheck;
  under(rootReal: string): RealPathCheck;
}

export const OPEN_ACCESS: GrepAccess = { root: () => undefined, under: () => () => undefined };

export interface GrepLine {
  n: number;
  text: string;
  match: boolean;
  /** With onlyMatching: the non-empty matches that start on this line, in order (a multiline one whole). */
  parts?: string[];
}

export interface GrepFileHit {
  /** Absolute path. */
  path: string;
  /** Matches in the file (count mode only; 0 otherwise). */
  count: number;
  /** Matching and context lines, ascending (content mode only). */
  lines: GrepLine[];
}

export interface GrepEngineResult {
  engine: GrepEngineName;
  hits: GrepFileHit[];
  warnings: string[];
}

/** A regex error, carrying the engine's own message. */
export class GrepPatternError extends Error {}

/**
 * File types (rg --type), with ripgrep's own definitions so both engines agree. Globs match the
 * file's base name.
 */
export const GREP_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  clojure: ['*.clj', '*.cljc', '*.cljs', '*.cljx'],
  config: ['*.cfg', '*.conf', '*.config', '*.ini'],
  cpp: [
    '*.[ChH]',
    '*.[ChH].in',
    '*.[ch]pp',
    '*.[ch]pp.in',
    '*.[ch]xx',
    '*.[ch]xx.in',
    '*.cc',
    '*.cc.in',
    '*.hh',
    '*.hh.in',
    '*.inl',
  ],
  cs: ['*.cs'],
  csharp: ['*.cs'],
  css: ['*.css', '*.scss'],
  csv: ['*.csv'],
  dart: ['*.dart'],
  docker: ['*Dockerfile*'],
  elixir: ['*.eex', '*.ex', '*.exs'],
  erlang: ['*.erl', '*.hrl'],
  go: ['*.go'],
  gradle: ['*.gradle'],
  haskell: ['*.c2hs', '*.cpphs', '*.hs', '*.hsc', '*.lhs'],
  html: ['*.ejs', '*.htm', '*.html'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  js: ['*.js', '*.jsx', '*.vue'],
  json: ['*.json', 'composer.lock'],
  jsonl: ['*.jsonl'],
  kotlin: ['*.kt', '*.kts'],
  less: ['*.less'],
  lua: ['*.lua'],
  make: [
    '*.mak',
    '*.mk',
    '[Gg][Nn][Uu]makefile',
    '[Gg][Nn][Uu]makefile.am',
    '[Gg][Nn][Uu]makefile.in',
    '[Mm]akefile',
    '[Mm]akefile.am',
    '[Mm]akefile.in',
  ],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mkdn'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mkdn'],
  perl: ['*.PL', '*.perl', '*.pl', '*.plh', '*.plx', '*.pm', '*.t'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.phtml'],
  protobuf: ['*.proto'],
  py: ['*.py'],
  r: ['*.R', '*.Rmd', '*.Rnw', '*.r'],
  ruby: ['*.gemspec', '*.rb', '*.rbw', '.irbrc', 'Gemfile', 'Rakefile', 'config.ru'],
  rust: ['*.rs'],
  sass: ['*.sass', '*.scss'],
  scala: ['*.sbt', '*.scala'],
  sh: [
    '*.bash',
    '*.bashrc',
    '*.csh',
    '*.cshrc',
    '*.ksh',
    '*.kshrc',
    '*.sh',
    '*.tcsh',
    '*.zsh',
    '.bash_login',
    '.bash_logout',
    '.bash_profile',
    '.bashrc',
    '.cshrc',
    '.kshrc',
    '.login',
    '.logout',
    '.profile',
    '.tcshrc',
    '.zlogin',
    '.zlogout',
    '.zprofile',
    '.zshenv',
    '.zshrc',
  ],
  sql: ['*.psql', '*.sql'],
  swift: ['*.swift'],
  tf: ['*.tf'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.ts', '*.tsx'],
  txt: ['*.txt'],
  xml: ['*.dtd', '*.rng', '*.sch', '*.xhtml', '*.xjb', '*.xml', '*.xml.dist', '*.xsd', '*.xsl', '*.xslt'],
  yaml: ['*.yaml', '*.yml'],
  zig: ['*.zig'],
};

/** Splits the Grep `glob` input like the reference: on whitespace, and on commas outside braces. */
export function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return [];
  const out: string[] = [];
  for (const raw of glob.split(/\s+/)) {
    if (raw === '') continue;
    if (raw.includes('{') && raw.includes('}')) out.push(raw);
    else out.push(...raw.split(',').filter((s) => s !== ''));
  }
  return out;
}
