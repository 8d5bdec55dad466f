// integration: background agents and isolated agents (issue 19) on the real dev server. An Agent call
// without run_in_background starts its child session and returns the reference's "Async agent
// launched" result at once; the parent's turn ends while the child still runs (the child's model
// answer is held until then), the session waits for the `local_agent` task, and the child's end
// comes back as the reference's agent `<task-notification>` (result, usage) that starts the next
// parent turn. TaskStop on a running background agent cancels its child session, and no
// notification follows. `isolation: "worktree"`: the child works in `.claude/worktrees/agent-<id>`
// (its Write lands there, not in the parent's tree; the worktree is kept and named in the
// notification), and an isolated child that changed nothing leaves no worktree or branch.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { lastToolResults, textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { newUserMessages } from '../support/sessionProbe';

after(closeTestEnv);

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b: { type?: string; text?: string; content?: unknown }) => {
    if (b.type === 'text') return [b.text ?? ''];
    if (b.type === 'tool_result') return texts(b.content);
    return [];
  });
}
const firstUser = (req: MessagesRequest): string => texts(req.messages[0]?.content).join('\n');
const lastUser = (req: MessagesRequest): string =>
  newUserMessages(req)
    .flatMap((m) => texts(m.content))
    .join('\n');
function systemOf(req: MessagesRequest): string {
  const s = req.system as unknown;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b) => (b as { text?: string }).text ?? '').join('\n') : '';
}

const LAUNCHED = /^Async agent launched successfully\.\nagentId: (a[0-9a-f]{16}) /;

test(
  'integration: a background agent returns at once, the parent ends its turn, and the child report starts the next turn as a task notification',
  { timeout: 180_000 },
  async () => {
    await withAgent({}, async ({ fake, start, client }) => {
      let sawWaiting!: () => void;
      const parentWaiting = new Promise<void>((r) => (sawWaiting = r));
      const notifications: string[] = [];
      let launched = '';
      fake.script(async (req) => {
        if (firstUser(req).includes('SUBTASK')) {
          // The child answers only once its parent was seen waiting for it (its launching turn ended).
          await parentWaiting;
          return textResponse('CHILD REPORT: <all> & done');
        }
        const last = lastUser(req);
        if (last.includes('<task-notification>')) {
          notifications.push(last);
          return textResponse('Got the report.');
        }
        if (req.messages.length === 1)
          return toolUseResponse([
            { id: 'toolu_bga', name: 'Agent', input: { description: 'check things', prompt: 'SUBTASK: check' } },
          ]);
        launched = lastToolResults(req)
          .flatMap((r) => texts(r.content))
          .join('\n');
        return textResponse('The agent is on it.');
      });
      const handle = await start({ prompt: 'delegate it', tools: ['Read', 'Agent', 'TaskStop'] });
      const waiting = await waitFor(
        'the parent to wait for its agent',
        async () => {
          const s = await sessionStatus(client, handle.workflowId);
          return s.status === 'waiting' && s.phase === 'waiting_for_work' ? s : undefined;
        },
        60_000,
      );
      sawWaiting();
      const m = LAUNCHED.exec(launched);
      assert.ok(m, `launched result: ${launched}`);
      const taskId = m[1]!;
      assert.deepEqual(
        waiting.autonomy?.tasks.map((t) => [t.id, t.kind, t.state, t.description, t.agent?.sessionId]),
        [[taskId, 'local_agent', 'running', 'check things', `${handle.workflowId}/agent-toolu_bga`]],
      );
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      assert.equal(result.lastText, 'Got the report.');
      assert.equal(notifications.length, 1);
      const n = notifications[0]!;
      assert.match(
        n,
        new RegExp(`<task-id>${taskId}</task-id>\\n<tool-use-id>toolu_bga</tool-use-id>\\n<status>completed</status>`),
      );
      assert.match(n, /<summary>Agent "check things" finished<\/summary>/);
      assert.match(n, /<result>CHILD REPORT: &lt;all&gt; &amp; done<\/result>/);
      assert.match(
        n,
        /<usage><subagent_tokens>[1-9]\d*<\/subagent_tokens><tool_uses>0<\/tool_uses><duration_ms>\d+<\/duration_ms><\/usage>/,
      );
      // The parent's requests: the launch, the end of that turn, the notification's turn.
      assert.equal(fake.messageRequests().filter((r) => !firstUser(r).includes('SUBTASK')).length, 3);
      // The child is its own workflow, not closed with the turn that started it.
      const child = await client.workflow.getHandle(`${handle.workflowId}/agent-toolu_bga`).describe();
      assert.equal(child.status.name, 'COMPLETED');
    });
  },
);

