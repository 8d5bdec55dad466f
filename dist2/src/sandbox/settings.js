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
exports.SANDBOX_PLATFORMS = void 0;
exports.validateSandboxSettings = validateSandboxSettings;
exports.resolveSettingsPath = resolveSettingsPath;
exports.resolveSandboxPaths = resolveSandboxPaths;
exports.mergeSandboxSettings = mergeSandboxSettings;
// The reference's `sandbox` settings object (Claude Code's settings.json `sandbox` key), validated
// key by key: every key is either honoured with the reference's meaning or rejected loudly
// (invariant 12). Pure: no I/O, so the session input can carry the result.
const path = __importStar(require("node:path"));
const environment_1 = require("./environment");
const TOP = {
    enabled: 'boolean',
    failIfUnavailable: 'boolean',
    autoAllowBashIfSandboxed: 'boolean',
    excludedCommands: 'strings',
    allowUnsandboxedCommands: 'boolean',
    enabledPlatforms: 'platforms',
    ignoreViolations: 'violations',
    enableWeakerNestedSandbox: 'boolean',
    enableWeakerNetworkIsolation: 'boolean',
    allowNestedUserNamespaces: 'boolean',
    allowAppleEvents: 'boolean',
    bwrapPath: 'string',
    socatPath: 'string',
    ripgrep: 'ripgrep',
    network: 'object',
    filesystem: 'object',
    passEnv: 'envNames',
};
const NETWORK = {
    allowedDomains: 'strings',
    deniedDomains: 'strings',
    allowUnixSockets: 'strings',
    allowAllUnixSockets: 'boolean',
    allowLocalBinding: 'boolean',
    allowMachLookup: 'strings',
    httpProxyPort: 'port',
    socksProxyPort: 'port',
    strictAllowlist: 'boolean',
};
const FILESYSTEM = {
    allowWrite: 'strings',
    denyWrite: 'strings',
    denyRead: 'strings',
    allowRead: 'strings',
    disabled: 'boolean',
};
/**
 * Reference keys that durable-agent does not implement. They are errors, not warnings: each one
 * would change what a sandboxed command may do, and running without it would be less safe or
 * different from what the file says.
 */
const REJECTED = {
    'sandbox.credentials': 'credential masking is not supported by durable-agent; deny the files with sandbox.filesystem.denyRead instead',
    'sandbox.network.allowManagedDomainsOnly': 'durable-agent has no managed settings, so this managed-only key cannot apply',
    'sandbox.network.tlsTerminate': 'TLS termination (needed only for credential masking) is not supported by durable-agent',
    'sandbox.network.mitmProxy': 'an upstream MITM proxy is not supported by durable-agent',
    'sandbox.network.parentProxy': 'an upstream (parent) proxy is not supported by durable-agent',
    'sandbox.filesystem.allowManagedReadPathsOnly': 'durable-agent has no managed settings, so this managed-only key cannot apply',
};
exports.SANDBOX_PLATFORMS = ['macos', 'linux', 'windows', 'wsl'];
function checkKind(kind, v) {
    switch (kind) {
        case 'boolean':
            return typeof v === 'boolean' ? undefined : 'must be true or false';
        case 'string':
            return typeof v === 'string' && v !== '' ? undefined : 'must be a non-empty string';
        case 'strings':
            return Array.isArray(v) && v.every((x) => typeof x === 'string' && x.trim() !== '')
                ? undefined
                : 'must be a list of non-empty strings';
        case 'envNames': {
            if (!Array.isArray(v))
                return 'must be a list of environment variable names (NAME, or PREFIX_* for a prefix)';
            const i = v.findIndex((x) => typeof x !== 'string' || !environment_1.PASS_ENV_ENTRY.test(x));
            return i < 0
                ? undefined
                : `[${i}] must be an environment variable name (NAME, or PREFIX_* for a prefix), not ${JSON.stringify(v[i])}`;
        }
        case 'port':
            return Number.isInteger(v) && v > 0 && v < 65536
                ? undefined
                : 'must be a TCP port (1-65535)';
        case 'platforms':
            return Array.isArray(v) && v.every((x) => exports.SANDBOX_PLATFORMS.includes(x))
                ? undefined
                : `must be a list of ${exports.SANDBOX_PLATFORMS.join(', ')}`;
        case 'ripgrep': {
            const r = v;
            if (!r || typeof r !== 'object' || typeof r.command !== 'string' || r.command === '')
                return 'must be { "command": "…", "args"?: [ … ] }';
            if (r.args !== undefined && !(Array.isArray(r.args) && r.args.every((a) => typeof a === 'string')))
                return 'args must be a list of strings';
            const extra = Object.keys(r).filter((k) => k !== 'command' && k !== 'args');
            return extra.length ? `unknown key(s) ${extra.join(', ')}` : undefined;
        }
        case 'violations':
            return v &&
                typeof v === 'object' &&
                !Array.isArray(v) &&
                Object.values(v).every((l) => Array.isArray(l) && l.every((x) => typeof x === 'string'))
                ? undefined
                : 'must map command patterns to lists of paths';
        case 'object':
            return v && typeof v === 'object' && !Array.isArray(v) ? undefined : 'must be an object';
    }
}
function validateObject(obj, table, prefix, out) {
    for (const [k, v] of Object.entries(obj)) {
        const key = `${prefix}.${k}`;
        if (REJECTED[key]) {
            out.push({ level: 'error', key, message: `${key} is not supported: ${REJECTED[key]}` });
            continue;
        }
        const kind = table[k];
        if (!kind) {
            out.push({
                level: 'error',
                key,
                message: `${key} is not a sandbox setting durable-agent knows (known: ${Object.keys(table).join(', ')})`,
            });
            continue;
        }
        const bad = checkKind(kind, v);
        if (bad)
            out.push({ level: 'error', key, message: bad.startsWith('[') ? `${key}${bad}` : `${key} ${bad}` });
    }
}
/**
 * Problems of a `sandbox` settings value. Unknown keys inside `sandbox` are errors (unlike unknown
 * top-level keys): a misspelt `denyRead` would otherwise leave a credential readable.
 */
