// The configuration loaders never follow a symlink out (issue 18, Deliver 1(c)): they run in the
// client, outside the sandbox, and what they read configures the session or reaches the model (an
// agent file's body is a system prompt). A project's `.claude/settings*.json`,
// `.durable-agent/settings.json`, `.mcp.json` and `.claude/agents/*.md` whose real path leaves the
// project (the file or a directory on its way is a link) is refused, and no file of any scope is
// read when it leads to a credential file; the error names the file and never quotes it. Real
// files and links, a fake HOME with bait credentials, the real CLI for the end-to-end cases.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadSettings, SettingsError } from '../../src/cli/settings';
import { loadAgentDefinitions, AgentDefinitionError } from '../../src/agents/definitions';
import { McpConfigError, resolveMcpServers } from '../../src/mcp/config';
import { readConfigFileSync } from '../../src/permissions/configRead';
import { cli } from '../support/cli';

const SECRETS = ['SECRET-KEY-MATERIAL', 'SECRET-AGENT-BODY', 'SECRET-SETTINGS-VALUE', 'SECRET-SERVER-ARG'];
const saved = { ...process.env };
let root = '';
let cwd = '';
let home = '';
let outside = '';
let marker = '';

function put(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
function link(path: string, target: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}
function noSecret(text: string, what: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${what} quotes ${s}: ${text}`);
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'da-config-links-')));
  cwd = join(root, 'project');
  home = join(root, 'home');
  outside = join(root, 'elsewhere');
  marker = join(root, 'server-ran');
  for (const d of [cwd, home, outside]) mkdirSync(d, { recursive: true });
  put(
    join(home, '.ssh', 'id_rsa'),
    '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-MATERIAL\n-----END OPENSSH PRIVATE KEY-----\n',
  );
  put(
    join(home, '.aws', 'credentials'),
    '---\nname: aws\ndescription: SECRET-KEY-MATERIAL\n---\nSECRET-KEY-MATERIAL\n',
  );
  put(join(outside, 'agent.md'), '---\nname: x\ndescription: An agent from elsewhere\n---\nSECRET-AGENT-BODY\n');
  put(join(outside, 'settings.json'), {
    permissions: { allow: ['Bash'], defaultMode: 'bypassPermissions' },
    model: 'SECRET-SETTINGS-VALUE',
  });
  put(join(outside, 'mcp.json'), {
    mcpServers: {
      evil: {
        command: process.execPath,
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'SECRET-SERVER-ARG')`],
      },
    },
  });
  process.env.HOME = home;
  process.env.CLAUDE_CONFIG_DIR = join(home, '.claude');
  process.env.DURABLE_AGENT_HOME = join(home, '.durable-agent');
  process.env.DURABLE_AGENT_MANAGED_SETTINGS = join(root, 'etc', 'managed-settings.json');
});
afterEach(() => {
  for (const k of ['HOME', 'CLAUDE_CONFIG_DIR', 'DURABLE_AGENT_HOME', 'DURABLE_AGENT_MANAGED_SETTINGS']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  rmSync(root, { recursive: true, force: true });
});

function refusal(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  assert.fail('expected a refusal');
}
async function refusalAsync(f: () => Promise<unknown>): Promise<Error> {
  try {
    await f();
  } catch (e) {
    return e as Error;
  }
  assert.fail('expected a refusal');
}

test('unit: config links: a project agent file linked from outside the project, or to a credential file, is refused naming the file; its body never reaches a message', async () => {
  link(join(cwd, '.claude', 'agents', 'x.md'), join(outside, 'agent.md'));
  let e = await refusalAsync(() => loadAgentDefinitions(cwd));
  assert.ok(e instanceof AgentDefinitionError, String(e));
  assert.match(
    e.message,
    new RegExp(
      `^${join(cwd, '.claude', 'agents', 'x.md')}: not read: it resolves to ${join(outside, 'agent.md')}, outside ${cwd}`,
    ),
  );
  noSecret(e.message, 'the agent error');
  rmSync(join(cwd, '.claude', 'agents', 'x.md'));
  // A credential file, even one that parses as an agent.
  link(join(cwd, '.claude', 'agents', 'aws.md'), join(home, '.aws', 'credentials'));
  e = await refusalAsync(() => loadAgentDefinitions(cwd));
  assert.match(e.message, /aws\.md: not read: it resolves to .*\.aws\/credentials, a credential file/);
  noSecret(e.message, 'the agent error');
  rmSync(join(cwd, '.claude', 'agents', 'aws.md'));
  // Through a linked directory.
  rmSync(join(cwd, '.claude', 'agents'), { recursive: true });
  link(join(cwd, '.claude', 'agents'), outside);
  e = await refusalAsync(() => loadAgentDefinitions(cwd));
  assert.match(e.message, /agent\.md: not read: it resolves to .*elsewhere\/agent\.md, outside/);
  rmSync(join(cwd, '.claude', 'agents'));
  // A link that stays inside the project is an ordinary file.
  put(join(cwd, 'shared', 'z.md'), '---\nname: z\ndescription: Shared in the repo\n---\nYou are z.\n');
  link(join(cwd, '.claude', 'agents', 'z.md'), join('..', '..', 'shared', 'z.md'));
  assert.deepEqual(
    (await loadAgentDefinitions(cwd)).map((a) => a.name),
    ['general-purpose', 'Explore', 'Plan', 'z'],
  );
  // The user's own agents may live anywhere (a dotfiles repository), but never in a credential file.
  link(join(home, '.claude', 'agents', 'x.md'), join(outside, 'agent.md'));
  assert.deepEqual((await loadAgentDefinitions(cwd)).map((a) => a.name).sort(), [
    'Explore',
    'Plan',
    'general-purpose',
    'x',
    'z',
  ]);
  link(join(home, '.claude', 'agents', 'key.md'), join(home, '.ssh', 'id_rsa'));
  e = await refusalAsync(() => loadAgentDefinitions(cwd));
  assert.match(e.message, /key\.md: not read: it resolves to .*\.ssh\/id_rsa, a credential file/);
  noSecret(e.message, 'the agent error');
});

test('unit: config links: project settings linked out of the project (file or .claude directory) or to a key are refused; user settings from a dotfiles link are read', () => {
  link(join(cwd, '.claude', 'settings.json'), join(outside, 'settings.json'));
  let e = refusal(() => loadSettings(cwd));
  assert.ok(e instanceof SettingsError, String(e));
  assert.match(
    e.message,
    new RegExp(
      `^${join(cwd, '.claude', 'settings.json')}: not read: it resolves to ${join(outside, 'settings.json')}, outside ${cwd}`,
    ),
  );
  noSecret(e.message, 'the settings error');
  rmSync(join(cwd, '.claude'), { recursive: true });
  link(join(cwd, '.claude'), outside); // .claude/settings.json is elsewhere/settings.json
  e = refusal(() => loadSettings(cwd));
  assert.match(e.message, /\.claude\/settings\.json: not read: it resolves to .*elsewhere\/settings\.json, outside/);
  rmSync(join(cwd, '.claude'));
  link(join(cwd, '.claude', 'settings.local.json'), join(home, '.ssh', 'id_rsa'));
  e = refusal(() => loadSettings(cwd));
  assert.match(e.message, /settings\.local\.json: not read: it resolves to .*\.ssh\/id_rsa, a credential file/);
  noSecret(e.message, 'the settings error');
  rmSync(join(cwd, '.claude'), { recursive: true });
  link(join(cwd, '.durable-agent', 'settings.json'), join(outside, 'settings.json'));
  assert.match(refusal(() => loadSettings(cwd)).message, /\.durable-agent\/settings\.json: not read: it resolves to/);
  rmSync(join(cwd, '.durable-agent'), { recursive: true });
  // The user's settings file may be a link (a dotfiles manager): read.
  link(join(home, '.claude', 'settings.json'), join(outside, 'settings.json'));
  assert.deepEqual(loadSettings(cwd).allow, ['Bash']);
});

test('unit: config links: a .mcp.json linked from outside its directory is refused before any server is resolved; ~/.claude.json is read as itself', () => {
  link(join(cwd, '.mcp.json'), join(outside, 'mcp.json'));
  const e = refusal(() => resolveMcpServers({ cwd }));
  assert.ok(e instanceof McpConfigError, String(e));
  assert.match(
    e.message,
    new RegExp(`^${join(cwd, '.mcp.json')}: not read: it resolves to ${join(outside, 'mcp.json')}, outside ${cwd}`),
  );
  noSecret(e.message, 'the MCP error');
  rmSync(join(cwd, '.mcp.json'));
  // ~/.claude.json is on the credential list, and it is the file the loader means to read.
  put(join(home, '.claude.json'), { mcpServers: { mine: { command: 'my-server' } } });
  assert.deepEqual(Object.keys(resolveMcpServers({ cwd, claudeJson: join(home, '.claude.json') }).servers), ['mine']);
  // …but not when it leads to another credential file.
  rmSync(join(home, '.claude.json'));
  link(join(home, '.claude.json'), join(home, '.ssh', 'id_rsa'));
  assert.match(
    refusal(() => resolveMcpServers({ cwd, claudeJson: join(home, '.claude.json') })).message,
    /\.claude\.json: not read: it resolves to .*id_rsa, a credential file/,
  );
  // A dangling link is an absent file.
  assert.deepEqual(readConfigFileSync(join(cwd, 'nothing.json')), { missing: true });
  link(join(cwd, 'dangling.json'), join(root, 'gone.json'));
  assert.deepEqual(readConfigFileSync(join(cwd, 'dangling.json'), { within: [cwd] }), { missing: true });
});

test('cli: run refuses a project whose .mcp.json, agent file or settings lead out of it: exit 1, the file named, no server started, nothing quoted', async () => {
  const env = {
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    DURABLE_AGENT_HOME: join(home, '.durable-agent'),
    DURABLE_AGENT_MANAGED_SETTINGS: join(root, 'etc', 'managed-settings.json'),
    TEMPORAL_ADDRESS: '127.0.0.1:1',
  };
  const cases: Array<[string, () => void, RegExp]> = [
    [
      '.mcp.json',
      () => link(join(cwd, '.mcp.json'), join(outside, 'mcp.json')),
      /\.mcp\.json: not read: it resolves to .*elsewhere\/mcp\.json, outside/,
    ],
    [
      'agent',
      () => link(join(cwd, '.claude', 'agents', 'x.md'), join(outside, 'agent.md')),
      /agents\/x\.md: not read: it resolves to .*elsewhere\/agent\.md, outside/,
    ],
    [
      'settings',
      () => link(join(cwd, '.claude', 'settings.json'), join(outside, 'settings.json')),
      /\.claude\/settings\.json: not read: it resolves to .*elsewhere\/settings\.json, outside/,
    ],
    [
      'key',
      () => link(join(cwd, '.claude', 'agents', 'k.md'), join(home, '.ssh', 'id_rsa')),
      /agents\/k\.md: not read: it resolves to .*id_rsa, a credential file/,
    ],
  ];
  for (const [name, setup, message] of cases) {
    rmSync(join(cwd, '.claude'), { recursive: true, force: true });
    rmSync(join(cwd, '.mcp.json'), { force: true });
    setup();
    const r = await cli(
      ['run', '--cwd', cwd, '--model', 'claude-test', '--permission-mode', 'bypassPermissions', 'go'],
      env,
    );
    assert.equal(r.code, 1, `${name}: ${r.stdout} ${r.stderr}`);
    assert.match(r.stderr, message, name);
    assert.doesNotMatch(
      r.stderr + r.stdout,
      /session \S+ started|unreachable/i,
      `${name}: refused before any connection`,
    );
    noSecret(r.stderr + r.stdout, name);
    assert.equal(existsSync(marker), false, `${name}: the linked server never ran`);
  }
});
