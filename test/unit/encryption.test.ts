// unit: payload and blob encryption (docs/encryption.md) — key files and their errors, the payload
// codec (AES-256-GCM, key id in the metadata, rotation, a clear error for an unknown key), the
// encrypted blob store (old plain blobs still read, a blob bound to its key), and the remote codec
// endpoint over real HTTP (decode/encode, CORS preflight, Authorization, X-Namespace, bad input),
// and the `codec-server` command as a real process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { configuredKeyRing, KeyRing, parseKey, keyRingFromFiles } from '../../src/encryption/keys';
import { EncryptionCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../src/temporal/service/codec';
import { startCodecServer } from '../../src/temporal/service/codecServer';
import { EncryptedBlobStore, isEncryptedBlob } from '../../src/stores/encryptedBlobStore';
import { LocalBlobStore, TranscriptStore } from '../../src/stores/messageStore';
import { configuredBlobStore, describeBlobStore } from '../../src/stores/configured';
import { cli } from '../support/cli';

const CLI_MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');

const newKey = (): string => randomBytes(32).toString('base64');
const ringOf = (...keys: string[]): KeyRing => configuredKeyRing({ keys })!;
const text = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('utf8');

async function keyFile(lines: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'da-keys-'));
  const file = join(dir, 'keys');
  await writeFile(file, lines);
  return file;
}

test('unit encryption keys: one base64 line of 32 bytes a key, comments and blank lines skipped, current first; bad material is one line naming the file and line', async () => {
  const [a, b] = [newKey(), newKey()];
  const file = await keyFile(`# current\n${b}\n\n${a}\n`);
  const ring = keyRingFromFiles(file);
  assert.deepEqual(
    ring.keys.map((k) => k.id),
    [parseKey(b, 'b').id, parseKey(a, 'a').id],
  );
  assert.equal(ring.current.id, parseKey(b, 'b').id);
  assert.match(ring.current.id, /^k-[0-9a-f]{16}$/);
  // Several files joined by the path delimiter: the first file's first key is current; duplicates collapse.
  const other = await keyFile(`${a}\n`);
  const both = keyRingFromFiles(`${other}${delimiter}${file}`);
  assert.equal(both.current.id, parseKey(a, 'a').id);
  assert.equal(both.keys.length, 2);
  // Via the environment, as every command reads it.
  assert.equal(configuredKeyRing(undefined, { DURABLE_AGENT_ENCRYPTION_KEY_FILE: file })?.current.id, ring.current.id);
  assert.equal(configuredKeyRing(undefined, {}), undefined, 'no variable: encryption off');
  assert.equal(configuredKeyRing(false, { DURABLE_AGENT_ENCRYPTION_KEY_FILE: file }), undefined, 'false: off');

  const short = await keyFile(`${randomBytes(16).toString('base64')}\n`);
  assert.throws(
    () => keyRingFromFiles(short),
    (e: Error & { code?: string }) =>
      e.code === 'ENCRYPTION_KEY' &&
      e.message === `${short} line 1: 16 bytes, an AES-256 key is 32 (make one with: openssl rand -base64 32)`,
  );
  const junk = await keyFile(`${a}\nnot a key!\n`);
  assert.throws(() => keyRingFromFiles(junk), {
    message: `${junk} line 2: not base64 (make a key with: openssl rand -base64 32)`,
  });
  const empty = await keyFile('# nothing yet\n\n');
  assert.throws(() => keyRingFromFiles(empty), { message: `${empty}: no key (one base64 line of 32 bytes a key)` });
  assert.throws(() => keyRingFromFiles('/nonexistent/keys'), {
    message: 'DURABLE_AGENT_ENCRYPTION_KEY_FILE: cannot read /nonexistent/keys: ENOENT',
  });
  for (const bad of [short, junk, empty, '/nonexistent/keys'])
    assert.throws(
      () => keyRingFromFiles(bad),
      (e: Error) => !e.message.includes('\n'),
    );
  assert.throws(() => configuredKeyRing({ keys: ['abc'] }), {
    message: /encryption key 1 given by the caller: not base64/,
  });
});

