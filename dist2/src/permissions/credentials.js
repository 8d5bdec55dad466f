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
exports.DEFAULT_CREDENTIAL_PATHS = void 0;
exports.credentialPathsFromEnv = credentialPathsFromEnv;
exports.credentialRoots = credentialRoots;
exports.isCredentialPath = isCredentialPath;
// Credential files: what the sandbox hides from Bash, and what the file tools and the config and
// CLAUDE.md readers refuse to open (issue 21.6: in the permission room, below the sandbox and the tools).
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const paths_1 = require("./paths");
/**
 * Read-denied in every sandboxed command unless the settings re-open them with `allowRead`:
 * keys, cloud and registry credentials, durable-agent's own user settings. Each entry holds a
 * secret by its tool's convention (docs/tools.md "What sandboxed Bash cannot read").
 */
exports.DEFAULT_CREDENTIAL_PATHS = [
    '~/.ssh',
    '~/.aws',
    '~/.gnupg',
    '~/.config/gcloud',
    '~/.azure',
    '~/.kube',
    '~/.docker/config.json',
    '~/.netrc',
    '~/.npmrc',
    '~/.pypirc',
    '~/.git-credentials',
    '~/.config/git/credentials', // git credential-store's XDG location
    '~/.config/gh',
    '~/.config/hub',
    '~/.password-store',
    '~/.local/share/keyrings', // GNOME keyring files
    '~/.vault-token',
    '~/.terraform.d/credentials.tfrc.json',
    '~/.cargo/credentials',
    '~/.cargo/credentials.toml',
    '~/.gem/credentials', // RubyGems API key
    '~/.pgpass', // PostgreSQL passwords (the shared store is PostgreSQL)
    '~/.my.cnf', // MySQL client passwords
    '~/.config/containers/auth.json', // podman/buildah registry logins
    '~/.config/temporalio', // Temporal CLI profiles: API keys, TLS key paths
    '~/.claude.json', // Claude Code's state: OAuth account, MCP servers' env and headers
    '~/.claude.json.backup*',
    '~/.claude/.credentials.json',
    '~/.claude/backups', // copies of ~/.claude.json
    '~/.mozilla', // browser profiles: session cookies, saved passwords
    '~/.config/google-chrome',
    '~/.config/chromium',
    '~/.durable-agent/settings.json',
];
/**
 * Credential files the worker's environment points at, beyond the default paths: the XDG and
 * CLAUDE_CONFIG_DIR forms of DEFAULT_CREDENTIAL_PATHS, and files named by variables such as
 * TEMPORAL_TLS_CLIENT_KEY_PATH, GOOGLE_APPLICATION_CREDENTIALS or KUBECONFIG. Absolute paths.
 */
function credentialPathsFromEnv(env, home, cwd) {
    const out = [];
    const abs = (p) => path.resolve(cwd, (0, paths_1.expandHome)(p, home));
    const relocate = (prefix, dir) => {
        if (!dir)
            return;
        for (const p of exports.DEFAULT_CREDENTIAL_PATHS)
            if (p.startsWith(`${prefix}/`))
                out.push(path.join(abs(dir), p.slice(prefix.length + 1)));
    };
    relocate('~/.config', env.XDG_CONFIG_HOME);
    relocate('~/.local/share', env.XDG_DATA_HOME);
    if (env.CLAUDE_CONFIG_DIR) {
        const d = abs(env.CLAUDE_CONFIG_DIR);
        out.push(path.join(d, '.claude.json'), path.join(d, '.claude.json.backup*'), path.join(d, '.credentials.json'), path.join(d, 'backups'));
    }
    // A value that names a file (not key material itself: that never reaches Bash's environment).
    const looksLikePath = (v) => v !== '' &&
        !/\s/.test(v) &&
        !v.startsWith('-----') &&
        (v.includes('/') || /\.(pem|key|crt|json|toml|ya?ml)$/i.test(v));
    const file = (v) => {
        if (v && looksLikePath(v))
            out.push(abs(v));
    };
    for (const [name, value] of Object.entries(env)) {
        // The worker's Temporal client: TLS keys and certificates, the envconfig profile file.
        if (/^TEMPORAL_/.test(name) && /TLS|KEY|CONFIG_FILE/.test(name))
            file(value);
    }
    for (const name of [
        'GOOGLE_APPLICATION_CREDENTIALS',
        'AWS_SHARED_CREDENTIALS_FILE',
        'AWS_CONFIG_FILE',
        'PGPASSFILE',
        'NPM_CONFIG_USERCONFIG',
        'GNUPGHOME',
        'PASSWORD_STORE_DIR',
    ])
        file(env[name]);
    for (const p of (env.KUBECONFIG ?? '').split(':'))
        file(p);
    if (env.DOCKER_CONFIG)
        file(path.join(env.DOCKER_CONFIG, 'config.json'));
    if (env.CARGO_HOME)
        for (const f of ['credentials', 'credentials.toml'])
            file(path.join(env.CARGO_HOME, f));
    return [...new Set(out)];
}
/**
 * The credential files and directories the sandbox hides: DEFAULT_CREDENTIAL_PATHS under both
 * forms of home, and the files the worker's environment points at (credentialPathsFromEnv).
 */
function credentialRoots(home = os.homedir()) {
    const homes = [...new Set([home, (0, paths_1.resolveReal)(home)])];
    const fromEnv = credentialPathsFromEnv(process.env, home, home);
    return [
        ...new Set([
            ...homes.flatMap((h) => exports.DEFAULT_CREDENTIAL_PATHS.map((p) => (p.startsWith('~/') ? path.join(h, p.slice(2)) : p))),
            ...fromEnv,
        ]),
    ];
}
function isCredentialPath(real, home) {
    return credentialRoots(home).some((c) => {
        if (!c.includes('*'))
            return (0, paths_1.isInside)(real, c);
        // A name pattern (`.claude.json.backup*`): the file, or anything under a match.
        const re = new RegExp(`^${c
            .split('*')
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]*')}(?:/.*)?$`, 's');
        return re.test(real);
    });
}
//# sourceMappingURL=credentials.js.map