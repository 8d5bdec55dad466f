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
exports.DEFAULT_CREDENTIAL_PATHS = exports.credentialPathsFromEnv = void 0;
exports.sandboxEnabled = sandboxEnabled;
exports.simpleCommands = simpleCommands;
exports.excludedEntryMatches = excludedEntryMatches;
exports.excludedBy = excludedBy;
exports.planCall = planCall;
exports.expandTilde = expandTilde;
exports.runtimePlan = runtimePlan;
exports.sandboxPathsFromRules = sandboxPathsFromRules;
exports.describeSandbox = describeSandbox;
// From a session's sandbox settings to what one Bash call gets: whether it runs sandboxed and why,
// the sandbox-runtime configuration (the worker-wide part and the per-call part), the network
// allowlist. Pure (paths only), so that it is unit-tested without a sandbox.
const path = __importStar(require("node:path"));
const credentials_1 = require("../permissions/credentials");
Object.defineProperty(exports, "credentialPathsFromEnv", { enumerable: true, get: function () { return credentials_1.credentialPathsFromEnv; } });
Object.defineProperty(exports, "DEFAULT_CREDENTIAL_PATHS", { enumerable: true, get: function () { return credentials_1.DEFAULT_CREDENTIAL_PATHS; } });
function sandboxEnabled(s, platform) {
    if (s?.enabled === false)
        return { on: false, reason: 'the sandbox is off for this session (sandbox.enabled: false or --no-sandbox)' };
    if (s?.enabledPlatforms && !s.enabledPlatforms.includes(platform)) {
        return {
            on: false,
            reason: `the sandbox is off on ${platform} (sandbox.enabledPlatforms: ${s.enabledPlatforms.join(', ')})`,
        };
    }
    return { on: true, reason: 'sandboxed' };
}
/** Splits a command into its simple commands at `&&`, `||`, `;`, `|`, `&` and newlines (quotes respected). */
function simpleCommands(command) {
    const parts = [];
    let cur = '';
    let quote;
    for (let i = 0; i < command.length; i++) {
        const c = command[i];
        if (quote) {
            cur += c;
            if (c === '\\' && quote === '"' && i + 1 < command.length)
                cur += command[++i];
            else if (c === quote)
                quote = undefined;
            continue;
        }
        if (c === '\\' && i + 1 < command.length) {
            cur += c + command[++i];
            continue;
        }
        if (c === '"' || c === "'") {
            quote = c;
            cur += c;
            continue;
        }
        if (c === ';' || c === '|' || c === '&' || c === '\n') {
            parts.push(cur);
            cur = '';
            continue;
        }
        cur += c;
    }
    parts.push(cur);
    return parts
        .map((p) => p
        .trim()
        .replace(/^\(+|\)+$/g, '')
        .trim())
        .filter((p) => p !== '');
}
function wildcardToRegex(pattern) {
    return new RegExp(`^${pattern
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`, 's');
}
/**
 * Does an `excludedCommands` entry match one simple command? Entries mean what they mean in the
 * reference: `docker` matches `docker` and `docker …`; `npm run test:*` (legacy prefix) and
 * wildcards (`git push *`) match as patterns. Leading `VAR=value` assignments are skipped.
 */
function excludedEntryMatches(entry, simple) {
    const cmd = simple.replace(/^(\s*[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|\S*)\s+)+/, '').trim();
    const e = entry.trim();
    if (e.endsWith(':*')) {
        const prefix = e.slice(0, -2);
        return cmd === prefix || cmd.startsWith(`${prefix} `);
    }
    if (e.includes('*'))
        return wildcardToRegex(e).test(cmd);
    return cmd === e || cmd.startsWith(`${e} `);
}
/** The excludedCommands entry that takes this command out of the sandbox, if any. */
function excludedBy(command, excluded) {
    if (!excluded || excluded.length === 0)
        return undefined;
    for (const part of simpleCommands(command)) {
        const hit = excluded.find((e) => excludedEntryMatches(e, part));
        if (hit)
            return hit;
    }
    return undefined;
}
/**
 * Whether a Bash call runs in the sandbox. `excludedCommands` is a convenience, not a boundary
 * (as in the reference): a call it takes out of the sandbox always needs a human (see Bash's
 * checkPermissions). `dangerouslyDisableSandbox` counts only when allowUnsandboxedCommands is not false.
 */
