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
exports.resolvePath = resolvePath;
exports.withAbsolutePath = withAbsolutePath;
exports.toDisplayPath = toDisplayPath;
exports.relPosix = relPosix;
exports.isErrno = isErrno;
exports.throwIfAborted = throwIfAborted;
exports.formatNumberedLine = formatNumberedLine;
exports.looksBinary = looksBinary;
// Path helpers shared by the built-in tools: every path resolves against the session's cwd.
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
/** Expands `~` and resolves `p` against `cwd`; absolute paths are only normalised. */
function resolvePath(cwd, p) {
    let s = p;
    if (s === '~')
        s = os.homedir();
    else if (s.startsWith('~/'))
        s = path.join(os.homedir(), s.slice(2));
    return path.isAbsolute(s) ? path.normalize(s) : path.resolve(cwd, s);
}
/** A copy of `input` with its path field (when a string) resolved against `cwd`: what hooks see. */
function withAbsolutePath(input, key, cwd) {
    const value = input[key];
    return typeof value === 'string' ? { ...input, [key]: resolvePath(cwd, value) } : input;
}
/** `abs` relative to `cwd` when it lies inside cwd, else absolute (the seed's toRelativePath). */
function toDisplayPath(cwd, abs) {
    const rel = path.relative(cwd, abs);
    if (rel === '')
        return '.';
    if (rel.startsWith('..') || path.isAbsolute(rel))
        return abs;
    return rel;
}
/** POSIX-style relative path ('' for the root itself). */
function relPosix(from, to) {
    return path.relative(from, to).split(path.sep).join('/');
}
function isErrno(err, code) {
    return typeof err === 'object' && err !== null && err.code === code;
}
function throwIfAborted(signal) {
    if (signal?.aborted) {
        const reason = signal.reason;
        throw reason instanceof Error ? reason : new Error('The operation was aborted');
    }
}
/** `cat -n` style: right-aligned line number (width 6), a tab, the line. */
function formatNumberedLine(lineNumber, text) {
    return `${String(lineNumber).padStart(6, ' ')}\t${text}`;
}
/** Does the buffer look binary (a NUL byte in it)? */
function looksBinary(buf) {
    return buf.indexOf(0) !== -1;
}
//# sourceMappingURL=paths.js.map