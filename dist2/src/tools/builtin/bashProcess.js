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
exports.BASH_SPOOL_CAP_ENV = exports.BASH_DEFAULT_SPOOL_CAP_BYTES = exports.sleep = exports.BASH_MAX_OUTPUT_BYTES = void 0;
exports.groupAlive = groupAlive;
exports.signalGroup = signalGroup;
exports.readTail = readTail;
exports.readOutput = readOutput;
exports.bashSpoolCapBytes = bashSpoolCapBytes;
exports.openOutputSpool = openOutputSpool;
// Bash's process and output plumbing: the command's process group (alive? signal it) and its
// output spool (a socket copied to a file up to a cap; the tail for progress, the whole output
// capped head + tail).
const node_fs_1 = require("node:fs");
const net = __importStar(require("node:net"));
const path = __importStar(require("node:path"));
/** Output kept in the result's data; beyond it the middle is dropped (head and tail kept). */
exports.BASH_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
function groupAlive(pgid) {
    try {
        process.kill(-pgid, 0);
        return true;
    }
    catch (err) {
        return err.code === 'EPERM';
    }
}
function signalGroup(pgid, signal) {
    try {
        process.kill(-pgid, signal);
    }
    catch {
        // already gone
    }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
exports.sleep = sleep;
/** Reads the tail of the output file, at most `bytes`, skipping a cut UTF-8 sequence. */
async function readTail(fh, size, bytes) {
    const start = Math.max(0, size - bytes);
    const buf = Buffer.alloc(size - start);
    const { bytesRead } = await fh.read(buf, 0, buf.length, start);
    let b = buf.subarray(0, bytesRead);
    if (start > 0) {
        let k = 0;
        while (k < b.length && k < 4 && (b[k] & 0xc0) === 0x80)
            k++;
        b = b.subarray(k);
    }
    return b.toString('utf8');
}
async function readOutput(fh) {
    const { size } = await fh.stat();
    if (size <= exports.BASH_MAX_OUTPUT_BYTES) {
        const buf = Buffer.alloc(size);
        const { bytesRead } = await fh.read(buf, 0, size, 0);
        return { output: buf.subarray(0, bytesRead).toString('utf8'), omittedBytes: 0 };
    }
    const half = exports.BASH_MAX_OUTPUT_BYTES / 2;
    const head = Buffer.alloc(half);
    await fh.read(head, 0, half, 0);
    const tail = await readTail(fh, size, half);
    const omitted = size - 2 * half;
    return {
        output: `${head.toString('utf8')}\n\n[... ${omitted} bytes of output omitted ...]\n\n${tail}`,
        omittedBytes: omitted,
    };
}
/** The spool's default cap: past it the command is stopped (DURABLE_AGENT_BASH_MAX_SPOOL_BYTES overrides it). */
exports.BASH_DEFAULT_SPOOL_CAP_BYTES = 64 * 1024 * 1024;
exports.BASH_SPOOL_CAP_ENV = 'DURABLE_AGENT_BASH_MAX_SPOOL_BYTES';
/**
 * The most output one Bash call may spool to the worker's temp directory: the worker's
 * DURABLE_AGENT_BASH_MAX_SPOOL_BYTES (bytes, or with a K, M or G suffix: binary units), else
 * 64 MiB. A malformed value is an error naming the variable.
 */
function bashSpoolCapBytes(env = process.env) {
    const raw = env[exports.BASH_SPOOL_CAP_ENV];
    if (raw === undefined || raw.trim() === '')
        return exports.BASH_DEFAULT_SPOOL_CAP_BYTES;
    const m = /^\s*(\d+)\s*([kmg]i?b?)?\s*$/i.exec(raw);
    const unit = m?.[2]?.[0]?.toLowerCase();
    const n = m ? Number(m[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1) : NaN;
    if (!Number.isSafeInteger(n) || n < 1024) {
        throw new Error(`${exports.BASH_SPOOL_CAP_ENV}=${raw} is not a size: use bytes (at least 1024) or a number with K, M or G (e.g. 64M)`);
    }
    return n;
}
/** `file`: where the output goes (default `<dir>/output`; a background task's output file). */
async function openOutputSpool(dir, capBytes, file) {
    // A socket pair made in the call's own directory (0700: nobody else can connect), with no
    // process to spawn and nothing that blocks the worker. The child's writes block while the
    // worker has not read what came before.
    const address = path.join(dir, 'out.sock');
    const server = net.createServer();
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(address, () => resolve());
    });
    const accepted = new Promise((resolve) => server.once('connection', resolve));
    const writeEnd = net.connect(address);
    writeEnd.pause(); // nothing is ever sent this way
    try {
        await new Promise((resolve, reject) => {
            writeEnd.once('connect', () => resolve());
            writeEnd.once('error', reject);
        });
    }
    finally {
        server.close();
    }
    const sock = await accepted;
    const fh = await node_fs_1.promises.open(file ?? path.join(dir, 'output'), 'w+');
    let offset = 0;
    let received = 0;
    let chunks = 0;
    let capped = false;
    let draining = false;
    let ended = false;
    let writing = Promise.resolve();
    let busy = false;
    const capListeners = [];
    sock.on('data', (chunk) => {
        chunks++;
        received += chunk.length;
        if (capped || draining)
            return;
        const n = Math.min(chunk.length, capBytes - offset);
        if (n < chunk.length) {
            capped = true;
            for (const cb of capListeners.splice(0))
                cb();
        }
        if (n <= 0)
            return;
        sock.pause();
        busy = true;
        const at = offset;
        offset += n;
        writing = (async () => {
            let done = 0;
            while (done < n)
                done += (await fh.write(chunk, done, n - done, at + done)).bytesWritten;
        })()
            .catch(() => undefined)
            .finally(() => {
            busy = false;
            sock.resume();
        });
    });
    const finished = () => {
        ended = true;
        sock.destroy();
    };
    sock.once('end', finished);
    sock.once('error', finished);
    const immediate = () => new Promise((r) => setImmediate(r));
    return {
        writeEnd,
        closeWriteEnd: () => void writeEnd.destroy(),
        file: fh,
        spooled: () => offset,
        received: () => received,
        capBytes,
        capped: () => capped,
        onCap: (cb) => void capListeners.push(cb),
        async drain() {
            // EOF comes at once unless a child the shell left running holds the pipe; then what the
            // shell wrote is what arrives before the pipe goes quiet (it was in the pipe when it exited).
            for (;;) {
                if (ended)
                    break;
                await writing;
                const seen = chunks;
                await immediate();
                await immediate();
                if (ended || (!busy && chunks === seen))
                    break;
            }
            await writing;
            draining = true;
            sock.unref();
        },
    };
}
//# sourceMappingURL=bashProcess.js.map