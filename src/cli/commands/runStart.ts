// `run`'s steps 8 and 9: compare the control files with the last session here (and with the main
// checkout, in a linked worktree), then start the session, say what it loaded and follow it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentDefinition } from '../../agents/definitions';
import type { SkillDefinition } from '../../agents/skills';
import {
  BUILTIN_TOOL_NAMES,
  CheckoutNotTrustedError,
  DEFAULT_MODEL,
  prepareSessionStart,
  sessionInput,
  startPreparedSession,
} from '../../temporal/client';
import { checkoutRefusal, type CheckoutControl } from '../../worktree/git/checkoutControl';
import { UsageError, followAndExit, print, withClient } from '../options';
import { followPrinted } from '../printFollow';
import type { InitInfo } from '../printFormat';
import { warn, type Loaded, type McpServers, type RunOpts, type RunSessionOptions } from './runOpts';
import { terminalLine, terminalSafe } from '../terminalText';

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
 * is named. A linked worktree's control files that came with a checkout no session here has seen,
 * and that the main checkout does not have (src/worktree/git/checkoutControl.ts), are the check every
 * start path runs (prepareSessionStart → checkoutAtStart), with the last session here from the
 * manifest: named, and nothing starts unless the person trusts them (--trust-checkout).
 */
async function compareControlFiles(opts: RunSessionOptions, cwd: string) {
  const manifest = await import('../controlManifest');
  const { changeLines, controlFilesSinceLastSession, runFilesOf } = manifest;
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
  /** The manifest's lines, less the files the checkout's lines already name. */
  const otherLines = (fromCheckout: CheckoutControl | undefined): string[] => {
    const named = new Set(fromCheckout?.changes.map((c) => c.path));
    return since ? changeLines({ ...since, changes: since.changes.filter((c) => !named.has(c.path)) }, cwd) : [];
  };
  return { manifest, runFiles, since, checkoutSince: since?.previous?.startedAt, otherLines };
}

/** The session prepared by the one start path; a checkout's control files the person has not trusted end `run` here, named. */
async function prepareRun(
  client: Parameters<typeof prepareSessionStart>[0],
  o: RunOpts,
  opts: RunSessionOptions,
  { checkoutSince, otherLines }: Awaited<ReturnType<typeof compareControlFiles>>,
) {
  try {
    return await prepareSessionStart(client, {
      ...opts,
      ...(o.trustCheckout ? { trustCheckout: true } : {}),
      ...(checkoutSince ? { checkoutSince } : {}),
    });
  } catch (err) {
    if (!(err instanceof CheckoutNotTrustedError)) throw err;
    for (const line of [...err.lines, ...otherLines(err.control)]) process.stderr.write(`${terminalSafe(line)}\n`);
    throw new UsageError(checkoutRefusal(err.control, 'run again with --trust-checkout'));
  }
}

/** What `run` says it loaded, for a person: one line each. */
async function printLoaded(
  handle: Awaited<ReturnType<typeof startPreparedSession>>,
  { cwd, settings, memory, mcp, agents, skills }: Loaded,
): Promise<void> {
  // File, server, agent and skill names come from the project: shown, never obeyed by the terminal.
  const say = (line: string) => console.log(terminalLine(line));
  say(`session ${handle.workflowId} started (cwd ${cwd})`);
  const desc = await handle.describe().catch(() => undefined);
  const line = (desc?.memo as { sandbox?: unknown } | undefined)?.sandbox;
  if (typeof line === 'string') say(`sandbox: ${line}`);
  const servers = Object.keys(mcp.servers);
  if (servers.length > 0) say(`MCP servers: ${servers.map((n) => `${n} (${mcp.origins[n]})`).join(', ')}`);
  say(`settings: ${settings.sources.length ? settings.sources.join(', ') : 'none'}`);
  say(`memory: ${memory.files.length ? memory.files.map((f) => f.path).join(', ') : 'none'}`);
  say(`agents: ${agents.map((a) => (a.source === 'built-in' ? a.name : `${a.name} (${a.source})`)).join(', ')}`);
  if (skills.length > 0) say(`skills: ${skills.map((k) => `${k.name} (${k.source})`).join(', ')}`);
}

/** Compares the control files with the last session here, starts the session, prints what it loaded and follows it. */
export async function startAndFollow(o: RunOpts, opts: RunSessionOptions, loadedFiles: Loaded) {
  const { cwd, settings, memory, mcp, agents, skills } = loadedFiles;
  const compared = await compareControlFiles(opts, cwd);
  const { manifest, runFiles, since, otherLines } = compared;
  const { recordSessionEnd, recordSessionStart } = manifest;
  await withClient(o, async (client) => {
    const prepared = await prepareRun(client, o, opts, compared);
    const fromCheckout = prepared.checkout?.control;
    const changed = [...(prepared.checkout?.lines ?? []), ...otherLines(fromCheckout)];
    const startedAt = Date.now();
    const handle = await startPreparedSession(client, prepared);
    const id = handle.workflowId;
    if (since) {
      await recordSessionStart(cwd, id, since.now).catch((err: unknown) =>
        warn(`the control-file manifest was not written: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
    for (const line of changed) process.stderr.write(`${terminalSafe(line)}\n`);
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
