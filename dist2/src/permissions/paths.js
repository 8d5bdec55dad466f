"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.expandHome = expandHome;
exports.resolveLogical = resolveLogical;
exports.resolveReal = resolveReal;
exports.resolvePhysical = resolvePhysical;
exports.pathForms = pathForms;
exports.isInside = isInside;
exports.workingDirForms = workingDirForms;
exports.insideWorkingDirs = insideWorkingDirs;
exports.compilePathPattern = compilePathPattern;
exports.globToRegex = globToRegex;
exports.matchPathPattern = matchPathPattern;
// Path handling for permission rules: resolving a tool's path (`..`, `~`, symlinks), working
// directories, and gitignore-style rule patterns.
const fs = __importStar(require("node:fs"));
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
function expandHome(p, home = os.homedir()) {
    if (p === '~')
        return home;
    if (p.startsWith('~/'))
        return path.join(home, p.slice(2));
    return p;
}
/** Absolute, normalised (`..` resolved) path, relative paths taken from `cwd`. No filesystem access. */
function resolveLogical(p, cwd) {
    return path.resolve(cwd, expandHome(p));
}
/**
 * The real path: symlinks resolved. For a path that does not exist yet (a file to be created),
 * the realpath of its nearest existing ancestor plus the remaining components. Never throws: a
 * loop or an unreadable ancestor gives the logical path back.
 */
function resolveReal(absolute) {
    let cur = absolute;
    const rest = [];
    for (let guard = 0; guard < 4096; guard++) {
        try {
            const real = fs.realpathSync.native(cur);
            return rest.length ? path.join(real, ...rest.reverse()) : real;
        }
        catch (e) {
            const code = e.code;
            if (code !== 'ENOENT' && code !== 'ENOTDIR')
                return absolute;
            const parent = path.dirname(cur);
            if (parent === cur)
                return absolute;
            // A dangling symlink: follow its target once so that creating "through" it is caught.
            try {
                const st = fs.lstatSync(cur);
                if (st.isSymbolicLink()) {
                    const target = path.resolve(parent, fs.readlinkSync(cur));
                    const real = resolveReal(target === cur ? parent : target);
                    return rest.length ? path.join(real, ...rest.reverse()) : real;
                }
            }
            catch {
                // does not exist at all
            }
            rest.push(path.basename(cur));
            cur = parent;
        }
    }
    return absolute;
}
/**
 * How the kernel resolves a path: components left to right, a `..` taking the parent of the REAL
 * directory reached so far (`link/../x` is next to the link's target, not next to the link).
 */