function validateSandboxSettings(value, prefix = 'sandbox') {
    const out = [];
    if (!value || typeof value !== 'object' || Array.isArray(value))
        return [{ level: 'error', key: prefix, message: `${prefix} must be an object` }];
    const v = value;
    validateObject(v, TOP, prefix, out);
    if (v.network && typeof v.network === 'object' && !Array.isArray(v.network))
        validateObject(v.network, NETWORK, `${prefix}.network`, out);
    if (v.filesystem && typeof v.filesystem === 'object' && !Array.isArray(v.filesystem))
        validateObject(v.filesystem, FILESYSTEM, `${prefix}.filesystem`, out);
    return out;
}
/**
 * A settings path as the reference spells it, made absolute: `//x` and `/x` are absolute, `~` and
 * `~/x` stay (the worker that runs the command expands them), anything else is relative to `base`
 * (the project root for project settings, the settings directory for user settings).
 */
function resolveSettingsPath(p, base) {
    if (p.startsWith('//'))
        return p.slice(1);
    if (p.startsWith('/') || p === '~' || p.startsWith('~/'))
        return p;
    return path.resolve(base, p);
}
/** The settings' paths resolved against `base` (see resolveSettingsPath). */
function resolveSandboxPaths(s, base) {
    const out = { ...s };
    if (s.filesystem) {
        const fs = { ...s.filesystem };
        for (const k of ['allowWrite', 'denyWrite', 'denyRead', 'allowRead']) {
            const list = s.filesystem[k];
            if (list)
                fs[k] = list.map((p) => resolveSettingsPath(p, base));
        }
        out.filesystem = fs;
    }
    if (s.network?.allowUnixSockets)
        out.network = {
            ...s.network,
            allowUnixSockets: s.network.allowUnixSockets.map((p) => resolveSettingsPath(p, base)),
        };
    return out;
}
/** Merges two settings (later wins): lists are concatenated, scalars and objects of scalars overridden. */
function mergeSandboxSettings(a, b) {
    if (!a)
        return b;
    if (!b)
        return a;
    const mergeFlat = (x, y) => {
        if (!x)
            return y;
        if (!y)
            return x;
        const out = { ...x };
        for (const [k, v] of Object.entries(y)) {
            const prev = out[k];
            out[k] = Array.isArray(prev) && Array.isArray(v) ? [...prev, ...v] : v;
        }
        return out;
    };
    const merged = mergeFlat(a, b);
    const network = mergeFlat(a.network, b.network);
    const filesystem = mergeFlat(a.filesystem, b.filesystem);
    const ignoreViolations = mergeFlat(a.ignoreViolations, b.ignoreViolations);
    return {
        ...merged,
        ...(network ? { network } : {}),
        ...(filesystem ? { filesystem } : {}),
        ...(ignoreViolations ? { ignoreViolations } : {}),
    };
}
//# sourceMappingURL=settings.js.map