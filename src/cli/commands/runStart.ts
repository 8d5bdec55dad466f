// `run`'s steps 8 and 9: compare the control files with the last session here (and with the main
// checkout, in a linked worktree), then start the session, say what it loaded and follow it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentDefinition } from '../../agents/definitions';
import type { SkillDefinition } from '../../agents/skills';
import { BUILTIN_TOOL_NAMES, DEFAULT_MODEL, sessionInput, startSession } from '../../client';
import { UsageError, followAndExit, print, withClient } from '../options';
import { followPrinted } from '../printFollow';
import type { InitInfo } from '../printFormat';
import { warn, type Loaded, type McpServers, type RunOpts, type RunSessionOptions } from './runOpts';

/** The init line of stream-json: what the session offers, as the CLI started it. */
function initInfo(
  id: string,
  opts: RunSessionOptions,
  mcp: McpServers,
  agents: AgentDefinition[],
  skills: SkillDefinition[],
): InitInfo {
  return {
    sessionId: id,
    cwd: opts.cwd ?? process.cwd(),
    tools: sessionTools(opts),
    mcpServers: Object.keys(mcp.servers),
    model: opts.model?.model ?? process.env.ANTHROPIC_MODEL ?? DEFAULT_MODEL,
    permissionMode: opts.permissionMode ?? process.env.DURABLE_AGENT_PERMISSION_MODE ?? 'default',
    agents: agents.map((a) => a.name),
    skills: skills.map((k) => k.name),
    additionalDirectories: opts.additionalDirectories ?? [],
    apiKeySource: process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : 'none',
    version: packageVersion(),
  };
}

/** The session's tools as its input will name them (the default set with ToolSearch unless tool search is off). */
function sessionTools(opts: RunSessionOptions): string[] {
  try {
    return [...sessionInput(opts).tools];
  } catch {
    return [...(opts.tools ?? BUILTIN_TOOL_NAMES)];
  }
}

function packageVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The control files against the previous session's here (src/cli/controlManifest.ts): every change
 * is named; and a linked worktree's control files that came with a checkout no session here has
 * seen, and that the main checkout does not have (src/sandbox/checkoutControl.ts): named, and
 * nothing starts unless the person trusts them (--trust-checkout).
 */
async function compareControlFiles(o: RunOpts, opts: RunSessionOptions, cwd: string) {
  const manifest = await import('../controlManifest');
  const { changeLines, checkoutLines, controlFilesSinceLastSession, runFilesOf } = manifest;
  // The scripts its hooks and MCP servers run count too: what one session rewrote is named before the next runs it.
  const runFiles = runFilesOf(cwd, opts.additionalDirectories ?? [], opts.hooks, opts.mcpServers);
  const since = await controlFilesSinceLastSession(cwd, opts.additionalDirectories ?? [], undefined, runFiles).catch(
    (err: unknown) => {
      warn(
        `the control files could not be compared with the last session here: ${err instanceof Error ? err.message : String(err)}`,
      );
      return undefined;
    },
  );
  const { controlFilesFromCheckout } = await import('../../sandbox/checkoutControl');
  const fromCheckout = await controlFilesFromCheckout(cwd, runFiles, since ? since.previous?.startedAt : undefined);
  const checkoutChanged = fromCheckout ? checkoutLines(fromCheckout, cwd) : [];
  const named = new Set(fromCheckout?.changes.map((c) => c.path));
  const changed = [
    ...checkoutChanged,
    ...(since ? changeLines({ ...since, changes: since.changes.filter((c) => !named.has(c.path)) }, cwd) : []),
  ];
  if (checkoutChanged.length > 0 && !o.trustCheckout) {
    for (const line of changed) process.stderr.write(`${line}\n`);
    throw new UsageError(
      `nothing was started: the control files above came with a checkout of this worktree and differ from the main checkout ${fromCheckout!.mainRoot}; a branch can carry what no session could write on disk. Read them, then run again with --trust-checkout to start a session that loads them.`,
    );
  }
  return { manifest, runFiles, since, fromCheckout, changed };
}

