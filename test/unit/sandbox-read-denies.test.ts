// unit: the read denies a wrap is given (src/sandbox/readDenies.ts, issue 32). The absent entries
// left out must change nothing the sandbox does: the real runtime's wrapped command (bubblewrap's
// whole argument list) is compared, byte for byte, with the full list and with the one the wrap
// gets, over HOMEs and projects of every shape the rule distinguishes. No command runs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadSandboxRuntime, SandboxHost } from '../../src/sandbox/host';
import { runtimePlan } from '../../src/sandbox/policy';
import { presentReadDenies, wrapConfig } from '../../src/sandbox/readDenies';
import type { SandboxSettings } from '../../src/sandbox/settings';
import { sandboxSkip } from '../support/systemPackages';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-read-denies-')));
const savedHome = process.env.HOME;
let skip: string | false = false;

before(async () => {
  const host = new SandboxHost();
  skip = await sandboxSkip(host, 'the read-deny wrap comparison');
  await host.close();
});
after(() => {
  process.env.HOME = savedHome;
  rmSync(base, { recursive: true, force: true });
});

let seq = 0;
/** A fresh HOME and project under `base`; `shape` makes their files. */
function scene(shape: (home: string, project: string) => void): { home: string; project: string } {
  const root = path.join(base, `s${++seq}`);
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  shape(home, project);
  return { home, project };
}

/** The wrap of `true` with the call's own list and with wrapConfig's, under the same runtime. */
async function wraps(
  home: string,
  project: string,
  settings: SandboxSettings = {},
): Promise<{ full: string; given: string; control: string; before: number; after: number }> {
  process.env.HOME = home;
  const plan = runtimePlan(settings, [project], { home, sessionTmpDir: path.join(home, '..'), platform: 'linux' });
  const m = await loadSandboxRuntime();
  await m.initialize(plan.global);
  try {
    const options = { commandId: 'c'.repeat(22) };
    const full = await m.wrapWithSandbox('true', 'bash', plan.call, undefined, options);
    const call = wrapConfig(plan.call, 'linux');
    const given = await m.wrapWithSandbox('true', 'bash', call, undefined, options);
    // The control: the list without its first present entry wraps otherwise (the comparison sees a mount less).
    const present = call.filesystem.denyRead.filter((e) => e !== call.filesystem.denyRead[0]);
    const short = { ...call, filesystem: { ...call.filesystem, denyRead: present } };
    const control = await m.wrapWithSandbox('true', 'bash', short, undefined, options);
    for (let i = 0; i < 3; i++) m.cleanupAfterCommand();
    return {
      full,
      given,
      control,
      before: plan.call.filesystem.denyRead.length,
      after: call.filesystem.denyRead.length,
    };
  } finally {
    await m.reset();
  }
}

test('unit: presentReadDenies leaves out plain absent entries only; patterns, home defaults and unanswerable ones stay', () => {
  const s = scene((home) => {
    mkdirSync(path.join(home, '.ssh'));
    writeFileSync(path.join(home, '.netrc'), 'machine x\n');
    symlinkSync(path.join(home, 'nowhere'), path.join(home, '.aws'));
  });
  const h = s.home;
  const list = [
    `${h}/.ssh`, // present
    `${h}/.gnupg`, // absent: out
    `${h}/.aws`, // dangling symlink: stat says absent, out
    `${h}/.netrc/inner`, // ENOTDIR: out
    `${h}/.claude.json.backup*`, // a pattern
    `${h}/.npm`, // above a home default (.npm/_logs)
    `${h}/.claude`, // above a home default (.claude/debug)
    `${h}/.config/../.kube`, // not as path.resolve spells it
    `~/.pgpass`,
    'relative/.env',
    h, // the home directory itself
    path.dirname(h), // above it
  ];
  assert.deepEqual(
    presentReadDenies(list, [h]),
    list.filter((e) => ![`${h}/.gnupg`, `${h}/.aws`, `${h}/.netrc/inner`].includes(e)),
  );
  // None left: the list as it was (a wrap without any read deny is another policy).
  const allAbsent = [`${h}/.gnupg`, `${h}/.vault-token`];
  assert.deepEqual(presentReadDenies(allAbsent, [h]), allAbsent);
  // Off Linux the call is given as it is.
  const call = { filesystem: { denyRead: [`${h}/.gnupg`, `${h}/.ssh`], allowRead: [], allowWrite: [], denyWrite: [] } };
  assert.equal(wrapConfig(call, 'darwin'), call);
  assert.deepEqual(wrapConfig(call, 'linux').filesystem.denyRead, [`${h}/.ssh`]);
});