test('unit encryption codec: a payload becomes binary/encrypted with its key id and no plain text; any key of the ring opens it; an unknown key is an error naming it', async () => {
  const [a, b] = [newKey(), newKey()];
  const plain = defaultPayloadConverter.toPayload({ prompt: 'the secret prompt ZETA-77' })!;
  const [enc] = await new EncryptionCodec(ringOf(a)).encode([plain]);
  assert.equal(text(enc!.metadata!.encoding), ENCRYPTED_ENCODING);
  assert.equal(text(enc!.metadata![KEY_ID_METADATA]), parseKey(a, 'a').id);
  assert.ok(!Buffer.from(enc!.data!).includes('ZETA-77'), 'ciphertext only');
  const [again] = await new EncryptionCodec(ringOf(a)).encode([plain]);
  assert.notDeepEqual(Buffer.from(again!.data!), Buffer.from(enc!.data!), 'a fresh nonce each time');

  // Rotation: a ring whose current key is b still opens what a wrote; what it writes names b.
  const rotated = new EncryptionCodec(ringOf(b, a));
  const [back] = await rotated.decode([enc!]);
  assert.deepEqual(defaultPayloadConverter.fromPayload(back as Payload), { prompt: 'the secret prompt ZETA-77' });
  const [newer] = await rotated.encode([plain]);
  assert.equal(text(newer!.metadata![KEY_ID_METADATA]), parseKey(b, 'b').id);

  // A plain payload (a history from before encryption) passes through.
  const [untouched] = await rotated.decode([plain]);
  assert.equal(untouched, plain);

  const idA = parseKey(a, 'a').id;
  await assert.rejects(new EncryptionCodec(ringOf(b)).decode([enc!]), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'ENCRYPTION_KEY');
    assert.match(
      e.message,
      new RegExp(
        `^a payload is encrypted with key ${idA}, which is not among this process's keys \\(${parseKey(b, 'b').id}, `,
      ),
    );
    return true;
  });
  await assert.rejects(new EncryptionCodec(undefined).decode([enc!]), {
    message: `a payload is encrypted with key ${idA} and this process has no encryption key: set DURABLE_AGENT_ENCRYPTION_KEY_FILE to a file holding that key`,
  });
  // Without keys the codec writes plain payloads (encryption off).
  assert.deepEqual(await new EncryptionCodec(undefined).encode([plain]), [plain]);
  // A flipped bit: refused, not garbage.
  const tampered = { ...enc!, data: Buffer.from(enc!.data!).map((x, i) => (i === 20 ? x ^ 1 : x)) };
  await assert.rejects(new EncryptionCodec(ringOf(a)).decode([tampered]), {
    message: /does not decrypt: it was altered/,
  });
});

test('unit encryption blobs: stored encrypted and bound to their key; old plain blobs still read; configuredBlobStore encrypts whenever keys are configured', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-encblobs-'));
  const base = new LocalBlobStore(dir);
  const a = newKey();
  await base.put('old-plain', 'written before encryption');
  const store = new EncryptedBlobStore(base, ringOf(a));
  await store.put('node-1', JSON.stringify({ messages: ['the secret prompt ZETA-77'] }));
  const raw = (await base.get('node-1'))!;
  assert.ok(isEncryptedBlob(raw), raw.slice(0, 40));
  assert.ok(!raw.includes('ZETA-77'));
  assert.ok(!(await readFile(join(dir, 'no', 'node-1'), 'utf8')).includes('ZETA-77'), 'the file on disk is ciphertext');
  assert.match((await store.get('node-1')) ?? '', /ZETA-77/);
  assert.equal(await store.get('old-plain'), 'written before encryption');
  assert.equal(await store.get('missing'), undefined);
  // Moved under another key, it does not open.
  await base.put('node-2', raw);
  await assert.rejects(store.get('node-2'), { message: /blob node-2 \(key k-[0-9a-f]{16}\) does not decrypt/ });
  // Rotation: a ring with a new current key reads the old blob and writes with the new key.
  const b = newKey();
  const rotated = new EncryptedBlobStore(base, ringOf(b, a));
  assert.match((await rotated.get('node-1')) ?? '', /ZETA-77/);
  await rotated.put('node-3', 'x');
  assert.ok((await base.get('node-3'))!.includes(`:${parseKey(b, 'b').id}:`));
  await assert.rejects(new EncryptedBlobStore(base, ringOf(b)).get('node-1'), {
    message: new RegExp(`^blob node-1 is encrypted with key ${parseKey(a, 'a').id}, which is not among`),
  });

  // The transcript store through it.
  const transcripts = new TranscriptStore(store);
  const head = await transcripts.append(null, [{ role: 'user', content: 'ZETA-77 again' }]);
  assert.deepEqual(await transcripts.load(head), [{ role: 'user', content: 'ZETA-77 again' }]);

  const file = await keyFile(`${a}\n`);
  const configured = configuredBlobStore({ storeDir: dir, encryption: { keyFile: file } });
  assert.ok(configured instanceof EncryptedBlobStore);
  assert.match(describeBlobStore(configured), /^files under .*, encrypted \(current key k-[0-9a-f]{16}\)$/);
  assert.equal(
    configuredBlobStore({ storeDir: dir, blobStore: configured, encryption: { keyFile: file } }),
    configured,
    'not wrapped twice',
  );
  assert.ok(configuredBlobStore({ storeDir: dir, encryption: false }) instanceof LocalBlobStore);
});

