// integration: a repository set up only with Claude Code files (.claude/settings.json,
// .claude/settings.local.json, ~/.claude, CLAUDE.md with an @import) runs through
// `durable-agent run` on the real dev server: the shared deny rule holds, the local allow rule and
// model apply, the memory is in the request the model receives, `status` lists the files; a
// subagent from .claude/agents runs as a child workflow whose final text is the tool_result.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { buildAudit, type AuditToolCall } from '../../src/audit';
import { SandboxHost } from '../../src/sandbox/host';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

after(async () => {
  await new SandboxHost().close();
  await closeTestEnv();
});

function byId(calls: AuditToolCall[], id: string): AuditToolCall {
  const c = calls.find((x) => x.toolUseId === id);
  assert.ok(c, `no call ${id} in ${calls.map((x) => x.toolUseId).join(', ')}`);
  return c;
}

async function put(path: string, content: unknown): Promise<string> {
  await fs.mkdir(join(path, '..'), { recursive: true });
  await fs.writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** The text of a request's first user message. */
function firstUserText(body: { messages: Array<{ role: string; content: unknown }> }): string {
  const m = body.messages.find((x) => x.role === 'user');
  const c = m?.content;
  if (typeof c === 'string') return c;
  return Array.isArray(c)
    ? c.map((b: { type: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n')
    : '';
}

export interface ClaudeRepo {
  home: string;
  env: Record<string, string>;
  shared: string;
  local: string;
  userSettings: string;
  claudeMd: string;
  imported: string;
  userMd: string;
  mcpJson: string;
}

/** A repository with Claude Code files only, and a user home with ~/.claude. */
export async function claudeRepo(
  workDir: string,
  taskQueue: string,
  shared: Record<string, unknown> = {},
): Promise<ClaudeRepo> {
  const home = await fs.mkdtemp(join(tmpdir(), 'da-claude-home-'));
  const repo: ClaudeRepo = {
    home,
    env: {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      DURABLE_AGENT_HOME: join(home, '.durable-agent'),
      DURABLE_AGENT_MANAGED_SETTINGS: join(home, 'no-managed-settings.json'),
      DURABLE_AGENT_MANAGED_MEMORY: join(home, 'no-managed-CLAUDE.md'),
    },
    userSettings: await put(join(home, '.claude', 'settings.json'), {
      model: 'claude-user',
      permissions: { deny: ['Bash(touch user-denied.txt)'] },
    }),
    userMd: await put(join(home, '.claude', 'CLAUDE.md'), 'User rule: sign every answer with KIWI-9.'),
    shared: await put(join(workDir, '.claude', 'settings.json'), {
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      model: 'claude-shared',
      permissions: { defaultMode: 'dontAsk', deny: ['Bash(touch denied.txt)'], allow: ['mcp__everything'] },
      sandbox: { enabled: true, autoAllowBashIfSandboxed: false },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', timeout: 10 }],
          },
        ],
      },
      ...shared,
    }),
    local: await put(join(workDir, '.claude', 'settings.local.json'), {
      model: 'claude-local',
      permissions: { allow: ['Bash(touch allowed.txt)'] },
      enabledMcpjsonServers: ['everything'],
    }),
    mcpJson: await put(join(workDir, '.mcp.json'), {
      mcpServers: { everything: { command: process.execPath, args: [everything] } },
    }),
    claudeMd: await put(
      join(workDir, 'CLAUDE.md'),
      '# Project\nProject rule: the codeword is PINEAPPLE-7.\nStyle: see @docs/style.md\n',
    ),
    imported: await put(join(workDir, 'docs', 'style.md'), 'Imported rule: indent with MANGO-3 tabs.\n'),
  };
  // The hook script blocks (exit 2) any Bash call that mentions hooked.txt.
  const guard = await put(
    join(workDir, '.claude', 'hooks', 'guard.sh'),
    '#!/bin/sh\ninput=$(cat)\ncase "$input" in *hooked.txt*) echo "guard: hooked.txt is off limits" >&2; exit 2;; esac\nexit 0\n',
  );
  await fs.chmod(guard, 0o755);
  return repo;
}

test('integration: Claude Code settings and CLAUDE.md through `durable-agent run`: shared deny holds, local allow and model apply, memory reaches the model, status lists the files', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir, client }) => {
    const repo = await claudeRepo(workDir, taskQueue);
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_cc_denied', name: 'Bash', input: { command: 'touch denied.txt' } },
        { id: 'toolu_cc_allowed', name: 'Bash', input: { command: 'touch allowed.txt' } },
        { id: 'toolu_cc_norule', name: 'Bash', input: { command: 'touch asked.txt' } },
        { id: 'toolu_cc_user', name: 'Bash', input: { command: 'touch user-denied.txt' } },
        { id: 'toolu_cc_hooked', name: 'Bash', input: { command: 'touch hooked.txt' } },
        { id: 'toolu_cc_mcp', name: 'mcp__everything__echo', input: { message: 'from a Claude Code repo' } },
      ]),
      textResponse('done, KIWI-9'),
    );
    const run = await cli(['run', '--cwd', workDir, 'make', 'the', 'files'], repo.env, 90_000);
    assert.equal(run.code, 0, run.stderr);
    const id = /session (\S+) started/.exec(run.stdout)?.[1] as string;
    assert.ok(id, run.stdout);
    assert.ok(run.stdout.includes(`settings: ${repo.userSettings}, ${repo.shared}, ${repo.local}`), run.stdout);
    assert.ok(run.stdout.includes(`memory: ${repo.userMd}, ${repo.claudeMd}, ${repo.imported}`), run.stdout);
    assert.doesNotMatch(run.stderr, /warning/, 'every key of these files is honoured');
    assert.ok(run.stdout.includes(`MCP servers: everything (${repo.mcpJson})`), run.stdout);

    // The rules: the shared deny held, the local allow let its command run, a command with no
    // rule was denied (dontAsk from the shared file), the user file's deny held.
    assert.equal(existsSync(join(workDir, 'denied.txt')), false, 'the denied command did not run');
    assert.equal(existsSync(join(workDir, 'allowed.txt')), true, 'the local allow rule applied');
    assert.equal(existsSync(join(workDir, 'asked.txt')), false);
    assert.equal(existsSync(join(workDir, 'user-denied.txt')), false);
    const audit = await buildAudit(client, id);
    const denied = byId(audit.toolCalls, 'toolu_cc_denied');
    assert.deepEqual(
      [denied.status, denied.decision?.source, denied.decision?.detail],
      ['denied', 'rule', 'Bash(touch denied.txt)'],
    );
    assert.deepEqual(
      [byId(audit.toolCalls, 'toolu_cc_allowed').status, byId(audit.toolCalls, 'toolu_cc_allowed').decision?.detail],
      ['ok', 'Bash(touch allowed.txt)'],
    );
    assert.equal(byId(audit.toolCalls, 'toolu_cc_norule').status, 'denied');
    assert.equal(byId(audit.toolCalls, 'toolu_cc_user').decision?.detail, 'Bash(touch user-denied.txt)');
    // The PreToolUse hook from .claude/settings.json blocked its call (and let the others through).
    assert.equal(existsSync(join(workDir, 'hooked.txt')), false, 'the hook blocked the call');
    const hooked = byId(audit.toolCalls, 'toolu_cc_hooked');
    assert.deepEqual(
      hooked.hooks?.map((h) => [h.event, h.outcome]),
      [['PreToolUse', 'blocking']],
    );
    assert.deepEqual(
      byId(audit.toolCalls, 'toolu_cc_allowed')
        .hooks?.map((h) => [h.event, h.outcome])
        .slice(0, 1),
      [['PreToolUse', 'success']],
    );

    // The model request: the local file's model (highest scalar), the memory before the prompt.
    const requests = fake.messageRequests();
    assert.equal(requests.length, 2);
    const first = requests[0] as unknown as {
      model: string;
      system?: unknown;
      messages: Array<{ role: string; content: unknown }>;
    };
    assert.equal(first.model, 'claude-local');
    const text = firstUserText(first);
    for (const piece of [
      '<system-reminder>',
      `Contents of ${repo.claudeMd} (project instructions, checked into the codebase)`,
      'PINEAPPLE-7',
      'MANGO-3',
      'KIWI-9',
    ]) {
      assert.ok(text.includes(piece), `${piece} in the first user message:\n${text}`);
    }
    assert.ok(text.indexOf('KIWI-9') < text.indexOf('PINEAPPLE-7'), 'user memory before project memory');
    assert.ok(text.trimEnd().endsWith('make the files'), 'the prompt follows the memory');
    assert.doesNotMatch(
      JSON.stringify(first.system ?? ''),
      /PINEAPPLE-7/,
      'memory is user context, not the system prompt',
    );
    // Later requests carry it once (in the transcript), not again.
    const second = JSON.stringify((requests[1] as unknown as { messages: unknown }).messages);
    assert.equal(second.split('PINEAPPLE-7').length - 1, 1);
    const results = (requests[1] as unknown as { messages: Array<{ role: string; content: unknown }> }).messages.at(-1)
      ?.content as Array<{ type: string; tool_use_id: string; is_error?: boolean; content?: unknown }>;
    // The MCP tool from .mcp.json (approved in settings.local.json, allowed in settings.json) returned the server's result.
    const mcpResult = results.find((b) => b.tool_use_id === 'toolu_cc_mcp');
    assert.equal(mcpResult?.is_error, undefined, JSON.stringify(mcpResult));
    assert.match(JSON.stringify(mcpResult?.content), /Echo: from a Claude Code repo/);
    const hookResult = results.find((b) => b.tool_use_id === 'toolu_cc_hooked');
    assert.equal(hookResult?.is_error, true);
    assert.match(JSON.stringify(hookResult?.content), /guard: hooked\.txt is off limits/);

    // status lists the files.
    const st = await cli(['status', id], repo.env);
    assert.equal(st.code, 0, st.stderr);
    assert.ok(st.stdout.includes(`settings  ${repo.userSettings}, ${repo.shared}, ${repo.local}`), st.stdout);
    assert.ok(st.stdout.includes(`memory    ${repo.userMd}, ${repo.claudeMd}, ${repo.imported}`), st.stdout);
    // The audit too: the files, and the memory's hash instead of its text.
    assert.deepEqual(audit.session.settingsSources, [repo.userSettings, repo.shared, repo.local]);
    assert.deepEqual(audit.session.memory?.files, [repo.userMd, repo.claudeMd, repo.imported]);
    assert.match(audit.session.memory?.sha256 ?? '', /^[0-9a-f]{64}$/);
    const auditText = await cli(['audit', id], repo.env);
    assert.ok(
      auditText.stdout.includes(`  memory: ${repo.userMd}, ${repo.claudeMd}, ${repo.imported} (sha256 `),
      auditText.stdout,
    );
    const sj = JSON.parse((await cli(['status', id, '--json'], repo.env)).stdout) as {
      settings: string[];
      memory: string[];
    };
    assert.deepEqual(sj.settings, [repo.userSettings, repo.shared, repo.local]);
    assert.deepEqual(sj.memory, [repo.userMd, repo.claudeMd, repo.imported]);
  });
});