function planCall(s, platform, command, dangerouslyDisableSandbox) {
    const enabled = sandboxEnabled(s, platform);
    if (!enabled.on)
        return { sandboxed: false, reason: enabled.reason, escapes: false };
    if (dangerouslyDisableSandbox && s?.allowUnsandboxedCommands !== false) {
        return {
            sandboxed: false,
            reason: 'the call asked to run outside the sandbox (dangerouslyDisableSandbox)',
            escapes: true,
        };
    }
    const hit = excludedBy(command, s?.excludedCommands);
    if (hit)
        return { sandboxed: false, reason: `"${hit}" is in sandbox.excludedCommands`, escapes: true };
    return { sandboxed: true, reason: 'sandboxed', escapes: false };
}
function expandTilde(p, home) {
    if (p === '~')
        return home;
    if (p.startsWith('~/'))
        return path.join(home, p.slice(2));
    return p;
}
/**
 * The sandbox-runtime configuration of one session's Bash calls. Writes: the working directories,
 * the session's temp dir and `filesystem.allowWrite`; reads: everything but the credential paths
 * and `filesystem.denyRead` (minus `allowRead`); network: only `network.allowedDomains`.
 */
function runtimePlan(s, workingDirectories, host) {
    const ex = (list) => (list ?? []).map((p) => expandTilde(p, host.home));
    const net = s?.network ?? {};
    const global = {
        network: {
            allowedDomains: [],
            deniedDomains: [...(net.deniedDomains ?? [])],
            ...(net.allowUnixSockets ? { allowUnixSockets: ex(net.allowUnixSockets) } : {}),
            ...(net.allowAllUnixSockets !== undefined ? { allowAllUnixSockets: net.allowAllUnixSockets } : {}),
            ...(net.allowLocalBinding !== undefined ? { allowLocalBinding: net.allowLocalBinding } : {}),
            ...(net.allowMachLookup ? { allowMachLookup: [...net.allowMachLookup] } : {}),
            ...(net.httpProxyPort !== undefined ? { httpProxyPort: net.httpProxyPort } : {}),
            ...(net.socksProxyPort !== undefined ? { socksProxyPort: net.socksProxyPort } : {}),
        },
        filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
        ...(s?.ignoreViolations ? { ignoreViolations: s.ignoreViolations } : {}),
        ...(s?.enableWeakerNestedSandbox !== undefined ? { enableWeakerNestedSandbox: s.enableWeakerNestedSandbox } : {}),
        ...(s?.enableWeakerNetworkIsolation !== undefined
            ? { enableWeakerNetworkIsolation: s.enableWeakerNetworkIsolation }
            : {}),
        ...(s?.allowAppleEvents !== undefined ? { allowAppleEvents: s.allowAppleEvents } : {}),
        ...(s?.bwrapPath ? { bwrapPath: s.bwrapPath } : {}),
        ...(s?.socatPath ? { socatPath: s.socatPath } : {}),
        ...(s?.ripgrep ? { ripgrep: s.ripgrep } : {}),
    };
    const fs = s?.filesystem ?? {};
    const fromEnv = host.env ? (0, credentials_1.credentialPathsFromEnv)(host.env, host.home, host.cwd ?? host.home) : [];
    const privatePaths = [...(host.privatePaths ?? [])];
    const ownResults = [...(host.ownResults ?? [])];
    const call = {
        filesystem: {
            denyRead: [...new Set([...ex(credentials_1.DEFAULT_CREDENTIAL_PATHS), ...fromEnv, ...privatePaths, ...ex(fs.denyRead)])],
            allowRead: [...new Set([...ownResults, ...ex(fs.allowRead)])],
            // This session's results are readable, never writable (a result the model Reads back is the stored one).
            allowWrite: [...new Set([...workingDirectories, host.sessionTmpDir, ...ex(fs.allowWrite)])].filter((d) => !ownResults.includes(d)),
            denyWrite: [...new Set([...privatePaths, ...ex(fs.denyWrite), ...(host.protectedDenyWrite ?? [])])],
            ...(fs.disabled ? { disabled: true } : {}),
        },
        ...(s?.allowNestedUserNamespaces !== undefined ? { allowNestedUserNamespaces: s.allowNestedUserNamespaces } : {}),
    };
    return { global, call, allowedDomains: [...new Set(net.allowedDomains ?? [])] };
}
/**
 * The reference merges path permission rules into the sandbox: `Read(…)` deny rules are read-denied,
 * `Edit(…)` deny rules write-denied, `Edit(…)` allow rules writable, so that `cat .env` in Bash meets
 * the same wall as `Read(.env)`. Rule paths are anchored at the project root: `//x` absolute,
 * `~/x` home, `/x`, `./x` and `x/y` relative to the root, a bare name (`.env`) at any depth.
 */
