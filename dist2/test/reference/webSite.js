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
exports.PAGE_HTML = void 0;
exports.webSite = webSite;
// test:reference, WebFetch cases: one local HTTPS site for both sides (the reference upgrades
// http:// to https://, so the site speaks TLS), with a CA generated at start (openssl) that both
// sides trust: the reference through NODE_EXTRA_CA_CERTS, durable-agent (in this process) through
// the https global agent's `ca`. Every request is counted by path (a denied fetch must not reach it).
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const https = __importStar(require("node:https"));
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const node_tls_1 = require("node:tls");
/** A CA and a certificate for 127.0.0.1 and localhost signed by it, made with openssl in a fresh directory. */
function makeCertificates() {
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-ref-tls-'));
    const run = (...args) => void (0, node_child_process_1.execFileSync)('openssl', args, { cwd: dir, stdio: 'ignore' });
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=durable-agent test CA');
    (0, node_fs_1.writeFileSync)((0, node_path_1.join)(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'site.key', '-out', 'site.csr', '-subj', '/CN=127.0.0.1');
    run('x509', '-req', '-in', 'site.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'site.pem', '-days', '2', '-extfile', 'san.ext');
    const read = (f) => (0, node_fs_1.readFileSync)((0, node_path_1.join)(dir, f), 'utf8');
    return { dir, ca: read('ca.pem'), key: read('site.key'), cert: read('site.pem') };
}
exports.PAGE_HTML = '<html><head><title>Ref page</title></head><body><h1>Ref page</h1><p>The answer is 42.</p></body></html>';
let started;
/** The site (started once per run of the harness). */
function webSite() {
    return (started ??= startWebSite());
}
async function startWebSite() {
    const { dir, ca, key, cert } = makeCertificates();
    const hits = new Map();
    let port = 0;
    const server = https.createServer({ key, cert }, (req, res) => {
        const path = req.url ?? '';
        hits.set(path, (hits.get(path) ?? 0) + 1);
        if (path.startsWith('/page')) {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            res.end(exports.PAGE_HTML);
        }
        else if (path === '/redirect-other-host') {
            res.writeHead(302, { location: `https://localhost:${port}/page-after-redirect` });
            res.end();
        }
        else if (path === '/redirect-same-host') {
            res.writeHead(301, { location: `/page-same-host` });
            res.end();
        }
        else {
            res.writeHead(404, { 'content-type': 'text/plain' });
            res.end('not found');
        }
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    port = server.address().port;
    // durable-agent runs in this process: its https requests trust the CA too (the agent's options apply to every request).
    https.globalAgent.options.ca = [...node_tls_1.rootCertificates, ca];
    const caFile = (0, node_path_1.join)(dir, 'ca.pem');
    return {
        base: `https://127.0.0.1:${port}`,
        port,
        caFile,
        hits,
        close: () => new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
        }),
    };
}
//# sourceMappingURL=webSite.js.map