test(
  'integration: TaskStop on a running background agent cancels its child session; its "was stopped" notification follows (agent-stop-notice)',
  { timeout: 180_000 },
  async () => {
    await withAgent({}, async ({ fake, start, client }) => {
      let childAsked!: () => void;
      const childStarted = new Promise<void>((r) => (childAsked = r));
      let release!: () => void;
      const never = new Promise<void>((r) => (release = r));
      const seen: string[] = [];
      fake.script(async (req) => {
        if (firstUser(req).includes('SUBTASK')) {
          childAsked();
          await never; // the child runs until it is stopped
          return textResponse('too late');
        }
        const last = lastUser(req);
        seen.push(last);
        if (req.messages.length === 1)
          return toolUseResponse([
            { id: 'toolu_bgs', name: 'Agent', input: { description: 'long job', prompt: 'SUBTASK: forever' } },
          ]);
        const m = /agentId: (a[0-9a-f]{16})/.exec(last);
        if (m) {
          await childStarted;
          return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: m[1]! } }]);
        }
        if (last.includes('<task-notification>')) return textResponse('Noticed.');
        return textResponse('Stopped it.');
      });
      try {
        const handle = await start({ prompt: 'start and stop', tools: ['Agent', 'TaskStop'] });
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        assert.equal(result.lastText, 'Noticed.');
        assert.ok(seen.some((t) => /Successfully stopped task: a[0-9a-f]{16} \(long job\)/.test(t)));
        // The reference's notice of a stopped agent, once, as the next turn (no result, no usage).
        const notices = seen.filter((t) => t.includes('<task-notification>'));
        assert.equal(notices.length, 1, notices.join('\n---\n'));
        assert.match(
          notices[0]!,
          /<status>killed<\/status>\n<summary>Agent "long job" was stopped by Claude<\/summary>/,
        );
        assert.doesNotMatch(notices[0]!, /<usage>|<result>/);
        const child = client.workflow.getHandle(`${handle.workflowId}/agent-toolu_bgs`);
        await waitFor(
          'the child session to be cancelled',
          async () => ((await child.describe()).status.name === 'CANCELLED' ? true : undefined),
          60_000,
        );
        const s = await sessionStatus(client, handle.workflowId);
        assert.deepEqual(
          s.autonomy?.tasks.map((t) => [t.kind, t.state]),
          [['local_agent', 'killed']],
        );
      } finally {
        release();
      }
    });
  },
);