function sandboxPathsFromRules(rules, projectRoot) {
    const out = { denyRead: [], denyWrite: [], allowWrite: [] };
    const pathOf = (spec) => {
        if (spec.startsWith('//'))
            return spec.slice(1);
        if (spec === '~' || spec.startsWith('~/'))
            return spec;
        if (spec.startsWith('/'))
            return path.join(projectRoot, spec.slice(1));
        if (!spec.includes('/'))
            return path.join(projectRoot, '**', spec);
        return path.resolve(projectRoot, spec);
    };
    const specOf = (rule, tool) => {
        const m = /^\s*([A-Za-z]+)\((.*)\)\s*$/s.exec(rule);
        if (!m || m[1] !== tool)
            return undefined;
        const spec = m[2].trim();
        return spec === '' || spec === '*' ? undefined : spec;
    };
    for (const r of rules.deny) {
        const read = specOf(r, 'Read');
        if (read)
            out.denyRead.push(pathOf(read));
        const edit = specOf(r, 'Edit') ?? specOf(r, 'Write');
        if (edit)
            out.denyWrite.push(pathOf(edit));
    }
    for (const r of rules.allow) {
        const edit = specOf(r, 'Edit') ?? specOf(r, 'Write');
        if (edit)
            out.allowWrite.push(pathOf(edit));
    }
    return out;
}
/** One line for `run`, `status` and the audit: what the session's Bash is contained by. */
function describeSandbox(s, platform, workingDirectories, unavailable) {
    const enabled = sandboxEnabled(s, platform);
    if (!enabled.on)
        return `off — ${enabled.reason}; Bash runs with the worker's full rights`;
    if (unavailable) {
        return s?.failIfUnavailable
            ? `unavailable — ${unavailable}; sandbox.failIfUnavailable is set, so Bash calls are refused`
            : `unavailable — ${unavailable}; Bash runs unsandboxed (set sandbox.failIfUnavailable to refuse instead)`;
    }
    const domains = s?.network?.allowedDomains ?? [];
    const writes = [...workingDirectories, 'the session temp dir', ...(s?.filesystem?.allowWrite ?? [])];
    const excluded = s?.excludedCommands?.length ? `; excluded commands (ask): ${s.excludedCommands.join(', ')}` : '';
    return (`on — Bash writes only in ${writes.join(', ')}; network: ${domains.length ? domains.join(', ') : 'none'}; ` +
        `credentials (~/.ssh, ~/.aws, ~/.gnupg, …${s?.filesystem?.denyRead?.length ? ` and ${s.filesystem.denyRead.length} more` : ''}) unreadable` +
        `${s?.autoAllowBashIfSandboxed === false ? '' : '; sandboxed Bash calls run without asking (autoAllowBashIfSandboxed)'}${excluded}${s?.passEnv?.length ? `; environment: the allowlist plus ${s.passEnv.join(', ')} (sandbox.passEnv)` : ''}`);
}
//# sourceMappingURL=policy.js.map