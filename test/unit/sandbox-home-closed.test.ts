// HOME is closed by default (issue 30, round o: src/permissions/homeReads.ts). Real OS sandbox, a bait
// HOME whose secrets lie at paths no credential list names, a project under HOME; oracles on what the
// command printed and what reached the project, never on the tool's words alone. Also: toolchains, the
// project, git (through the sandbox's copy of the person's git config), node and npm still work; a
// session started in HOME keeps HOME's dot-entries closed; the person re-opens a path in their own
// settings, a project's settings cannot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../../src/core/context';
import { SandboxHost } from '../../src/sandbox/host';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { BUILTIN_TOOLS } from '../../src/tools';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import type { SandboxSettings } from '../../src/sandbox/settings';
import { runtimePlan } from '../../src/sandbox/policy';
import { homeReads } from '../../src/permissions/homeReads';
import { readSettings } from '../../src/cli/settingsFile';
import { sessionPermission } from '../../src/toolCall/toolSession';
import { sandboxSkip } from '../support/systemPackages';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-homeclosed-')));
const home = path.join(base, 'home');
const saved = { HOME: process.env.HOME };
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** Secrets where no list looks (every one must stay unreadable), and listed ones inside allowed-back areas. */
const BAIT: Record<string, string> = {
  '.config/someapp/token': 'BAIT-H-someapp',
  'secrets.env': 'API_TOKEN=BAIT-H-secrets-env',
  'notes/private.txt': 'BAIT-H-notes',
  '.local/share/app/db.json': '{"k":"BAIT-H-localshare"}',
  '.terraform.d/other.tfrc.json': '{"token":"BAIT-H-terraform"}',
  '.cargo/config.toml': '[registry]\ntoken = "BAIT-H-cargo-config"\n',
  '.npm/_logs/debug.log': 'BAIT-H-npm-log',
  '.zsh_sessions/x.history': 'BAIT-H-zsh-sessions',
  'other-project/.env': 'DATABASE_URL=postgres://u:BAIT-H-other@h/d',
  // Listed credential files inside the toolchain areas allowed back: still denied.
  '.cache/huggingface/token': 'BAIT-H-hf',
  '.gem/credentials': ':rubygems_api_key: BAIT-H-gem',
  '.pub-cache/credentials.json': '{"accessToken":"BAIT-H-pub"}',
};
const BAIT_RE = /BAIT-H-[a-z-]+/g;

let sandboxHost: SandboxHost;
let skip: string | false = false;
let project: string;

before(async () => {
  for (const [rel, body] of Object.entries(BAIT)) {
    mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    writeFileSync(path.join(home, rel), `${body}\n`);
  }
  // Toolchains: a program in ~/.cargo/bin, a cache, a version manager's file.
  mkdirSync(path.join(home, '.cargo', 'bin'), { recursive: true });
  writeFileSync(path.join(home, '.cargo', 'bin', 'mytool'), '#!/bin/sh\necho tool-ok\n');
  chmodSync(path.join(home, '.cargo', 'bin', 'mytool'), 0o755);
  mkdirSync(path.join(home, '.cache', 'pip'), { recursive: true });
  writeFileSync(path.join(home, '.cache', 'pip', 'wheel.txt'), 'cache-ok\n');
  mkdirSync(path.join(home, '.rustup'), { recursive: true });
  writeFileSync(path.join(home, '.rustup', 'settings.toml'), 'rustup-ok\n');
  // A user-scope hook's script and a skill's: the person's, run inside the sandbox.
  mkdirSync(path.join(home, '.claude', 'hooks'), { recursive: true });
  writeFileSync(path.join(home, '.claude', 'hooks', 'fmt.sh'), 'echo hook-ok\n');
  mkdirSync(path.join(home, '.claude', 'skills', 'x'), { recursive: true });
  writeFileSync(path.join(home, '.claude', 'skills', 'x', 'run.sh'), 'echo skill-ok\n');
  writeFileSync(path.join(home, '.claude', 'settings.local.json'), '{"env":{"T":"BAIT-H-claude-settings"}}');
  // The person's git config: identity (kept in the sandbox's copy) and a token (dropped from it).
  writeFileSync(
    path.join(home, '.gitconfig'),
    '[user]\n\tname = Person\n\temail = p@example.com\n[http]\n\textraHeader = Authorization: BAIT-H-gitconfig\n',
  );
  project = path.join(home, 'work', 'app');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  writeFileSync(path.join(project, 'src', 'a.txt'), 'hello\n');
  const g = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=h@example.com', '-c', 'user.name=h', ...a], { cwd: project, env: GIT_ENV });
  g('init', '-q', '-b', 'main');
  g('add', '.');
  g('commit', '-qm', 'init');
  process.env.HOME = home;
  sandboxHost = new SandboxHost();
  skip = await sandboxSkip(sandboxHost, 'the closed-HOME tests');
});
after(async () => {
  await sandboxHost?.close();
  process.env.HOME = saved.HOME;
  rmSync(base, { recursive: true, force: true });
});