test('integration: a malformed rule in .claude/settings.json stops `run` with one line naming the file and key; a missing @import is a warning', async () => {
  await withAgent({}, async ({ taskQueue, workDir, fake }) => {
    const repo = await claudeRepo(workDir, taskQueue, { permissions: { deny: ['Bash(rm -rf *'] } });
    const bad = await cli(['run', '--cwd', workDir, 'x'], repo.env);
    assert.notEqual(bad.code, 0);
    assert.match(
      bad.stderr.trim(),
      new RegExp(`^durable-agent: .*${repo.shared.replace(/[.]/g, '\\.')}: permissions\\.deny\\[0\\] is malformed`),
    );
    assert.equal(fake.messageRequests().length, 0, 'nothing started');
    await put(repo.shared, { permissions: { deny: ['Bash(rm:*)'] } });
    await put(repo.claudeMd, 'see @docs/missing.md\n');
    fake.enqueue(textResponse('ok'));
    const run = await cli(['run', '--cwd', workDir, 'x'], repo.env, 90_000);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(
      run.stderr.includes(`warning: ${repo.claudeMd}: @import ${join(workDir, 'docs', 'missing.md')} was not found`),
      run.stderr,
    );
  });
});

test('integration: a subagent from .claude/agents/reviewer.md runs through `durable-agent run` as a child workflow; its final text is the tool_result', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir, client }) => {
    const repo = await claudeRepo(workDir, taskQueue);
    await put(
      join(workDir, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews a change.\ntools: Read, Grep\n---\nYou are REVIEWER-MARKER. Review and report.\n',
    );
    const systemOf = (req: { system?: unknown }): string =>
      typeof req.system === 'string'
        ? req.system
        : Array.isArray(req.system)
          ? req.system.map((b: { text?: string }) => b.text ?? '').join('\n')
          : '';
    fake.script(async (req) => {
      if (systemOf(req as { system?: unknown }).includes('REVIEWER-MARKER'))
        return textResponse('reviewer report: LGTM-42');
      if (req.messages.length === 1)
        return toolUseResponse([
          {
            id: 'toolu_cc_agent',
            name: 'Agent',
            input: {
              run_in_background: false,
              description: 'review',
              prompt: 'review the change',
              subagent_type: 'reviewer',
            },
          },
        ]);
      return textResponse('the reviewer said LGTM');
    });
    const run = await cli(['run', '--cwd', workDir, 'get', 'a', 'review'], repo.env, 90_000);
    assert.equal(run.code, 0, run.stderr);
    const id = /session (\S+) started/.exec(run.stdout)?.[1] as string;
    assert.ok(id, run.stdout);
    // The child session exists as its own workflow, and completed.
    const child = await client.workflow.getHandle(`${id}/agent-toolu_cc_agent`).describe();
    assert.equal(child.status.name, 'COMPLETED');
    // The reviewer's system prompt is the agent file's body; its text came back as the tool_result.
    const parentReqs = fake
      .messageRequests()
      .filter((r) => !systemOf(r as { system?: unknown }).includes('REVIEWER-MARKER'));
    const last = parentReqs.at(-1) as unknown as { messages: Array<{ role: string; content: unknown }> };
    const results = last.messages.at(-1)?.content as Array<{
      type: string;
      tool_use_id: string;
      is_error?: boolean;
      content?: unknown;
    }>;
    const agentResult = results.find((b) => b.tool_use_id === 'toolu_cc_agent');
    assert.ok(agentResult, JSON.stringify(results));
    assert.notEqual(agentResult.is_error, true, JSON.stringify(agentResult));
    assert.match(JSON.stringify(agentResult.content), /reviewer report: LGTM-42/);
    const audit = await buildAudit(client, id);
    assert.equal(byId(audit.toolCalls, 'toolu_cc_agent').status, 'ok');
  });
});
