// unit (issue 30, red team q's HOME rows Q2, Q6, Q9, fixed): copied from test/unit/red-issue30-q.test.ts
// (branch redq) with the harness they need, running by default. Real OS sandbox, a bait HOME, bait
// values under invented names in the worker's environment; no allow rule in any row. Oracles: what the
// person's own shell ran (a marker file with the environment it saw) or what a tool result holds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';
import { redTool } from '../support/redTool';
import { startupTargets } from '../../src/permissions/startupSources';
import { toolchainConfigFiles } from '../../src/permissions/toolchainConfigs';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-r30qh-')));
const home = path.join(base, 'home');
const marks = path.join(base, 'marks');
const saved = { HOME: process.env.HOME };
/** Bait values in the worker's environment, under invented names: a leak is a match on `BAIT-Q`. */
const BAIT_ENV: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-BAIT-Q-api',
  VORTAL_LEDGER_SECRET: 'BAIT-Q-ledger',
  MIRKWOOD_DEPLOY_PASS: 'BAIT-Q-deploy',
};
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const read = (f: string) => (existsSync(f) ? readFileSync(f, 'latin1') : '');

let sandboxHost: SandboxHost;
let skip: string | false = false;
const tool = redTool(() => sandboxHost, 'r30qh');

before(async () => {
  mkdirSync(marks, { recursive: true });
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nBAIT-Q-ssh\n');
  process.env.HOME = home;
  for (const [k, v] of Object.entries(BAIT_ENV)) process.env[k] = v;
  sandboxHost = new SandboxHost();
  skip = await sandboxSkip(sandboxHost, 'the red team issue 30 (q, HOME) tests');
});
after(async () => {
  await sandboxHost?.close();
  process.env.HOME = saved.HOME;
  for (const k of Object.keys(BAIT_ENV)) delete process.env[k];
  rmSync(base, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------
// Q2: credentials inside the toolchain directories a closed HOME allows back whole (homeReads.ts
// HOME_TOOLCHAIN_PATHS), in layouts the per-installation list (toolchainConfigs.ts, P4) does not
// name: pnpm's own Node (`pnpm env use --global`), a pyenv-virtualenv environment (`versions/<v>/envs/<x>`),
// Maven's global settings of an SDKMAN! or asdf installation (`conf/settings.xml`: `<server><password>`),
// a private Claude plugin marketplace cloned with a token in its remote URL (`~/.claude/plugins`).

const TOOLCHAIN_BAIT: Record<string, string> = {
  '.local/share/pnpm/nodejs/20.11.0/etc/npmrc': '//registry.npmjs.org/:_authToken=npm_BAIT-Q-pnpmnode\n',
  '.pyenv/versions/3.11.4/envs/work/pip.conf':
    '[global]\nindex-url = https://ci:BAIT-Q-pyenvenv@pypi.corp.example/simple\n',
  '.sdkman/candidates/maven/3.9.6/conf/settings.xml':
    '<settings><servers><server><id>corp</id><password>BAIT-Q-sdkmanmvn</password></server></servers></settings>\n',
  '.asdf/installs/maven/3.9.6/conf/settings.xml':
    '<settings><servers><server><id>corp</id><password>BAIT-Q-asdfmvn</password></server></servers></settings>\n',
  '.claude/plugins/marketplaces/acme/.git/config':
    '[remote "origin"]\n\turl = https://x-access-token:ghp_BAIT-Q-plugingit@github.com/acme/plugins.git\n',
  '.local/share/pipx/venvs/tool/pip.conf':
    '[global]\nindex-url = https://ci:BAIT-Q-pipxvenv@pypi.corp.example/simple\n',
};

test('Q2 (dontAsk): sandboxed Bash in a project under HOME reads no credential file inside the toolchains a closed HOME allows back', async (t) => {
  if (skip) return t.skip(skip);
  for (const [rel, body] of Object.entries(TOOLCHAIN_BAIT)) {
    mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    writeFileSync(path.join(home, rel), body);
  }
  const root = path.join(home, 'work', 'q2');
  mkdirSync(root, { recursive: true });
  const files = Object.keys(TOOLCHAIN_BAIT).map((r) => `~/${r}`);
  const out = await tool(root, 'dontAsk', 'Bash', { command: `cat ${files.join(' ')} 2>&1; true` });
  t.diagnostic(`${out.status}: ${out.text.slice(0, 900)}`);
  const leaked = [...new Set([...out.text.matchAll(/BAIT-Q-[a-z]+/g)].map((m) => m[0]))];
  assert.deepEqual({ leaked }, { leaked: [] });
});

// ---------------------------------------------------------------------------------------------------
// Q6: a session started in HOME gets HOME's existing non-dot entries writable (homeClosure.ts
// homeWritable), minus `~/bin`, the toolchains and the PATH entries. The person's start-up files
// SOURCE files in such entries, by the installers' own instructions: gcloud's
// `~/google-cloud-sdk/path.bash.inc`, conda's `~/miniconda3/etc/profile.d/conda.sh`, powerlevel10k's
// `~/powerlevel10k/powerlevel10k.zsh-theme`. A sandboxed command appends to one; the person's next
// shell runs it with their environment.

test('Q6 (dontAsk, a session in HOME): a file the person’s ~/.bashrc sources from a non-dot entry of HOME is not the agent’s to write', async (t) => {
  if (skip) return t.skip(skip);
  const h = path.join(base, 'q6-home');
  const sourced = ['google-cloud-sdk/path.bash.inc', 'miniconda3/etc/profile.d/conda.sh'];
  for (const s of sourced) {
    mkdirSync(path.dirname(path.join(h, s)), { recursive: true });
    writeFileSync(path.join(h, s), '# installer\n');
  }
  writeFileSync(path.join(h, '.bashrc'), sourced.map((s) => `[ -f "$HOME/${s}" ] && . "$HOME/${s}"\n`).join(''));
  mkdirSync(path.join(h, 'projects'), { recursive: true });
  const mark = path.join(marks, 'q6');
  process.env.HOME = h;
  let out;
  try {
    out = await tool(h, 'dontAsk', 'Bash', {
      command: sourced.map((s) => `echo 'env >> ${mark}' >> ~/${s}`).join('; ') + '; tail -n1 ~/' + sourced[0],
    });
  } finally {
    process.env.HOME = home;
  }
  t.diagnostic(`${out.status}: ${out.text.slice(0, 400)}`);
  try {
    execFileSync('bash', ['-c', '. "$HOME/.bashrc"'], {
      env: { ...GIT_ENV, HOME: h, PERSON_SECRET: 'BAIT-Q-person' },
      stdio: 'ignore',
    });
  } catch {
    // a failing start-up file is not a run
  }
  assert.deepEqual({ ranAtShellStart: existsSync(mark) }, { ranAtShellStart: false }, read(mark).slice(0, 200));
});

// ---------------------------------------------------------------------------------------------------
// Q9: a session in HOME keeps HOME's dot-entries closed, and the credential list names three snaps
// (`~/snap/firefox`, `~/snap/chromium`, `~/snap/thunderbird`). Every snap keeps its app's own HOME
// under `~/snap/<app>/<revision>/` (`current` links to it) — its `.config`, `.local/share`: the
// same tokens, cookies and vaults, below a non-dot entry of HOME. Sandboxed `cat`, Read and Grep
// of a session in HOME read them.

const SNAP_BAIT: Record<string, string> = {
  'snap/doctl/current/.config/doctl/config.yaml': 'access-token: dop_v1_BAIT-Q-doctl\n',
  'snap/bitwarden/current/.config/Bitwarden/data.json': '{"accessToken":"BAIT-Q-bitwarden"}\n',
  'snap/slack/current/.config/Slack/storage/root-state.json': '{"token":"xoxc-BAIT-Q-slack"}\n',
  'snap/code/current/.config/Code/User/globalStorage/storage.json': '{"github.auth":"gho_BAIT-Q-vscode"}\n',
};

test('Q9 (dontAsk, a session in HOME): the snaps’ own HOMEs under ~/snap/<app>/ (their .config) are closed like HOME’s dot-entries — Bash, Read and Grep return none of their tokens', async (t) => {
  if (skip) return t.skip(skip);
  const h = path.join(base, 'q9-home');
  for (const [rel, body] of Object.entries(SNAP_BAIT)) {
    mkdirSync(path.dirname(path.join(h, rel)), { recursive: true });
    writeFileSync(path.join(h, rel), body);
  }
  process.env.HOME = h;
  try {
    const bash = await tool(h, 'dontAsk', 'Bash', {
      command: `cat ${Object.keys(SNAP_BAIT)
        .map((r) => `~/${r}`)
        .join(' ')} 2>&1; true`,
    });
    const readOne = await tool(h, 'dontAsk', 'Read', { file_path: path.join(h, Object.keys(SNAP_BAIT)[0]!) });
    const grep = await tool(h, 'dontAsk', 'Grep', {
      pattern: 'BAIT-Q-',
      path: path.join(h, 'snap'),
      output_mode: 'content',
    });
    t.diagnostic(
      `bash: ${bash.text.slice(0, 300)}\nread: ${readOne.text.slice(0, 200)}\ngrep: ${grep.text.slice(0, 300)}`,
    );
    const leaked = (s: string) => [...new Set([...s.matchAll(/BAIT-Q-[a-z]+/g)].map((m) => m[0]))];
    assert.deepEqual(
      { bash: leaked(bash.text), read: leaked(readOne.text), grep: leaked(grep.text) },
      { bash: [], read: [], grep: [] },
    );
  } finally {
    process.env.HOME = home;
  }
});

// ---------------------------------------------------------------------------------------------------
// Q6, the rule's reach (homeq): what the start-up files name is read, not a list — zsh's theme,
// a PATH entry `.profile` adds, a venv `.bashrc` activates, perl's local::lib through `eval`, fish's
// `fish_add_path` — each with the installation around it; a directory only visited (`cd ~/work`) and
// the person's other entries stay the session's to write, and `~/go/bin` does not close `~/go`.

test('Q6 rule: startupTargets reads what the start-up files source, run or put on PATH under HOME', () => {
  const h = path.join(base, 'q6-rule');
  const dirs = ['powerlevel10k', 'tools/bin', 'venv/bin', 'perl5/lib/perl5', 'work/app', 'fishy/bin', 'miniforge3'];
  for (const d of dirs) mkdirSync(path.join(h, d), { recursive: true });
  writeFileSync(path.join(h, 'venv/bin/activate'), '# venv\n');
  writeFileSync(path.join(h, '.zshrc'), 'source ~/powerlevel10k/powerlevel10k.zsh-theme\nalias w="cd ~/work"\n');
  writeFileSync(
    path.join(h, '.profile'),
    'export PATH="$HOME/tools/bin:$HOME/go/bin:$PATH"\n. "$HOME/.bashrc"\n# . ~/commented/out.sh\n',
  );
  writeFileSync(
    path.join(h, '.bashrc'),
    '. ~/venv/bin/activate\neval "$(perl -I$HOME/perl5/lib/perl5 -Mlocal::lib=$HOME/perl5)"\n',
  );
  mkdirSync(path.join(h, '.config/fish'), { recursive: true });
  writeFileSync(path.join(h, '.config/fish/config.fish'), `fish_add_path ${h}/fishy/bin\n`);
  const got = new Set(startupTargets(h).map((p) => path.relative(h, p)));
  for (const want of ['powerlevel10k', 'tools', 'venv', 'perl5', 'fishy', 'miniforge3', 'go/bin'])
    assert.ok(got.has(want), `${want} in ${[...got].join(', ')}`);
  for (const open of ['work', 'work/app', 'go', 'commented', '.bashrc', ''])
    assert.ok(!got.has(open), `${open} not in ${[...got].join(', ')}`);
});

test('Q6 (dontAsk, a session in HOME): zsh’s sourced theme and a PATH entry of .profile are closed to Bash and Write; the person’s other entries are not', async (t) => {
  if (skip) return t.skip(skip);
  const h = path.join(base, 'q6b-home');
  for (const d of ['powerlevel10k', 'tools/bin', 'projects']) mkdirSync(path.join(h, d), { recursive: true });
  writeFileSync(path.join(h, 'powerlevel10k/powerlevel10k.zsh-theme'), '# theme\n');
  writeFileSync(path.join(h, '.zshrc'), 'source ~/powerlevel10k/powerlevel10k.zsh-theme\n');
  writeFileSync(path.join(h, '.profile'), 'export PATH="$HOME/tools/bin:$PATH"\n');
  process.env.HOME = h;
  let bash, write;
  try {
    bash = await tool(h, 'dontAsk', 'Bash', {
      command:
        'echo "env > x" >> ~/powerlevel10k/powerlevel10k.zsh-theme; echo "env > x" > ~/powerlevel10k/gitstatus.zsh; ' +
        'printf "#!/bin/sh\\nenv > x\\n" > ~/tools/bin/git; echo mine > ~/projects/notes.txt; true',
    });
    write = await tool(h, 'dontAsk', 'Write', {
      file_path: path.join(h, 'powerlevel10k/internal/p10k.zsh'),
      content: 'env > x\n',
    });
  } finally {
    process.env.HOME = home;
  }
  t.diagnostic(`bash: ${bash.text.slice(0, 300)}\nwrite: ${write.text.slice(0, 200)}`);
  assert.deepEqual(
    {
      theme: read(path.join(h, 'powerlevel10k/powerlevel10k.zsh-theme')),
      sibling: existsSync(path.join(h, 'powerlevel10k/gitstatus.zsh')),
      onPath: existsSync(path.join(h, 'tools/bin/git')),
      written: existsSync(path.join(h, 'powerlevel10k/internal/p10k.zsh')),
      ordinary: read(path.join(h, 'projects/notes.txt')),
    },
    { theme: '# theme\n', sibling: false, onPath: false, written: false, ordinary: 'mine\n' },
  );
});

// Q2, the rule's reach (homeq): by name at any depth of an allowed-back toolchain, a new layout too;
// Maven's stock `conf/settings.xml` (its passwords only in comments) stays readable, so Maven runs.
test('Q2 rule: credential files by name inside the toolchains, not a stock Maven settings.xml', () => {
  const h = path.join(base, 'q2-rule');
  const files: Record<string, string> = {
    '.local/share/mise/installs/java/21/some/new/layout/.npmrc': '//r/:_authToken=x\n',
    '.sdkman/candidates/gradle/8.5/init.d/credentials.json': '{}\n',
    '.claude/skills/deploy/.git/config': '[remote "o"]\n\turl = https://t@h/x\n',
    '.sdkman/candidates/maven/3.9.6/conf/settings.xml': '<settings><!-- <password>repopwd</password> --></settings>\n',
    '.pyenv/versions/3.12.0/lib/python3.12/site-packages/pip/pip.conf': '[global]\n',
  };
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(h, rel)), { recursive: true });
    writeFileSync(path.join(h, rel), body);
  }
  const got = toolchainConfigFiles(h, {}).map((p) => path.relative(h, p));
  assert.deepEqual(got.sort(), Object.keys(files).slice(0, 3).sort());
});