let n = 0;
async function tool(
  dirs: string[],
  mode: PermissionMode,
  name: string,
  input: Record<string, unknown>,
  sandbox: SandboxSettings = {},
): Promise<{ text: string; status: string }> {
  const root = dirs[0]!;
  const permission = sessionPermission(
    { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: dirs, sandbox },
    {} as ResultStore,
    {},
    root,
  );
  const o = await runToolPipeline({ type: 'tool_use', id: `toolu_home_${++n}`, name, input }, {
    pool: createToolPool(BUILTIN_TOOLS, permission),
    sessionId: `home-closed-${process.pid}`,
    agent: initialContext(root),
    permission,
    sandboxHost,
  } as Parameters<typeof runToolPipeline>[1]);
  return { text: o.result ? toolResultText(o.result) : `(${o.status})`, status: o.status };
}

const catAll = (loot: string) =>
  [
    `mkdir -p ${loot}`,
    ...Object.keys(BAIT).map(
      (f, i) => `cat ~/${JSON.stringify(f)} 2>/dev/null; cp ~/${JSON.stringify(f)} ${loot}/${i} 2>/dev/null`,
    ),
    'grep -r BAIT-H ~ 2>/dev/null',
    'ls -a ~ ~/.config ~/.local/share 2>&1',
    'true',
  ].join('; ');

const lootOf = (dir: string) =>
  existsSync(dir) ? execFileSync('sh', ['-c', 'cat ./* 2>/dev/null || true'], { cwd: dir, encoding: 'utf8' }) : '';

for (const mode of ['dontAsk', 'bypassPermissions'] as const)
  test(`sandboxed Bash (${mode}) in a project under HOME reads no bait of HOME (paths no list names, listed ones inside toolchains), copies none into the project, and lists none of their names`, async (t) => {
    if (skip) return t.skip(skip);
    const loot = path.join(project, `loot-${mode}`);
    const out = await tool([project], mode, 'Bash', { command: catAll(loot) });
    t.diagnostic(out.text.slice(0, 600));
    assert.deepEqual([...new Set(out.text.match(BAIT_RE) ?? [])], []);
    assert.deepEqual([...new Set(lootOf(loot).match(BAIT_RE) ?? [])], []);
    for (const name of ['secrets.env', 'notes', 'other-project', '.terraform.d', 'someapp', '.zsh_sessions'])
      assert.ok(!out.text.includes(name), `${name} is listed`);
  });

