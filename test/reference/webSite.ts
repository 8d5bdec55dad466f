// test:reference, WebFetch cases: one local HTTPS site for both sides (the reference upgrades
// http:// to https://, so the site speaks TLS), with a CA generated at start (openssl) that both
// sides trust: the reference through NODE_EXTRA_CA_CERTS, durable-agent (in this process) through
// the https global agent's `ca`. Every request is counted by path (a denied fetch must not reach it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';

export interface WebSite {
  /** `https://127.0.0.1:<port>` */
  base: string;
  port: number;
  /** The CA certificate file (PEM): NODE_EXTRA_CA_CERTS of the reference. */
  caFile: string;
  /** Requests per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** A CA and a certificate for 127.0.0.1 and localhost signed by it, made with openssl in a fresh directory. */
function makeCertificates(): { dir: string; ca: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'da-ref-tls-'));
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=durable-agent test CA',
  );
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'site.key', '-out', 'site.csr', '-subj', '/CN=127.0.0.1');
  run(
    'x509',
    '-req',
    '-in',
    'site.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'site.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  return { dir, ca: read('ca.pem'), key: read('site.key'), cert: read('site.pem') };
}

export const PAGE_HTML =
  '<html><head><title>Ref page</title></head><body><h1>Ref page</h1><p>The answer is 42.</p></body></html>';

let started: Promise<WebSite> | undefined;

/** The site (started once per run of the harness). */
export function webSite(): Promise<WebSite> {
  return (started ??= startWebSite());
}

async function startWebSite(): Promise<WebSite> {
  const { dir, ca, key, cert } = makeCertificates();
  const hits = new Map<string, number>();
  let port = 0;
  const server = https.createServer({ key, cert }, (req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith('/page')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE_HTML);
    } else if (path === '/redirect-other-host') {
      res.writeHead(302, { location: `https://localhost:${port}/page-after-redirect` });
      res.end();
    } else if (path === '/redirect-same-host') {
      res.writeHead(301, { location: `/page-same-host` });
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  // durable-agent runs in this process: its https requests trust the CA too (the agent's options apply to every request).
  https.globalAgent.options.ca = [...rootCertificates, ca];
  const caFile = join(dir, 'ca.pem');
  return {
    base: `https://127.0.0.1:${port}`,
    port,
    caFile,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