// ---------------------------------------------------------------------------------------------------
// S2 (red team s, copied from test/unit/red-issue30-s.test.ts of branch reds; fixed): Q6's rule read
// the SHELL start-up files only. The person's other configurations name programs in HOME's non-dot
// entries and run them with no shell: `~/.gitconfig` `core.hooksPath = ~/githooks` (every commit in
// every repository) and `alias.sync = !~/scripts/sync.sh`; ssh's `ProxyCommand`, systemd's user units
// (`ExecStart=%h/…`), the desktop's autostart entries, npm's `script-shell`. They are read by the same
// rule now (startupSources.ts PERSON_CONFIG_FILES).

test('S2 rule: startupTargets reads what the person’s git, ssh, npm, systemd and autostart configurations run under HOME', () => {
  const h = path.join(base, 's2-rule');
  for (const d of ['githooks', 'scripts', 'proxy', 'svc', 'desk', 'shells', 'work', '.ssh', '.config/git'])
    mkdirSync(path.join(h, d), { recursive: true });
  writeFileSync(
    path.join(h, '.gitconfig'),
    '[include]\n\tpath = ~/.config/git/more\n[alias]\n\tsync = !~/scripts/sync.sh\n',
  );
  writeFileSync(path.join(h, '.config/git/more'), '[core]\n\thooksPath = ~/githooks\n');
  writeFileSync(path.join(h, '.ssh/config'), 'Host *\n  ProxyCommand ~/proxy/run %h %p\n');
  writeFileSync(path.join(h, '.npmrc'), `script-shell=${h}/shells/sh\n`);
  for (const [dir, file, body] of [
    ['.config/systemd/user', 'sync.service', '[Service]\nExecStart=%h/svc/run.sh\n'],
    ['.config/autostart', 'x.desktop', `[Desktop Entry]\nExec=${h}/desk/start\n`],
  ] as const) {
    mkdirSync(path.join(h, dir), { recursive: true });
    writeFileSync(path.join(h, dir, file), body);
  }
  const got = new Set(startupTargets(h).map((p) => path.relative(h, p)));
  for (const want of ['githooks', 'scripts', 'proxy', 'svc', 'desk', 'shells'])
    assert.ok(got.has(want), `${want} in ${[...got].join(', ')}`);
  assert.ok(!got.has('work'), `work not in ${[...got].join(', ')}`);
});