test('toolchains, the project, git with the person’s identity (not their token), node and npm still work in a closed HOME', async (t) => {
  if (skip) return t.skip(skip);
  const out = await tool([project], 'dontAsk', 'Bash', {
    command: [
      '~/.cargo/bin/mytool',
      'cat ~/.cache/pip/wheel.txt ~/.rustup/settings.toml',
      'echo written > src/new.txt && cat src/new.txt',
      'git add -A && git commit -qm two && git log -1 --format=%an',
      'git config --global --get http.extraheader || echo no-token',
      'node -e "console.log(\'node-\' + (40 + 2))"',
      'npm --version >/dev/null && echo npm-ok',
      'sh ~/.claude/hooks/fmt.sh && sh ~/.claude/skills/x/run.sh',
      '{ cat ~/.claude/settings.local.json 2>/dev/null || echo claude-settings-closed; }',
    ].join(' && '),
  });
  t.diagnostic(out.text.slice(0, 600));
  for (const want of [
    'tool-ok',
    'cache-ok',
    'rustup-ok',
    'written',
    'Person',
    'no-token',
    'node-42',
    'npm-ok',
    'hook-ok',
    'skill-ok',
    'claude-settings-closed',
  ])
    assert.ok(out.text.includes(want), `${want} missing: ${out.text.slice(0, 400)}`);
  assert.ok(!out.text.includes('BAIT-H'));
  assert.equal(readFileSync(path.join(project, 'src', 'new.txt'), 'utf8'), 'written\n');
});

test('a session started in HOME: the project (HOME) is readable and writable, HOME’s dot-entries stay closed but for the toolchains; Read of a dot-entry asks (dontAsk: refused)', async (t) => {
  if (skip) return t.skip(skip);
  const out = await tool([home], 'dontAsk', 'Bash', {
    command: `cat notes/private.txt; echo made-in-notes > notes/made.txt && cat notes/made.txt; ~/.cargo/bin/mytool; cat ~/.cache/pip/wheel.txt; cat ~/.config/someapp/token ~/.local/share/app/db.json ~/.cargo/config.toml ~/.cache/huggingface/token ~/.gitconfig 2>&1; true`,
  });
  t.diagnostic(out.text.slice(0, 600));
  for (const want of ['BAIT-H-notes', 'made-in-notes', 'tool-ok', 'cache-ok'])
    assert.ok(out.text.includes(want), `${want} missing: ${out.text.slice(0, 400)}`);
  for (const bait of ['someapp', 'localshare', 'cargo-config', 'BAIT-H-hf', 'gitconfig'])
    assert.ok(!out.text.includes(`BAIT-H-${bait.replace('BAIT-H-', '')}`), `${bait} was read`);
  rmSync(path.join(home, 'notes', 'made.txt'), { force: true });
  const read = await tool([home], 'dontAsk', 'Read', { file_path: path.join(home, '.config', 'someapp', 'token') });
  assert.ok(!read.text.includes('BAIT-H'), read.text);
  const listed = await tool([home], 'dontAsk', 'Read', { file_path: path.join(home, '.gem', 'credentials') });
  assert.ok(!listed.text.includes('BAIT-H'), listed.text);
  const own = await tool([home], 'dontAsk', 'Read', { file_path: path.join(home, 'notes', 'private.txt') });
  assert.ok(own.text.includes('BAIT-H-notes'), own.text);
});

test('the file tools in a project under HOME: Read of a file elsewhere in HOME asks (dontAsk: refused)', async (t) => {
  if (skip) return t.skip(skip);
  const out = await tool([project], 'dontAsk', 'Read', { file_path: path.join(home, 'secrets.env') });
  assert.ok(!out.text.includes('BAIT-H'), out.text);
});

test('the person re-opens a path with their own sandbox.filesystem.allowRead; an allowed ancestor of the project leaves the project writable', async (t) => {
  if (skip) return t.skip(skip);
  const out = await tool(
    [project],
    'dontAsk',
    'Bash',
    {
      command:
        'cat ~/.config/someapp/token ~/other-project/.env 2>&1; echo w > src/w.txt && cat src/w.txt; cat ~/secrets.env 2>&1; true',
    },
    { filesystem: { allowRead: ['~/.config/someapp', '~/work', path.join(home, 'other-project')] } },
  );
  t.diagnostic(out.text.slice(0, 600));
  assert.ok(out.text.includes('BAIT-H-someapp'), out.text);
  assert.ok(out.text.includes('BAIT-H-other'), out.text);
  assert.ok(out.text.includes('w\n') || /\bw\b/.test(out.text), out.text);
  assert.equal(readFileSync(path.join(project, 'src', 'w.txt'), 'utf8'), 'w\n');
  assert.ok(!out.text.includes('BAIT-H-secrets-env'), out.text);
});