function resolvePhysical(p, cwd) {
    const expanded = expandHome(p);
    let cur = path.isAbsolute(expanded) ? path.parse(expanded).root : path.resolve(cwd);
    for (const seg of expanded.split(/[\\/]+/)) {
        if (seg === '' || seg === '.')
            continue;
        cur = seg === '..' ? path.dirname(resolveReal(cur)) : path.join(cur, seg);
    }
    return resolveReal(cur);
}
/** The logical, the real and the physical form of a path (duplicates removed). */
function pathForms(p, cwd) {
    const logical = resolveLogical(p, cwd);
    const real = resolveReal(logical);
    const forms = [logical];
    if (real !== logical)
        forms.push(real);
    if (expandHome(p)
        .split(/[\\/]+/)
        .includes('..')) {
        const physical = resolvePhysical(p, cwd);
        if (!forms.includes(physical))
            forms.push(physical);
    }
    return forms;
}
function isInside(child, dir) {
    const rel = path.relative(dir, child);
    return rel === '' || (!path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`));
}
/** Working directories in both logical and real form. */
function workingDirForms(dirs) {
    const out = new Set();
    for (const d of dirs) {
        const abs = path.resolve(d);
        out.add(abs);
        out.add(resolveReal(abs));
    }
    return [...out];
}
/** Is every form of the path inside some working directory? */
function insideWorkingDirs(forms, workingDirs) {
    const dirs = workingDirForms(workingDirs);
    return forms.length > 0 && forms.every((f) => dirs.some((d) => isInside(f, d)));
}
function compilePathPattern(spec) {
    let p = spec.trim();
    let base = 'cwd';
    let anchoredByPrefix = false;
    if (p.startsWith('//')) {
        base = 'root';
        p = p.slice(2);
        anchoredByPrefix = true;
    }
    else if (p === '~' || p.startsWith('~/')) {
        base = 'home';
        p = p.slice(2);
        anchoredByPrefix = true;
    }
    else if (p.startsWith('./')) {
        p = p.slice(2);
        anchoredByPrefix = true;
    }
    else if (p.startsWith('/')) {
        // `/x` is rooted at the project (the session cwd), as in gitignore — NOT the filesystem root.
        p = p.slice(1);
        anchoredByPrefix = true;
    }
    while (p.startsWith('./'))
        p = p.slice(2);
    const trimmed = p.replace(/\/+$/, '');
    const anywhere = !anchoredByPrefix && !trimmed.includes('/');
    const body = trimmed === '' ? '**' : trimmed;
    return { spec, base, pattern: body, anywhere, regex: new RegExp(`^${globToRegex(body)}$`, 's') };
}
/** gitignore glob → regex source: `**` spans directories, `*`/`?` stay within one, `[...]` classes. */
function globToRegex(glob) {
    let re = '';
    let k = 0;
    const g = glob;
    while (k < g.length) {
        const ch = g[k];
        if (ch === '*' && g[k + 1] === '*') {
            const atStart = k === 0 || g[k - 1] === '/';
            const atEnd = k + 2 === g.length;
            const beforeSlash = g[k + 2] === '/';
            if (atStart && beforeSlash) {
                re += '(?:.*/)?';
                k += 3;
                continue;
            }
            if (atStart && atEnd) {
                re += '.*';
                k += 2;
                continue;
            }
            re += '[^/]*';
            k += 2;
            continue;
        }
        if (ch === '*') {
            re += '[^/]*';
            k++;
            continue;
        }
        if (ch === '?') {
            re += '[^/]';
            k++;
            continue;
        }
        if (ch === '\\' && k + 1 < g.length) {
            re += escapeRe(g[k + 1]);
            k += 2;
            continue;
        }
        if (ch === '[') {
            const close = g.indexOf(']', k + 2);
            if (close > 0) {
                let cls = g.slice(k + 1, close);
                if (cls.startsWith('!'))
                    cls = `^${cls.slice(1)}`;
                re += `[${cls.replace(/\\/g, '\\\\').replace(/\//g, '')}]`;
                k = close + 1;
                continue;
            }
        }
        re += escapeRe(ch);
        k++;
    }
    return re;
}
function escapeRe(s) {
    return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
/** Does a relative (posix) path, or one of its ancestor directories, match the pattern? */
function matchRelative(pat, rel) {
    const segs = rel.split('/').filter((x) => x !== '');
    for (let n = segs.length; n >= 1; n--) {
        const candidate = segs.slice(0, n).join('/');
        if (pat.regex.test(candidate))
            return true;
        if (pat.anywhere) {
            // no slash in the pattern: it matches the last component at any depth
            if (pat.regex.test(segs[n - 1]))
                return true;
        }
    }
    // `dir/**` also covers `dir` itself: searching the directory reads what is inside it.
    if (pat.pattern.endsWith('/**')) {
        const dirPat = compilePathPattern(pat.pattern.slice(0, -3) || '.');
        if (segs.length > 0 && dirPat.regex.test(segs.join('/')))
            return true;
    }
    if (segs.length === 0)
        return pat.pattern === '**';
    return false;
}
/**
 * Does an absolute path match a rule's path spec? `outsideBaseToo`: a slashless pattern (e.g.
 * `*.env`) also matches paths outside its base — used for deny/ask rules, where matching more is
 * the safe side.
 */
function matchPathPattern(spec, absolutePath, env, outsideBaseToo = false) {
    const pat = typeof spec === 'string' ? compilePathPattern(spec) : spec;
    const bases = pat.base === 'root' ? ['/'] : pat.base === 'home' ? [env.home ?? os.homedir()] : [env.cwd];
    const forms = new Set();
    for (const b of bases) {
        forms.add(path.resolve(b));
        forms.add(resolveReal(path.resolve(b)));
    }
    for (const b of forms) {
        if (isInside(absolutePath, b)) {
            const rel = path.relative(b, absolutePath).split(path.sep).join('/');
            if (matchRelative(pat, rel))
                return true;
        }
    }
    if (pat.anywhere && outsideBaseToo) {
        return matchRelative(pat, absolutePath.split(path.sep).join('/'));
    }
    return false;
}
//# sourceMappingURL=paths.js.map