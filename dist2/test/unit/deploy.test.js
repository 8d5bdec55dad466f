"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the production deployment files. docker-compose.yml must be valid for `docker-compose
// config` and wire the services together (Temporal on PostgreSQL, the UI, the admin-tools setup,
// the worker built from this repo with the shared store volume); the Dockerfile must be a
// multi-stage build that runs `npm ci` and the build. Nothing here builds or starts a container:
// the compose file is validated, not run.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const systemPackages_1 = require("../support/systemPackages");
const root = (() => {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        if ((0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'package.json')) && (0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'docker-compose.yml')))
            return dir;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error(`docker-compose.yml not found above ${__dirname}`);
    }
})();
const composeFile = (0, node_path_1.join)(root, 'docker-compose.yml');
// A clean environment: no ANTHROPIC_API_KEY (or anything else from the caller) is interpolated
// into the rendered config, so a failure message can never print a secret.
const cleanEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
};
/** `docker-compose` (v1, Debian's package, or v2 standalone) or `docker compose` (v2 plugin), else undefined. */
function composeCommand() {
    for (const cmd of [['docker-compose'], ['docker', 'compose']]) {
        const r = (0, node_child_process_1.spawnSync)(cmd[0], [...cmd.slice(1), 'version', '--short'], {
            env: cleanEnv,
            encoding: 'utf8',
            timeout: 30_000,
        });
        if (r.status === 0)
            return { cmd, v1: /^v?1\./.test(r.stdout.trim()) };
    }
    return undefined;
}
function compose(cmd, args) {
    const r = (0, node_child_process_1.spawnSync)(cmd[0], [...cmd.slice(1), '-f', composeFile, ...args], {
        cwd: root,
        env: cleanEnv,
        encoding: 'utf8',
        timeout: 60_000,
    });
    return { status: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + (r.error ? String(r.error) : '') };
}
/** The rendered config as an object: v2's `--format json`, else v1's YAML through python3-yaml (a docker-compose v1 dependency). */
function renderedConfig(cmd, v1, yamlText) {
    if (!v1) {
        const json = compose(cmd, ['config', '--format', 'json']);
        if (json.status === 0 && json.stdout.trim().startsWith('{'))
            return JSON.parse(json.stdout);
    }
    const py = (0, node_child_process_1.spawnSync)('python3', ['-c', 'import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], {
        input: yamlText,
        env: cleanEnv,
        encoding: 'utf8',
        timeout: 30_000,
    });
    if (py.status === 0 && py.stdout.trim().startsWith('{'))
        return JSON.parse(py.stdout);
    return undefined;
}
const envOf = (s) => Array.isArray(s.environment)
    ? Object.fromEntries(s.environment.map((e) => [e.split('=')[0], e.includes('=') ? e.slice(e.indexOf('=') + 1) : null]))
    : (s.environment ?? {});
