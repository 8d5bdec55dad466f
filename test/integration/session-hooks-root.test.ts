// integration: hooks do not follow the agent (issue 30, class 4), on the real dev server. The
// session plants a `package.json` with a `lint` script and a `.claude/hooks/where.sh` in a
// subdirectory and cds there; its Stop hooks (`npm run --silent lint`, `sh .claude/hooks/where.sh`)
// run in the `runSessionHooks` activity from the project root — the root's scripts, with
// CLAUDE_PROJECT_DIR = the root — and the planted ones never run. Oracles: marker files.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);

test("integration: after the session plants scripts in packages/x and cds there, its Stop hooks run the root's scripts from the root", async () => {
  await withAgent({}, async ({ fake, start, workDir }) => {
    const sub = join(workDir, 'packages', 'x');
    const planted = `${workDir}-PLANTED`;
    await mkdir(join(workDir, '.claude', 'hooks'), { recursive: true });
    await mkdir(sub, { recursive: true });
    await writeFile(
      join(workDir, 'package.json'),
      JSON.stringify({ name: 'root', private: true, scripts: { lint: 'echo root > lint-ran.txt' } }),
    );
    await writeFile(
      join(workDir, '.claude', 'hooks', 'where.sh'),
      'cat > hook-input.json; pwd > hook-pwd.txt; printf %s "$CLAUDE_PROJECT_DIR" > hook-project-dir.txt; echo root > where-ran.txt\n',
    );
    fake.enqueue(
      toolUseResponse([
        {
          id: 'toolu_plant_pkg',
          name: 'Write',
          input: {
            file_path: join(sub, 'package.json'),
            content: JSON.stringify({
              name: 'x',
              scripts: { lint: `echo planted > lint-ran.txt; echo lint >> '${planted}'` },
            }),
          },
        },
        {
          id: 'toolu_plant_hook',
          name: 'Write',
          input: {
            file_path: join(sub, '.claude', 'hooks', 'where.sh'),
            content: `cat >/dev/null; echo planted > where-ran.txt; env > '${planted}.env'; echo where >> '${planted}'\n`,
          },
        },
      ]),
      toolUseResponse([{ id: 'toolu_cd', name: 'Bash', input: { command: 'cd packages/x' } }]),
      textResponse('done'),
    );
    const handle = await start({
      prompt: 'lint packages/x',
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'npm run --silent lint', timeout: 60 },
              { type: 'command', command: 'sh .claude/hooks/where.sh', timeout: 30 },
            ],
          },
        ],
      },
    });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    assert.ok(
      existsSync(join(sub, 'package.json')) && existsSync(join(sub, '.claude', 'hooks', 'where.sh')),
      'planted',
    );
    assert.equal(
      existsSync(planted),
      false,
      `no planted script ran: ${existsSync(planted) ? readFileSync(planted, 'utf8') : ''}`,
    );
    for (const marker of ['lint-ran.txt', 'where-ran.txt']) {
      assert.equal(
        readFileSync(join(workDir, marker), 'utf8').trim(),
        'root',
        `${marker}: the root's script ran in the root`,
      );
      assert.equal(existsSync(join(sub, marker)), false, `${marker}: nothing ran in packages/x`);
    }
    assert.equal(readFileSync(join(workDir, 'hook-pwd.txt'), 'utf8').trim(), workDir);
    assert.equal(readFileSync(join(workDir, 'hook-project-dir.txt'), 'utf8'), workDir);
    const input = JSON.parse(readFileSync(join(workDir, 'hook-input.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'Stop');
    assert.equal(input.cwd, sub, "the hook input's cwd is where the agent is");
  });
});
