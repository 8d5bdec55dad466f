"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GREP_FILE_TYPES = exports.GrepPatternError = exports.OPEN_ACCESS = void 0;
exports.splitGlobs = splitGlobs;
exports.OPEN_ACCESS = { root: () => undefined, under: () => () => undefined };
/** A regex error, carrying the engine's own message. */
class GrepPatternError extends Error {
}
exports.GrepPatternError = GrepPatternError;
/**
 * File types (rg --type), with ripgrep's own definitions so both engines agree. Globs match the
 * file's base name.
 */
exports.GREP_FILE_TYPES = {
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
function splitGlobs(glob) {
    if (!glob)
        return [];
    const out = [];
    for (const raw of glob.split(/\s+/)) {
        if (raw === '')
            continue;
        if (raw.includes('{') && raw.includes('}'))
            out.push(raw);
        else
            out.push(...raw.split(',').filter((s) => s !== ''));
    }
    return out;
}
//# sourceMappingURL=grepTypes.js.map