test('unit codec server: /decode and /encode round trip over HTTP; CORS preflight for the allowed origin only; Authorization and X-Namespace checked; bad input is a 400 with the reason', async () => {
  const a = newKey();
  const codec = new EncryptionCodec(ringOf(a));
  const server = await startCodecServer({
    codec,
    port: 0,
    origins: ['http://ui.example:8233'],
    authorization: 'Bearer s3cret',
    namespaces: ['default'],
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Namespace': 'default',
        Authorization: 'Bearer s3cret',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  try {
    const plain = defaultPayloadConverter.toPayload({ prompt: 'ZETA-77' })!;
    const json = (p: Payload) => ({
      metadata: Object.fromEntries(
        Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')]),
      ),
      data: Buffer.from(p.data!).toString('base64'),
    });
    // Encode through the server, decode through the server: the original comes back.
    const enc = await post('/encode', { payloads: [json(plain)] });
    assert.equal(enc.status, 200);
    const encoded = (await enc.json()) as { payloads: Array<{ metadata: Record<string, string>; data: string }> };
    assert.equal(Buffer.from(encoded.payloads[0]!.metadata.encoding!, 'base64').toString(), 'binary/encrypted');
    assert.ok(!Buffer.from(encoded.payloads[0]!.data, 'base64').includes('ZETA-77'));
    // Mounted at any depth: only the last part of the path counts.
    const dec = await post('/codec/default/decode', encoded);
    assert.equal(dec.status, 200);
    const decoded = (await dec.json()) as { payloads: Array<{ metadata: Record<string, string>; data: string }> };
    assert.deepEqual(decoded.payloads[0], json(plain));
    // A payload the codec itself encoded decodes too (what the worker writes).
    const [direct] = await codec.encode([plain]);
    const d2 = (await (await post('/decode', { payloads: [json(direct!)] })).json()) as typeof decoded;
    assert.equal(Buffer.from(d2.payloads[0]!.data, 'base64').toString(), '{"prompt":"ZETA-77"}');

    // CORS: the UI's preflight, then its POST carries the origin back.
    const pre = await fetch(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://ui.example:8233',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-namespace',
      },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), 'http://ui.example:8233');
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /X-Namespace/);
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(pre.headers.get('access-control-allow-credentials'), 'true');
    const fromUi = await post('/decode', encoded, { Origin: 'http://ui.example:8233' });
    assert.equal(fromUi.headers.get('access-control-allow-origin'), 'http://ui.example:8233');
    const evilPre = await fetch(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(evilPre.status, 403);
    assert.equal(evilPre.headers.get('access-control-allow-origin'), null);
    assert.equal((await post('/decode', encoded, { Origin: 'http://evil.example' })).status, 403);

    // Authorization: missing or wrong is a 401 and decodes nothing.
    const noAuth = await fetch(`${server.url}/decode`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default' },
      body: JSON.stringify(encoded),
    });
    assert.equal(noAuth.status, 401);
    assert.doesNotMatch(await noAuth.text(), /ZETA/);
    assert.equal((await post('/decode', encoded, { Authorization: 'Bearer wrong!' })).status, 401);
    // X-Namespace outside the served list.
    assert.equal((await post('/decode', encoded, { 'X-Namespace': 'other' })).status, 403);

    // Bad input: 400 with the reason; an unknown key names it.
    const notJson = await post('/decode', '{nope');
    assert.equal(notJson.status, 400);
    assert.deepEqual(await notJson.json(), { error: 'the body is not JSON' });
    assert.deepEqual(await (await post('/decode', { nothing: 1 })).json(), {
      error: 'the body has no "payloads" array',
    });
    const other = await new EncryptionCodec(ringOf(newKey())).encode([plain]);
    const unknown = await post('/decode', { payloads: [json(other[0]!)] });
    assert.equal(unknown.status, 400);
    assert.match(
      ((await unknown.json()) as { error: string }).error,
      /^a payload is encrypted with key k-[0-9a-f]{16}, which is not among/,
    );
    assert.equal((await fetch(`${server.url}/decode`)).status, 405);
    assert.equal((await post('/other', encoded)).status, 404);
  } finally {
    await server.close();
  }
});

