// `durable-agent codec-server`: Temporal's remote codec endpoint over this deployment's encryption
// keys, so that the Temporal UI (its codec endpoint setting, or `temporal server start-dev
// --ui-codec-endpoint URL`) and `temporal workflow show --codec-endpoint URL` show payloads in
// plain text to whoever may reach it. docs/encryption.md.
import type { Command } from 'commander';
import { collect, positiveInt, UsageError, waitForSignal } from '../options';

/** The dev server UI's own addresses: allowed when no --origin is given. */
export const DEFAULT_UI_ORIGINS = ['http://localhost:8233', 'http://127.0.0.1:8233'];

interface CodecServerOpts {
  port: number;
  host: string;
  origin: string[];
  authHeader?: string;
  namespace: string[];
  keyFile?: string;
}

export function addCodecServerCommand(program: Command): void {
  program
    .command('codec-server')
    .description(
      "Serve Temporal's remote codec endpoint (POST /decode, /encode) so the Temporal UI shows encrypted payloads",
    )
    .option('--port <n>', 'port to listen on', positiveInt('--port'), 8888)
    .option('--host <address>', 'address to listen on (0.0.0.0: every interface)', '127.0.0.1')
    .option(
      '--origin <url>',
      `a browser origin allowed to call it: the Temporal UI's address, e.g. https://temporal.example.com (repeatable; * allows any; default ${DEFAULT_UI_ORIGINS.join(' and ')})`,
      collect,
      [],
    )
    .option(
      '--auth-header <value>',
      'require this exact Authorization header on every request, e.g. "Bearer s3cret" (env DURABLE_AGENT_CODEC_AUTH_HEADER)',
    )
    .option('--namespace <name>', 'serve only this namespace (X-Namespace; repeatable; default any)', collect, [])
    .option(
      '--key-file <paths>',
      'key files (env DURABLE_AGENT_ENCRYPTION_KEY_FILE; several joined by the path delimiter)',
    )
    .action(runCodecServer);
}

async function runCodecServer(o: CodecServerOpts): Promise<void> {
  const { configuredKeyRing } = await import('../../encryption/keys');
  const { EncryptionCodec } = await import('../../temporal/service/codec');
  const { startCodecServer } = await import('../../temporal/service/codecServer');
  const ring = configuredKeyRing(o.keyFile ? { keyFile: o.keyFile } : undefined);
  if (!ring)
    throw new UsageError(
      'no encryption key: set DURABLE_AGENT_ENCRYPTION_KEY_FILE (or --key-file) to the key file the workers use',
    );
  for (const origin of o.origin)
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin))
      throw new UsageError(`--origin ${origin}: an origin is scheme://host[:port], without a path`);
  const origins = o.origin.length > 0 ? o.origin : DEFAULT_UI_ORIGINS;
  const authorization = o.authHeader ?? (process.env.DURABLE_AGENT_CODEC_AUTH_HEADER || undefined);
  const server = await startCodecServer({
    codec: new EncryptionCodec(ring),
    port: o.port,
    host: o.host,
    origins,
    ...(authorization ? { authorization } : {}),
    namespaces: o.namespace,
  });
  console.log(`codec server: ${server.url} (POST /decode, /encode)`);
  console.log(`keys: ${ring.describe()} (current ${ring.current.id})`);
  console.log(`origins: ${origins.join(', ')}`);
  console.log(`authorization: ${authorization ? 'required' : 'none (anyone who reaches this port can decode)'}`);
  console.log(
    `UI: temporal server start-dev --ui-codec-endpoint ${server.url}, or the UI's codec endpoint setting; CLI: temporal workflow show --codec-endpoint ${server.url} …`,
  );
  await waitForSignal();
  await server.close();
}
