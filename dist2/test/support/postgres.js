"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.postgresBinDir = postgresBinDir;
exports.requirePostgres = requirePostgres;
exports.startPostgres = startPostgres;
// A throwaway PostgreSQL cluster for the shared blob store's tests: Debian's server binaries,
// initdb into a temp dir, one server on a free port with its socket in that dir, stopped and
// removed by stop(). Run as root (CI), the cluster belongs to the `postgres` user (the server
// refuses to run as root); otherwise to the current user.
//
//   const pg = requirePostgres();
//   test('…', { skip: pg.skip }, async () => { pg.assert(); const server = await startPostgres(); … await server.stop(); });
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_net_1 = require("node:net");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const systemPackages_1 = require("./systemPackages");
/** The directory holding initdb and postgres: PATH, else Debian's /usr/lib/postgresql/<newest>/bin. */
function postgresBinDir() {
    const onPath = (0, systemPackages_1.findExecutable)('initdb');
    if (onPath && (0, systemPackages_1.findExecutable)('postgres'))
        return (0, node_path_1.join)(onPath, '..');
    const root = '/usr/lib/postgresql';
    if (!(0, node_fs_1.existsSync)(root))
        return undefined;
    const versions = (0, node_fs_1.readdirSync)(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
        const bin = (0, node_path_1.join)(root, v, 'bin');
        if ((0, node_fs_1.existsSync)((0, node_path_1.join)(bin, 'initdb')) && (0, node_fs_1.existsSync)((0, node_path_1.join)(bin, 'postgres')))
            return bin;
    }
    return undefined;
}
function requirePostgres() {
    return (0, systemPackages_1.requireSystemPackage)({
        command: 'initdb',
        debianPackage: 'postgresql',
        usedBy: 'the PostgreSQL blob store tests',
        probe: () => {
            const dir = postgresBinDir();
            return dir ? (0, node_path_1.join)(dir, 'initdb') : undefined;
        },
    });
}
async function freePort() {
    return new Promise((resolve, reject) => {
        const s = (0, node_net_1.createServer)();
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => {
            const a = s.address();
            const port = typeof a === 'object' && a ? a.port : 0;
            s.close(() => resolve(port));
        });
    });
}
function owner() {
    if (process.getuid?.() !== 0)
        return undefined;
    const uid = (0, node_child_process_1.spawnSync)('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = (0, node_child_process_1.spawnSync)('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (uid.status !== 0 || gid.status !== 0)
        throw new Error("running as root, but there is no `postgres` user to own the test cluster (Debian's postgresql package creates it)");
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
/** Direct children of `pid` (from /proc): a PostgreSQL server's backends. */
function childPids(pid) {
    const out = [];
    for (const e of (0, node_fs_1.readdirSync)('/proc').filter((x) => /^\d+$/.test(x))) {
        try {
            const stat = (0, node_fs_1.readFileSync)(`/proc/${e}/stat`, 'utf8');
            if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
                out.push(Number(e));
        }
        catch {
            // gone
        }
    }
    return out;
}
async function startPostgres(opts = {}) {
    const bin = postgresBinDir();
    if (!bin)
        throw new Error('PostgreSQL server binaries not found: apt-get install -y postgresql');
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-pg-'));
    const user = owner();
    if (user)
        (0, node_fs_1.chownSync)(dir, user.uid, user.gid);
    const data = (0, node_path_1.join)(dir, 'data');
    const as = user ? { uid: user.uid, gid: user.gid } : {};
    const init = (0, node_child_process_1.spawnSync)((0, node_path_1.join)(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], { encoding: 'utf8', cwd: dir, ...as });
    if (init.status !== 0) {
        (0, node_fs_1.rmSync)(dir, { recursive: true, force: true });
        throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout || init.error}`);
    }
    const port = await freePort();
    const args = [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        `synchronous_commit=${opts.durableCommits ? 'on' : 'off'}`,
        '-c',
        'full_page_writes=off',
        '-c',
        `max_connections=${opts.maxConnections ?? 200}`,
        '-c',
        'shared_buffers=32MB',
    ];
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    let log = '';
    let proc;
    let exited = Promise.resolve();
    const halt = async () => {
        if (proc && proc.exitCode === null && proc.signalCode === null) {
            proc.kill('SIGINT'); // fast shutdown
            const p = proc;
            const t = setTimeout(() => p.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(t);
        }
    };
    const stop = async () => {
        await halt();
        (0, node_fs_1.rmSync)(dir, { recursive: true, force: true });
    };
    const launch = async () => {
        const p = (0, node_child_process_1.spawn)((0, node_path_1.join)(bin, 'postgres'), args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], ...as });
        proc = p;
        p.stderr?.on('data', (d) => {
            log = (log + d.toString()).slice(-4000);
        });
        exited = new Promise((resolve) => p.once('exit', () => resolve()));
        // Ready when a connection succeeds.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const pg = require('pg');
        const deadline = Date.now() + 60_000;
        for (;;) {
            if (p.exitCode !== null || p.signalCode !== null) {
                await stop();
                throw new Error(`postgres exited during start-up: ${log}`);
            }
            const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
            try {
                await c.connect();
                await c.query('SELECT 1');
                await c.end();
                return;
            }
            catch {
                await c.end().catch(() => undefined);
                if (Date.now() > deadline) {
                    await stop();
                    throw new Error(`postgres did not accept connections within 60 s: ${log}`);
                }
                await new Promise((r) => setTimeout(r, 200));
            }
        }
    };
    await launch();
    const restart = async () => {
        await halt();
        await launch();
    };
    const crash = async (downMs) => {
        const p = proc;
        if (p?.pid !== undefined && p.exitCode === null && p.signalCode === null) {
            const victims = [p.pid, ...childPids(p.pid)];
            for (const v of victims) {
                try {
                    process.kill(v, 'SIGKILL');
                }
                catch {
                    // already gone
                }
            }
            await exited;
            // The backends are gone too before a new server may attach the data directory.
            const deadline = Date.now() + 10_000;
            while (victims.slice(1).some((v) => (0, node_fs_1.existsSync)(`/proc/${v}`)) && Date.now() < deadline)
                await new Promise((r) => setTimeout(r, 50));
        }
        await new Promise((r) => setTimeout(r, downMs));
        await launch();
    };
    return { url, port, urlWithTable: (table) => `${url}?table=${table}`, stop, restart, crash, pid: () => proc?.pid };
}
//# sourceMappingURL=postgres.js.map