test(
  'integration: isolation worktree: the child writes and commits in its own worktree (kept, named in the notification) and cannot move main; an unchanged one is removed',
  { timeout: 180_000 },
  async () => {
    await withAgent({}, async ({ fake, start, workDir, storeDir }) => {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: workDir }).toString();
      await writeFile(join(workDir, 'a.txt'), 'a\n');
      git('init', '-q', '-b', 'main');
      git('add', '.');
      git('commit', '-qm', 'init');
      const childCwds: Record<string, string> = {};
      const notifications: string[] = [];
      let fgResult: string[] = [];
      let childBash = '';
      fake.script((req) => {
        const first = firstUser(req);
        const cwd = /The working directory is (\S+)\.$/m.exec(systemOf(req))?.[1] ?? '';
        if (first.includes('SUBTASK-WRITE')) {
          childCwds.write = cwd;
          if (req.messages.length === 1)
            return toolUseResponse([
              {
                id: 'toolu_subwrite',
                name: 'Write',
                input: { file_path: join(cwd, 'sub.txt'), content: 'from sub\n' },
              },
            ]);
          // Then commit it, and try to move the main checkout's branch too (sandboxed Bash).
          if (req.messages.length === 3)
            return toolUseResponse([
              {
                id: 'toolu_subbash',
                name: 'Bash',
                input: {
                  command:
                    'git add sub.txt && git -c user.email=a@b -c user.name=a commit -qm sub && git update-ref refs/heads/main HEAD && git log -1 --format=%s main',
                },
              },
            ]);
          if (req.messages.length === 5) {
            childBash = lastToolResults(req)
              .filter((r) => r.tool_use_id === 'toolu_subbash')
              .flatMap((r) => texts(r.content))
              .join('\n');
            // A large output: stored as a file in the child's results directory (issue 30 round g).
            return toolUseResponse([{ id: 'toolu_subbig', name: 'Bash', input: { command: 'seq 1 20000' } }]);
          }
          return textResponse('wrote sub.txt');
        }
        if (first.includes('SUBTASK-NOTHING')) {
          childCwds.nothing = cwd;
          return textResponse('nothing to change');
        }
        const last = lastUser(req);
        if (last.includes('<task-notification>')) {
          notifications.push(last);
          return textResponse('All done.');
        }
        if (req.messages.length === 1)
          return toolUseResponse([
            {
              id: 'toolu_iso_bg',
              name: 'Agent',
              input: { description: 'write it', prompt: 'SUBTASK-WRITE', isolation: 'worktree' },
            },
            {
              id: 'toolu_iso_fg',
              name: 'Agent',
              input: {
                description: 'look only',
                prompt: 'SUBTASK-NOTHING',
                isolation: 'worktree',
                run_in_background: false,
              },
            },
          ]);
        fgResult = lastToolResults(req)
          .filter((r) => r.tool_use_id === 'toolu_iso_fg')
          .flatMap((r) => texts(r.content));
        return textResponse('Waiting.');
      });
      const handle = await start({
        prompt: 'isolate',
        tools: ['Agent', 'Write', 'Read', 'Bash'],
        permissionMode: 'bypassPermissions',
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      // The isolated background child's large result lies inside its parent's results directory, and
      // nothing of the tree's lies anywhere else (issue 30 round g: a parent reads its children there).
      const results = join(storeDir, 'results');
      const stored = readdirSync(results, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(results, join(e.parentPath, e.name)));
      assert.deepEqual(stored, [join(handle.workflowId, 'agents', 'agent-toolu_iso_bg', 'toolu_subbig.txt')]);
      assert.match(readFileSync(join(results, stored[0]!), 'utf8'), /^20000$/m);
      const wtRoot = join(workDir, '.claude', 'worktrees');
      // The writing child worked in its own worktree: the file is there, not in the parent's tree.
      assert.match(childCwds.write ?? '', new RegExp(`^${wtRoot}/agent-a[0-9a-f]{16}$`));
      assert.equal(readFileSync(join(childCwds.write!, 'sub.txt'), 'utf8'), 'from sub\n');
      assert.equal(existsSync(join(workDir, 'sub.txt')), false);
      const name = childCwds.write!.slice(wtRoot.length + 1);
      // Its commit came into the repository on its branch; main, which its command moved inside the
      // sandbox (its view said so), did not move, and the child was told (src/sandbox/worktreeGit.ts).
      assert.equal(git('log', '-1', '--format=%s', `worktree-${name}`).trim(), 'sub');
      assert.equal(git('log', '-1', '--format=%s', 'main').trim(), 'init', childBash);
      assert.match(childBash, /^sub$/m);
      assert.match(childBash, /<worktree_git>[\s\S]*refs\/heads\/main -> [0-9a-f]{12}: not applied/);
      assert.match(git('worktree', 'list'), new RegExp(`${name} +[0-9a-f]+ \\[worktree-${name}\\]`));
      assert.equal(notifications.length, 1);
      assert.match(
        notifications[0]!,
        new RegExp(
          `<result>wrote sub.txt</result>\\n<usage>.*</usage>\\n<worktree><worktreePath>${childCwds.write}</worktreePath><worktreeBranch>worktree-${name}</worktreeBranch></worktree>\\n</task-notification>`,
        ),
      );
      // The foreground child changed nothing: its worktree and branch are gone, and its result names none.
      assert.match(childCwds.nothing ?? '', new RegExp(`^${wtRoot}/agent-a[0-9a-f]{16}$`));
      assert.equal(existsSync(childCwds.nothing!), false);
      const gone = childCwds.nothing!.slice(wtRoot.length + 1);
      assert.equal(git('branch', '--list', `worktree-${gone}`).trim(), '');
      assert.equal(fgResult[0], 'nothing to change');
      assert.ok(!fgResult.join('\n').includes('worktreePath'), fgResult.join('\n'));
    });
  },
);