test('a project’s settings cannot re-open HOME: its allowRead outside the project is dropped, loudly', () => {
  const dir = path.join(base, 'proj-settings');
  mkdirSync(path.join(dir, '.claude'), { recursive: true });
  const file = path.join(dir, '.claude', 'settings.json');
  writeFileSync(
    file,
    JSON.stringify({ sandbox: { filesystem: { allowRead: ['~', '~/.ssh', '/etc/x', 'docs', '//tmp/y'] } } }),
  );
  const loaded = readSettings(file, dir, 'project')!;
  assert.deepEqual(loaded.settings.sandbox?.filesystem?.allowRead, [path.join(dir, 'docs')]);
  assert.ok(
    loaded.warnings.some((w) => w.includes('sandbox.filesystem.allowRead') && w.includes('"~"')),
    loaded.warnings.join('\n'),
  );
  const user = readSettings(file, dir, 'user')!;
  assert.deepEqual(user.settings.sandbox?.filesystem?.allowRead, [
    '~',
    '~/.ssh',
    '/etc/x',
    path.join(dir, 'docs'),
    '/tmp/y',
  ]);
});

test('runtimePlan: HOME unset, relative or / is not closed; HOME closed otherwise, the credential files in its closed part left to the closure', () => {
  const plan = (h: string, dirs = [path.join(base, 'p')]) =>
    runtimePlan({}, dirs, { home: h, sessionTmpDir: path.join(base, 't'), platform: 'linux' }).call.filesystem;
  for (const h of ['/', '', 'relative/home']) {
    const fs = plan(h);
    assert.ok(!fs.denyRead.includes('/'), `HOME=${JSON.stringify(h)} denies /`);
    assert.ok(!fs.denyRead.includes(h) || h === '', `HOME=${JSON.stringify(h)}`);
  }
  const closed = plan(home);
  assert.ok(closed.denyRead.includes(home));
  assert.ok(!closed.denyRead.includes(path.join(home, '.ssh')), 'a closed credential dir needs no mount');
  // A listed file inside a toolchain allowed back keeps its own deny; one in a closed part needs none.
  assert.ok(closed.denyRead.includes(path.join(home, '.pub-cache', 'credentials.json')));
  assert.ok(!closed.denyRead.includes(path.join(home, '.cache', 'huggingface', 'token')));
  assert.ok(closed.allowRead.includes(path.join(home, '.cargo', 'bin')));
  assert.ok(!closed.allowRead.includes(path.join(home, '.cargo')));
  // A working directory that is an ancestor of HOME does not open it; one that is HOME closes its dot-entries.
  assert.ok(plan(home, ['/']).denyRead.includes(home));
  const inHome = homeReads({ home, writable: [home], readable: [] });
  assert.equal(inHome.closed, 'dot-entries');
  assert.ok(inHome.denyRead.includes(path.join(home, '.config')));
  assert.ok(!inHome.denyRead.includes(path.join(home, 'notes')));
  assert.ok(!inHome.denyRead.includes(path.join(home, '.rustup')), 'a toolchain is not closed');
});

