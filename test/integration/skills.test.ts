// integration: skills and the built-in read-only agent types on the real dev server. A session in
// dontAsk mode cannot create a file with Bash until its model loads a skill whose allowed-tools
// allow it (the skill read from .claude/skills at start, listed in the system prompt, its body the
// Skill tool's result, its model used from then on); an Explore subagent is offered no Write and
// its Write call is an unknown tool.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastToolResults, textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';

after(closeTestEnv);

function systemOf(req: MessagesRequest): string {
  const s = req.system as unknown;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b) => (b as { text?: string }).text ?? '').join('\n') : '';
}

test(
  'integration: a skill loaded with the Skill tool allows its allowed-tools for the rest of the session and switches the model',
  { timeout: 120_000 },
  async () => {
    await withAgent({}, async ({ fake, start, workDir }) => {
      await mkdir(join(workDir, '.claude', 'skills', 'mark'), { recursive: true });
      await writeFile(
        join(workDir, '.claude', 'skills', 'mark', 'SKILL.md'),
        '---\ndescription: Marks the project with a file\nallowed-tools: Bash(touch:*)\nmodel: claude-skill-model\n---\nCreate $ARGUMENTS with touch.\n',
      );
      fake.enqueue(
        toolUseResponse([{ id: 'toolu_before', name: 'Bash', input: { command: 'touch before.txt' } }]),
        toolUseResponse([{ id: 'toolu_skill', name: 'Skill', input: { skill: 'mark', args: 'after.txt' } }]),
        toolUseResponse([{ id: 'toolu_after', name: 'Bash', input: { command: 'touch after.txt' } }]),
        textResponse('marked'),
      );
      const handle = await start({
        prompt: 'mark the project',
        permissionMode: 'dontAsk',
        rules: { allow: ['Skill(mark)'], ask: [], deny: [] },
        sandbox: { enabled: false },
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed');
      const reqs = fake.messageRequests();
      assert.equal(reqs.length, 4);
      // Listed to the model in the system prompt; the Skill tool offered.
      assert.match(systemOf(reqs[0]!), /- mark: Marks the project with a file/);
      assert.ok(reqs[0]!.tools?.some((t) => (t as { name: string }).name === 'Skill'));
      // Before the skill: dontAsk denies the write.
      const [before] = lastToolResults(reqs[1]!);
      assert.equal(before?.is_error, true);
      assert.equal(existsSync(join(workDir, 'before.txt')), false);
      // The skill's text, as the reference's result says it.
      const [skill] = lastToolResults(reqs[2]!);
      assert.notEqual(skill?.is_error, true);
      const text = JSON.stringify(skill?.content);
      assert.match(text, /Launching skill: mark/);
      assert.ok(text.includes(`Base directory for this skill: ${join(workDir, '.claude', 'skills', 'mark')}`));
      assert.match(text, /Create after\.txt with touch\./);
      // After it: the same kind of command runs, allowed by the skill's rule.
      const [after] = lastToolResults(reqs[3]!);
      assert.notEqual(after?.is_error, true, JSON.stringify(after));
      assert.equal(existsSync(join(workDir, 'after.txt')), true);
      // The skill's model for the requests after it.
      assert.deepEqual(
        reqs.map((r) => r.model),
        ['claude-test', 'claude-test', 'claude-skill-model', 'claude-skill-model'],
      );
    });
  },
);

test(
  'integration: an Explore subagent is offered no Write, Edit or Agent, and its Write call writes nothing',
  { timeout: 120_000 },
  async () => {
    await withAgent({}, async ({ fake, start, workDir }) => {
      const target = join(workDir, 'explore-wrote.txt');
      const childTools: string[][] = [];
      fake.script((req) => {
        const child = /read-only search agent/.test(systemOf(req));
        const n = req.messages.length;
        if (child) {
          childTools.push((req.tools ?? []).map((t) => (t as { name: string }).name));
          if (n === 1)
            return toolUseResponse([
              { id: 'toolu_child_write', name: 'Write', input: { file_path: target, content: 'x' } },
            ]);
          return textResponse('explore report: nothing written');
        }
        if (n === 1)
          return toolUseResponse([
            {
              id: 'toolu_explore',
              name: 'Agent',
              input: { run_in_background: false, description: 'look', prompt: 'look around', subagent_type: 'Explore' },
            },
          ]);
        return textResponse('done');
      });
      const result = await (await start({ prompt: 'explore' })).result();
      assert.equal(result.status, 'completed');
      assert.ok(childTools.length >= 2, `the child made ${childTools.length} requests`);
      for (const tools of childTools) {
        for (const t of ['Write', 'Edit', 'NotebookEdit', 'Agent', 'Skill'])
          assert.ok(!tools.includes(t), `${t} offered`);
        for (const t of ['Read', 'Grep', 'Glob', 'Bash']) assert.ok(tools.includes(t), `${t} not offered`);
      }
      const childSecond = fake
        .messageRequests()
        .find((r) => /read-only search agent/.test(systemOf(r)) && r.messages.length > 1);
      const [w] = lastToolResults(childSecond!);
      assert.equal(w?.is_error, true);
      assert.match(JSON.stringify(w?.content), /No such tool available: Write/);
      assert.equal(existsSync(target), false);
      // The parent's Agent tool lists Explore and Plan with their tools; its result is the child's report.
      const agentTool = fake.messageRequests()[0]!.tools?.find((t) => (t as { name: string }).name === 'Agent') as
        { description: string } | undefined;
      assert.match(
        agentTool?.description ?? '',
        /- Explore: .*\(Tools: all tools but Agent, Edit, Write, NotebookEdit\)/,
      );
      assert.match(agentTool?.description ?? '', /- Plan: /);
      const parentLast = fake
        .messageRequests()
        .filter((r) => !/read-only search agent/.test(systemOf(r)))
        .pop()!;
      assert.match(JSON.stringify(lastToolResults(parentLast)[0]?.content), /explore report: nothing written/);
    });
  },
);

test(
  "integration: `durable-agent run` reads the user and project skills at start (the user's wins by name) and refuses a malformed SKILL.md before starting",
  { timeout: 120_000 },
  async () => {
    await withAgent({}, async ({ fake, taskQueue, workDir }) => {
      const home = await mkdtemp(join(tmpdir(), 'da-skills-home-'));
      const env = {
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        DURABLE_AGENT_HOME: join(home, '.durable-agent'),
        DURABLE_AGENT_MANAGED_SETTINGS: join(home, 'no-managed-settings.json'),
        DURABLE_AGENT_MANAGED_MEMORY: join(home, 'no-managed-CLAUDE.md'),
      };
      const skill = async (dir: string, text: string) => {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, 'SKILL.md'), text);
      };
      await skill(
        join(home, '.claude', 'skills', 'review'),
        '---\ndescription: USER-REVIEW\n---\nUser review steps.\n',
      );
      await skill(
        join(workDir, '.claude', 'skills', 'review'),
        '---\ndescription: PROJECT-REVIEW\n---\nProject review steps.\n',
      );
      await skill(
        join(workDir, '.claude', 'skills', 'deploy'),
        '---\ndescription: Deploys\n---\nDeploy to $ARGUMENTS.\n',
      );
      fake.enqueue(
        toolUseResponse([{ id: 'toolu_cli_skill', name: 'Skill', input: { skill: 'deploy', args: 'staging' } }]),
        textResponse('deployed'),
      );
      const run = await cli(
        ['run', '--cwd', workDir, '--permission-mode', 'bypassPermissions', 'deploy', 'it'],
        env,
        90_000,
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /skills: review \(.*\/\.claude\/skills\/review\/SKILL\.md\), deploy \(/);
      assert.ok(run.stdout.includes(join(home, '.claude', 'skills', 'review', 'SKILL.md')), run.stdout);
      const [first, second] = fake.messageRequests();
      assert.match(systemOf(first!), /- review: USER-REVIEW/);
      assert.doesNotMatch(systemOf(first!), /PROJECT-REVIEW/);
      assert.match(JSON.stringify(lastToolResults(second!)[0]?.content), /Deploy to staging\./);

      // A malformed SKILL.md: a usage error naming the file and the key; no session starts.
      await skill(join(workDir, '.claude', 'skills', 'bad'), '---\ndescription: d\ncontext: fork\n---\nb\n');
      const before = fake.messageRequests().length;
      const bad = await cli(['run', '--cwd', workDir, 'go'], env, 60_000);
      assert.notEqual(bad.code, 0);
      assert.ok(bad.stderr.includes(join(workDir, '.claude', 'skills', 'bad', 'SKILL.md')), bad.stderr);
      assert.match(bad.stderr, /frontmatter key "context" is not supported/);
      assert.doesNotMatch(bad.stdout, /session \S+ started/);
      assert.equal(fake.messageRequests().length, before);
    });
  },
);