test('unit codec-server command: serves with the key file of the environment and stops on SIGTERM; no key or bad key material is one line', async () => {
  const a = newKey();
  const file = await keyFile(`${a}\n`);
  const noKey = await cli(['codec-server', '--port', '1'], { DURABLE_AGENT_ENCRYPTION_KEY_FILE: undefined });
  assert.equal(noKey.code, 1);
  assert.equal(
    noKey.stderr,
    'durable-agent: no encryption key: set DURABLE_AGENT_ENCRYPTION_KEY_FILE (or --key-file) to the key file the workers use\n',
  );
  const badFile = await keyFile('not base64!\n');
  const bad = await cli(['codec-server'], { DURABLE_AGENT_ENCRYPTION_KEY_FILE: badFile });
  assert.equal(bad.stderr, `durable-agent: ${badFile} line 1: not base64 (make a key with: openssl rand -base64 32)\n`);
  const badOrigin = await cli(['codec-server', '--origin', 'http://ui.example/path'], {
    DURABLE_AGENT_ENCRYPTION_KEY_FILE: file,
  });
  assert.match(
    badOrigin.stderr,
    /--origin http:\/\/ui\.example\/path: an origin is scheme:\/\/host\[:port\], without a path/,
  );

  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(
    process.execPath,
    [CLI_MAIN, 'codec-server', '--port', String(port), '--origin', 'http://ui.example'],
    {
      env: {
        ...process.env,
        DURABLE_AGENT_ENCRYPTION_KEY_FILE: file,
        DURABLE_AGENT_CODEC_AUTH_HEADER: 'Bearer env-token',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('UI: ')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    assert.match(out, new RegExp(`^codec server: http://127\\.0\\.0\\.1:${port} \\(POST /decode, /encode\\)$`, 'm'));
    assert.match(out, new RegExp(`^keys: ${parseKey(a, 'a').id} \\(current ${parseKey(a, 'a').id}\\)$`, 'm'));
    assert.match(out, /^authorization: required$/m);
    assert.match(out, /^origins: http:\/\/ui\.example$/m);
    const [enc] = await new EncryptionCodec(ringOf(a)).encode([defaultPayloadConverter.toPayload('hello')!]);
    const body = JSON.stringify({
      payloads: [
        {
          metadata: Object.fromEntries(
            Object.entries(enc!.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')]),
          ),
          data: Buffer.from(enc!.data!).toString('base64'),
        },
      ],
    });
    const url = `http://127.0.0.1:${port}/decode`;
    assert.equal((await fetch(url, { method: 'POST', body })).status, 401, 'the env auth header is required');
    const ok = await fetch(url, { method: 'POST', body, headers: { Authorization: 'Bearer env-token' } });
    const decoded = (await ok.json()) as { payloads: Array<{ data: string }> };
    assert.equal(Buffer.from(decoded.payloads[0]!.data, 'base64').toString(), '"hello"');
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, 'SIGTERM stops it cleanly');
  }
});