test('the file tools refuse the listed credential files in every mode, bypassPermissions too (O1b); Grep over HOME leaves them out; the person’s allowRead re-opens one', async (t) => {
  if (skip) return t.skip(skip);
  const gem = path.join(home, '.gem', 'credentials');
  for (const mode of ['bypassPermissions', 'acceptEdits', 'default'] as const) {
    const r = await tool([project], mode, 'Read', { file_path: gem });
    assert.ok(!r.text.includes('BAIT-H'), `${mode}: ${r.text}`);
  }
  const g = await tool([project], 'bypassPermissions', 'Grep', {
    pattern: 'BAIT-H',
    path: home,
    output_mode: 'content',
  });
  t.diagnostic(g.text.slice(0, 400));
  for (const listed of ['BAIT-H-hf', 'BAIT-H-gem', 'BAIT-H-pub']) assert.ok(!g.text.includes(listed), g.text);
  const open = await tool(
    [project],
    'bypassPermissions',
    'Read',
    { file_path: gem },
    {
      filesystem: { allowRead: ['~/.gem/credentials'] },
    },
  );
  assert.ok(open.text.includes('BAIT-H-gem'), open.text);
});

test('a credential directory in HOME that is a link out of it (a dotfiles directory) stays denied at its target (O16)', async (t) => {
  if (skip) return t.skip(skip);
  const dotfiles = path.join(base, 'dotfiles', 'ssh');
  mkdirSync(dotfiles, { recursive: true });
  writeFileSync(path.join(dotfiles, 'id_rsa'), 'BAIT-H-linked-ssh\n');
  const { symlinkSync } = await import('node:fs');
  symlinkSync(dotfiles, path.join(home, '.ssh'));
  try {
    const out = await tool([project], 'dontAsk', 'Bash', {
      command: `cat ~/.ssh/id_rsa ${JSON.stringify(path.join(dotfiles, 'id_rsa'))} 2>&1; true`,
    });
    assert.ok(!out.text.includes('BAIT-H-linked-ssh'), out.text);
  } finally {
    rmSync(path.join(home, '.ssh'), { force: true });
  }
});

// Red team o, O11 (homew): a session whose working directory is HOME (or an ancestor of it) writes none of
// HOME's dot-entries, existing or not, nor the person's program directories there; its existing
// directories and files stay writable; HOME itself takes no new entry from sandboxed Bash.
test('a session started in HOME: sandboxed Bash creates no dot-entry, no ~/bin or PATH-entry program, writes nothing through a link in HOME; existing entries stay writable', async (t) => {
  if (skip) return t.skip(skip);
  mkdirSync(path.join(home, 'bin'), { recursive: true });
  mkdirSync(path.join(home, 'go'), { recursive: true });
  writeFileSync(path.join(home, 'todo.txt'), 'old\n');
  const { symlinkSync } = await import('node:fs');
  symlinkSync('.config', path.join(home, 'cfg'));
  // A dotfiles checkout in HOME, linked in as dot-entries (GNU stow): one link dangling (a local override).
  mkdirSync(path.join(home, 'dotfiles', 'vim'), { recursive: true });
  writeFileSync(path.join(home, 'dotfiles', 'README'), 'dotfiles\n');
  symlinkSync('dotfiles/vim', path.join(home, '.vim'));
  symlinkSync('dotfiles/bashrc.local', path.join(home, '.bashrc.local'));
  try {
    const out = await tool([home], 'dontAsk', 'Bash', {
      command: [
        'mkdir -p ~/.bashrc.d && echo x > ~/.bashrc.d/zz.sh',
        'echo x > ~/.tmux.conf',
        'mkdir -p ~/.local/bin && echo x > ~/.local/bin/git',
        'echo x > ~/bin/git',
        'mkdir -p ~/go/bin && echo x > ~/go/bin/go',
        'echo x > ~/cfg/autostart.desktop',
        'echo x > ~/newfile.txt',
        'echo new > ~/todo.txt && cat ~/todo.txt',
        'echo ok > ~/notes/ok.txt && cat ~/notes/ok.txt',
        'echo x > ~/dotfiles/vim/vimrc',
        'echo x > ~/dotfiles/bashrc.local',
        'echo more >> ~/dotfiles/README',
        'true',
      ].join('; '),
    });
    t.diagnostic(out.text.slice(0, 600));
    for (const f of [
      '.bashrc.d',
      '.tmux.conf',
      '.local/bin/git',
      'bin/git',
      'go/bin/go',
      '.config/autostart.desktop',
      'newfile.txt',
      'dotfiles/vim/vimrc',
      'dotfiles/bashrc.local',
    ])
      assert.ok(!existsSync(path.join(home, f)), `${f} was written`);
    assert.equal(readFileSync(path.join(home, 'todo.txt'), 'utf8'), 'new\n');
    assert.equal(readFileSync(path.join(home, 'notes', 'ok.txt'), 'utf8'), 'ok\n');
    assert.equal(readFileSync(path.join(home, 'dotfiles', 'README'), 'utf8'), 'dotfiles\nmore\n');
    // The file tools: what a dot-entry links to is protected too.
    const w = await tool([home], 'acceptEdits', 'Write', {
      file_path: path.join(home, 'dotfiles', 'bashrc.local'),
      content: 'x\n',
    });
    assert.ok(!existsSync(path.join(home, 'dotfiles', 'bashrc.local')), w.text);
  } finally {
    for (const f of ['bin', 'go', 'todo.txt', 'cfg', 'notes/ok.txt', 'dotfiles', '.vim', '.bashrc.local'])
      rmSync(path.join(home, f), { recursive: true, force: true });
  }
});