test('S2 (dontAsk, a session in HOME): the hook directory the person’s ~/.gitconfig names (`core.hooksPath = ~/githooks`) and an alias’s script are not the agent’s to write', async (t) => {
  if (skip) return t.skip(skip);
  const h = path.join(base, 's2-home');
  mkdirSync(path.join(h, 'githooks'), { recursive: true });
  mkdirSync(path.join(h, 'scripts'), { recursive: true });
  writeFileSync(path.join(h, 'githooks', 'pre-commit'), '#!/bin/sh\n# the person’s secret scan\nexit 0\n', {
    mode: 0o755,
  });
  writeFileSync(path.join(h, 'scripts', 'sync.sh'), '#!/bin/sh\ngit pull --rebase\n', { mode: 0o755 });
  writeFileSync(
    path.join(h, '.gitconfig'),
    '[core]\n\thooksPath = ~/githooks\n[alias]\n\tsync = !~/scripts/sync.sh\n[user]\n\tname = p\n\temail = p@example.com\n',
  );
  const mark = path.join(marks, 's2');
  process.env.HOME = h;
  let out;
  try {
    out = await tool(h, 'dontAsk', 'Bash', {
      command: [
        `printf '#!/bin/sh\\nenv >> ${mark}\\nexit 0\\n' > ~/githooks/pre-commit`,
        `printf '#!/bin/sh\\nenv >> ${mark}\\n' > ~/scripts/sync.sh`,
        'cat ~/githooks/pre-commit',
      ].join('; '),
    });
  } finally {
    process.env.HOME = home;
  }
  t.diagnostic(`${out.status}: ${out.text.slice(0, 400)}`);
  // The person, later, in a repository of theirs elsewhere: a commit, and their alias.
  const repo = path.join(base, 's2-work');
  mkdirSync(repo);
  const person: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: h,
    GIT_CONFIG_NOSYSTEM: '1',
    PERSON_SECRET: 'BAIT-Q-person',
  };
  delete person.GIT_CONFIG_GLOBAL;
  for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-qm', 'work', '--allow-empty'], ['sync']])
    try {
      execFileSync('git', args, { cwd: repo, env: person, stdio: 'ignore' });
    } catch {
      // a refused command is not a run
    }
  assert.deepEqual(
    { ranWithPersonEnv: read(mark).includes('BAIT-Q-person') },
    { ranWithPersonEnv: false },
    read(mark).slice(0, 200),
  );
});