const mountsOf = (s) => (s.volumes ?? []).map((v) => {
    if (typeof v === 'string') {
        const [source = '', target = ''] = v.split(':');
        return { source, target };
    }
    return { source: v.source ?? '', target: v.target ?? '' };
});
const found = composeCommand();
const cmd = found?.cmd;
const composePackage = (0, systemPackages_1.requireSystemPackage)({
    command: 'docker-compose',
    debianPackage: 'docker-compose',
    usedBy: 'the docker-compose.yml check (deploy.test)',
    probe: () => found?.cmd.join(' '),
});
(0, node_test_1.test)('unit: docker-compose.yml is valid and wires Temporal, PostgreSQL, the UI and the worker', { skip: composePackage.skip }, () => {
    composePackage.assert();
    const quiet = compose(cmd, ['config', '-q']);
    strict_1.default.equal(quiet.status, 0, `${cmd.join(' ')} config -q failed:\n${quiet.stderr}`);
    const rendered = compose(cmd, ['config']);
    strict_1.default.equal(rendered.status, 0, rendered.stderr);
    const config = renderedConfig(cmd, found.v1, rendered.stdout);
    if (!config) {
        // No JSON output and no python3-yaml: check the rendered YAML's text instead.
        const text = rendered.stdout;
        for (const name of ['temporal', 'postgresql', 'temporal-ui', 'worker'])
            strict_1.default.match(text, new RegExp(`^  ${name}:$`, 'm'), `service ${name}`);
        strict_1.default.match(text, /^ {4}build:\n {6}context: |^ {4}build: \S/m, 'a service is built');
        strict_1.default.match(text, /agent-store:\/data\/store/);
        strict_1.default.match(text, /TEMPORAL_ADDRESS: temporal:7233/);
        return;
    }
    const services = config.services;
    for (const name of ['temporal', 'postgresql', 'temporal-ui', 'worker', 'temporal-admin-tools']) {
        strict_1.default.ok(services[name], `service "${name}" is missing; have ${Object.keys(services).join(', ')}`);
    }
    // Temporal on PostgreSQL, pinned image, health-checked, after a healthy database.
    const temporal = services.temporal;
    strict_1.default.match(temporal.image ?? '', /^temporalio\/auto-setup:\d+\.\d+\.\d+$/, 'temporal image is pinned to a version');
    const tenv = envOf(temporal);
    strict_1.default.match(tenv.DB ?? '', /^(postgres12|postgresql)$/);
    strict_1.default.equal(tenv.POSTGRES_SEEDS, 'postgresql');
    strict_1.default.ok(temporal.healthcheck?.test, 'temporal has a health check');
    strict_1.default.ok(services.postgresql.healthcheck?.test, 'postgresql has a health check');
    strict_1.default.deepEqual(temporal.depends_on.postgresql, {
        condition: 'service_healthy',
    });
    for (const [name, s] of Object.entries(services)) {
        if (!s.image || s.build)
            continue; // the worker's image is built here, not pulled
        strict_1.default.match(s.image, /:[\w.-]+$/, `${name}: image ${s.image} has a tag`);
        strict_1.default.doesNotMatch(s.image, /:latest$/, `${name}: image ${s.image} is pinned, not :latest`);
    }
    // The UI talks to the server over the compose network.
    strict_1.default.equal(envOf(services['temporal-ui']).TEMPORAL_ADDRESS, 'temporal:7233');
    strict_1.default.match(JSON.stringify(services['temporal-ui'].ports), /8080/);
    // The setup service registers the session's search attribute as a Keyword.
    const setup = services['temporal-admin-tools'];
    strict_1.default.match(setup.image ?? '', /^temporalio\/admin-tools:/);
    const script = [setup.entrypoint, setup.command].flat().join(' ');
    strict_1.default.match(script, /search-attribute create[^\n]*--name DurableAgentStatus[^\n]*--type Keyword/);
    // The worker: built from this repo, talking to the temporal service, with the shared store.
    const worker = services.worker;
    const build = typeof worker.build === 'string' ? { context: worker.build } : worker.build;
    strict_1.default.ok(build?.context, 'worker is built from a Dockerfile');
    strict_1.default.equal((0, node_path_1.resolve)(root, build.context), root, 'worker builds from "."');
    const wenv = envOf(worker);
    strict_1.default.equal(wenv.TEMPORAL_ADDRESS, 'temporal:7233', 'worker reaches the temporal service');
    strict_1.default.equal(wenv.DURABLE_AGENT_STORE_DIR, '/data/store');
    strict_1.default.ok('ANTHROPIC_API_KEY' in wenv, 'ANTHROPIC_API_KEY is passed through from the host');
    const mounts = mountsOf(worker);
    strict_1.default.ok(mounts.some((m) => m.source === 'agent-store' && m.target === '/data/store'), `the agent-store volume is mounted at /data/store: ${JSON.stringify(mounts)}`);
    strict_1.default.ok(mounts.some((m) => m.target === '/workspace'), 'a workspace is mounted at /workspace');
    strict_1.default.ok(config.volumes && 'agent-store' in config.volumes, 'agent-store is a named volume');
    strict_1.default.ok(worker.depends_on && 'temporal' in worker.depends_on, 'worker starts after temporal');
    strict_1.default.match(String(worker.command), /worker/);
});
(0, node_test_1.test)('unit: Dockerfile is a multi-stage Node 20 build that runs npm ci, the build and a prune', () => {
    const dockerfile = (0, node_fs_1.readFileSync)((0, node_path_1.join)(root, 'Dockerfile'), 'utf8');
    const lines = dockerfile.split('\n').filter((l) => !/^\s*#/.test(l));
    const text = lines.join('\n');
    const froms = lines.filter((l) => /^\s*FROM\s+/i.test(l));
    strict_1.default.ok(froms.length >= 2, `at least two FROM stages, found ${froms.length}`);
    for (const f of froms)
        strict_1.default.match(f, /node:20/, `${f.trim()} is Node 20`);
    strict_1.default.match(froms.at(-1), /node:20-bookworm-slim/, 'runtime stage is node:20-bookworm-slim');
    strict_1.default.match(text, /RUN\s+npm ci\b/);
    strict_1.default.match(text, /npm run build\b/);
    strict_1.default.match(text, /npm prune --omit=dev\b/);
    strict_1.default.match(text, /COPY --from=\S+[^\n]*\bdist\b/, 'runtime copies the built dist/');
    strict_1.default.match(text, /COPY --from=\S+[^\n]*\bnode_modules\b/, 'runtime copies production node_modules');
    for (const pkg of ['ripgrep', 'bash', 'git', 'bubblewrap', 'socat'])
        strict_1.default.match(text, new RegExp(`apt-get install[^\\n]*\\b${pkg}\\b`), `installs ${pkg}`);
    const users = lines.filter((l) => /^\s*USER\s+/i.test(l));
    strict_1.default.ok(users.length > 0 && !/\broot\b|\b0\b/.test(users.at(-1)), 'runs as a non-root user');
    strict_1.default.match(text, /^ENTRYPOINT \["node", "dist\/src\/cli\/main\.js"\]$/m);
    strict_1.default.match(text, /^CMD \["worker"\]$/m);
    const ignore = (0, node_fs_1.readFileSync)((0, node_path_1.join)(root, '.dockerignore'), 'utf8')
        .split('\n')
        .map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', '.durable-agent', 'test-artifacts', '.git']) {
        strict_1.default.ok(ignore.includes(entry), `.dockerignore lists ${entry}`);
    }
});
//# sourceMappingURL=deploy.test.js.map