test('a working directory that is an ancestor of HOME, beside HOME: no dot-entry of HOME is created; the file tools ask before writing one or reading HOME there', async (t) => {
  if (skip) return t.skip(skip);
  const out = await tool([home, base], 'dontAsk', 'Bash', {
    command: 'mkdir -p ~/.bashrc.d && echo x > ~/.bashrc.d/zz.sh; echo x > ~/.profile2; true',
  });
  t.diagnostic(out.text.slice(0, 300));
  assert.ok(!existsSync(path.join(home, '.bashrc.d')) && !existsSync(path.join(home, '.profile2')), out.text);
  // An ancestor alone: HOME is closed to the file tools as to Bash (asks: refused in dontAsk; acceptEdits asks).
  const read = await tool([base], 'dontAsk', 'Read', { file_path: path.join(home, 'secrets.env') });
  assert.ok(!read.text.includes('BAIT-H'), read.text);
  for (const f of ['.bashrc.d/zz.sh', 'bin/git', 'notes/x.txt']) {
    const w = await tool([base], 'acceptEdits', 'Write', { file_path: path.join(home, f), content: 'x\n' });
    assert.ok(!existsSync(path.join(home, f)), `${f}: ${w.text}`);
  }
  // A session in HOME: Write of a dot-entry or ~/bin asks; a new project file is written.
  for (const f of ['.config/autostart/x.desktop', '.local/bin/git', 'bin/git']) {
    const w = await tool([home], 'acceptEdits', 'Write', { file_path: path.join(home, f), content: 'x\n' });
    assert.ok(!existsSync(path.join(home, f)), `${f}: ${w.text}`);
  }
  const ok = await tool([home], 'acceptEdits', 'Write', {
    file_path: path.join(home, 'notes', 'new.txt'),
    content: 'y\n',
  });
  assert.equal(ok.status, 'ok', ok.text);
  rmSync(path.join(home, 'notes', 'new.txt'), { force: true });
});

test('the closed-HOME predicate: a project reached through a link into HOME is open by its real path; the rest of HOME is closed', async () => {
  const { sessionReadClosed } = await import('../../src/permissions/sessionClosed');
  const { symlinkSync } = await import('node:fs');
  const link = path.join(base, 'work-link');
  symlinkSync(path.join(home, 'work'), link);
  try {
    const closed = sessionReadClosed({ home, workingDirectories: [path.join(link, 'app')] });
    assert.equal(closed(path.join(project, 'src', 'a.txt')), undefined);
    assert.equal(closed(path.join(home, 'secrets.env')), 'home');
    assert.equal(closed(path.join(home, '.cargo', 'bin', 'mytool')), undefined, 'a toolchain');
  } finally {
    rmSync(link, { force: true });
  }
});