test('unit: the wrapped command is the same with the absent read denies left out (the default credential list, a bait HOME)', async (t) => {
  if (skip) return t.skip(skip);
  const { home, project } = scene((h) => {
    mkdirSync(path.join(h, '.ssh'));
    writeFileSync(path.join(h, '.ssh', 'id_rsa'), 'key\n');
    writeFileSync(path.join(h, '.gitconfig'), '[user]\n\tname = x\n');
    writeFileSync(path.join(h, '.netrc'), 'machine x\n');
    writeFileSync(path.join(h, '.claude.json.backup.1'), '{}');
    symlinkSync(path.join(h, 'nowhere'), path.join(h, '.aws')); // dangling
    mkdirSync(path.join(h, 'kube-real'));
    symlinkSync(path.join(h, 'kube-real'), path.join(h, '.kube')); // to a directory
    mkdirSync(path.join(h, '.docker')); // without its config.json
    mkdirSync(path.join(h, '.config', 'gh'), { recursive: true });
  });
  const w = await wraps(home, project);
  assert.ok(w.after < w.before / 2, `most of the default list is absent here (${w.before} → ${w.after})`);
  assert.equal(w.given, w.full);
  assert.notEqual(w.control, w.full, 'a present entry left out changes the wrap');
});

test('unit: the same wrapped command with the home defaults there or covered, and entries in the writable project', async (t) => {
  if (skip) return t.skip(skip);
  const shapes: Array<[string, (h: string, p: string) => void, (h: string, p: string) => SandboxSettings]> = [
    [
      'home defaults present, no deny above them',
      (h) => {
        mkdirSync(path.join(h, '.npm', '_logs'), { recursive: true });
        mkdirSync(path.join(h, '.claude', 'debug'), { recursive: true });
      },
      () => ({}),
    ],
    [
      'home defaults absent, denies named above them',
      () => undefined,
      (h) => ({ filesystem: { denyRead: [`${h}/.npm`, `${h}/.claude`, `${h}/.npm/_logs`] } }),
    ],
    [
      'read denies inside the writable project, present and absent, through a symlinked directory',
      (h, p) => {
        mkdirSync(path.join(p, 'secrets'));
        writeFileSync(path.join(p, 'secrets', 'a.key'), 'k\n');
        mkdirSync(path.join(p, 'real'));
        symlinkSync(path.join(p, 'real'), path.join(p, 'alias'));
        writeFileSync(path.join(p, '.env'), 'X=1\n');
      },
      (_h, p) => ({
        filesystem: {
          denyRead: [
            `${p}/secrets`,
            `${p}/.env`,
            `${p}/.env.local`,
            `${p}/alias/absent.pem`,
            `${p}/alias`,
            `${p}/missing/deeper/x`,
            `${p}/secrets/*.pem`,
          ],
          allowRead: [`${p}/secrets/a.key`, `${p}/absent-allowed`],
        },
      }),
    ],
  ];
  for (const [name, shape, settings] of shapes) {
    const { home, project } = scene(shape);
    const w = await wraps(home, project, settings(home, project));
    assert.ok(w.after < w.before, `${name}: something was left out (${w.before} → ${w.after})`);
    assert.equal(w.given, w.full, name);
  }
});