/** What `run` says it loaded, for a person: one line each. */
async function printLoaded(
  handle: Awaited<ReturnType<typeof startSession>>,
  { cwd, settings, memory, mcp, agents, skills }: Loaded,
): Promise<void> {
  console.log(`session ${handle.workflowId} started (cwd ${cwd})`);
  const desc = await handle.describe().catch(() => undefined);
  const line = (desc?.memo as { sandbox?: unknown } | undefined)?.sandbox;
  if (typeof line === 'string') console.log(`sandbox: ${line}`);
  const servers = Object.keys(mcp.servers);
  if (servers.length > 0) console.log(`MCP servers: ${servers.map((n) => `${n} (${mcp.origins[n]})`).join(', ')}`);
  console.log(`settings: ${settings.sources.length ? settings.sources.join(', ') : 'none'}`);
  console.log(`memory: ${memory.files.length ? memory.files.map((f) => f.path).join(', ') : 'none'}`);
  console.log(
    `agents: ${agents.map((a) => (a.source === 'built-in' ? a.name : `${a.name} (${a.source})`)).join(', ')}`,
  );
  if (skills.length > 0) console.log(`skills: ${skills.map((k) => `${k.name} (${k.source})`).join(', ')}`);
}

/** Compares the control files with the last session here, starts the session, prints what it loaded and follows it. */
export async function startAndFollow(o: RunOpts, opts: RunSessionOptions, loadedFiles: Loaded) {
  const { cwd, settings, memory, mcp, agents, skills } = loadedFiles;
  const { manifest, runFiles, since, fromCheckout, changed } = await compareControlFiles(o, opts, cwd);
  const { recordSessionEnd, recordSessionStart } = manifest;
  await withClient(o, async (client) => {
    const startedAt = Date.now();
    const handle = await startSession(client, opts);
    const id = handle.workflowId;
    if (since) {
      await recordSessionStart(cwd, id, since.now).catch((err: unknown) =>
        warn(`the control-file manifest was not written: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
    for (const line of changed) process.stderr.write(`${line}\n`);
    // Which files were loaded: in the JSON form too (the first line of `run --json`).
    const loaded = {
      cwd,
      settings: settings.sources,
      memory: memory.files.map((f) => f.path),
      ...(skills.length > 0 ? { skills: skills.map((k) => k.source) } : {}),
      ...(since?.changes.length
        ? { controlFilesChanged: since.changes.map((c) => ({ ...c, since: since.previous?.session })) }
        : {}),
      ...(fromCheckout?.changes.length
        ? {
            controlFilesFromCheckout: fromCheckout.changes.map((c) => ({
              path: c.path,
              change: c.change,
              ...(fromCheckout.record
                ? { branch: fromCheckout.record.branch, commit: fromCheckout.record.commit }
                : {}),
            })),
          }
        : {}),
    };
    if (o.detach) {
      print(o, { session: id, ...loaded }, id);
      return;
    }
    if (o.print) {
      const code = await followPrinted(client, id, {
        format: o.outputFormat ?? 'text',
        init: initInfo(id, opts, mcp, agents, skills),
        startedAt,
        ...(o.maxTurns ? { maxTurns: o.maxTurns } : {}),
      });
      // Everything printed reaches a pipe before the process exits.
      await new Promise<void>((r) => process.stdout.write('', () => r()));
      process.exitCode = code;
      if (code !== 130)
        await recordSessionEnd(cwd, opts.additionalDirectories ?? [], id, undefined, undefined, runFiles).catch(
          () => undefined,
        );
      return;
    }
    if (o.json) console.log(JSON.stringify({ session: id, event: 'started', ...loaded }));
    else await printLoaded(handle, loadedFiles);
    const outcome = await followAndExit(client, id, o);
    if (outcome === 'ended')
      await recordSessionEnd(cwd, opts.additionalDirectories ?? [], id, undefined, undefined, runFiles).catch(
        () => undefined,
      );
  });
}
