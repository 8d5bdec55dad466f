// unit: CLAUDE.md loading as the reference (Claude Code 2.1.197) does it, each case settled by
// capturing the request the reference sends to the fake Messages API: imports outside the project,
// bare-word imports, import chain length, imports' kinds, .claude/rules, frontmatter, HTML comments.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hasPathsCondition, loadMemory, memoryReminder, memoryText } from '../../src/claudeMd/claudeMd';

let root = '';
let cwd = '';
let home = '';
const noManaged = (): { home: string; configDir: string; managed: string } => ({
  home,
  configDir: join(home, '.claude'),
  managed: join(root, 'no-managed.md'),
});

function put(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'da-memory-ref-'));
  home = join(root, 'home');
  cwd = join(root, 'parent', 'repo');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('unit: a project CLAUDE.md does not import files outside the working directory (warned); user memory may', () => {
  put(join(home, '.claude', 'CLAUDE.md'), 'user\n@~/notes/u.md');
  const userNote = put(join(home, 'notes', 'u.md'), 'user note');
  put(join(home, 'notes', 'p.md'), 'secret-ish home file');
  const project = put(
    join(cwd, 'CLAUDE.md'),
    `p\n@~/notes/p.md\n@../sibling.md\n@${join(root, 'abs.md')}\n@docs/in.md\n@${join(cwd, 'docs', 'abs-in.md')}`,
  );
  put(join(root, 'parent', 'sibling.md'), 'sibling');
  put(join(root, 'abs.md'), 'abs');
  const inDoc = put(join(cwd, 'docs', 'in.md'), 'in');
  const absIn = put(join(cwd, 'docs', 'abs-in.md'), 'abs in');
  const parentMd = put(join(root, 'parent', 'CLAUDE.md'), 'parent\n@side.md\n@repo/docs/in.md');
  put(join(root, 'parent', 'side.md'), 'side');
  const m = loadMemory(cwd, noManaged());
  const paths = m.files.map((f) => f.path);
  assert.ok(paths.includes(userNote), 'user memory imports from the home directory');
  assert.deepEqual(
    paths.filter((p) => p.startsWith(root) && !p.startsWith(join(home, '.claude'))),
    [userNote, parentMd, inDoc, project, absIn],
  );
  for (const spec of ['~/notes/p.md', '../sibling.md', join(root, 'abs.md')]) {
    assert.ok(
      m.warnings.some((w) => w.startsWith(`${project}: @import ${spec} is outside the working directory`)),
      `${spec}: ${m.warnings.join('\n')}`,
    );
  }
  assert.ok(m.warnings.some((w) => w.startsWith(`${parentMd}: @import side.md is outside the working directory`)));
});

test("unit: an import has its importer's kind in the reminder; bare @word imports load when the file exists, silently skip when not", () => {
  put(join(home, '.claude', 'CLAUDE.md'), '@~/n.md');
  put(join(home, 'n.md'), 'home note');
  put(join(cwd, 'CLAUDE.local.md'), 'ask @alice or @bob\n@README');
  put(join(cwd, 'README'), 'readme text');
  put(join(cwd, 'alice'), 'alice text');
  const m = loadMemory(cwd, noManaged());
  assert.deepEqual(
    m.files.map((f) => [f.path, f.type, f.importedBy ?? null]),
    [
      [join(home, '.claude', 'CLAUDE.md'), 'user', null],
      [join(home, 'n.md'), 'user', join(home, '.claude', 'CLAUDE.md')],
      [join(cwd, 'CLAUDE.local.md'), 'local', null],
      [join(cwd, 'alice'), 'local', join(cwd, 'CLAUDE.local.md')],
      [join(cwd, 'README'), 'local', join(cwd, 'CLAUDE.local.md')],
    ],
  );
  assert.deepEqual(m.warnings, [], '@bob is a mention, not a missing import');
  const reminder = memoryReminder(m.files);
  assert.ok(
    reminder.includes(
      `Contents of ${join(home, 'n.md')} (user's private global instructions for all projects):\n\nhome note`,
    ),
  );
  assert.ok(
    reminder.includes(
      `Contents of ${join(cwd, 'README')} (user's private project instructions, not checked in):\n\nreadme text`,
    ),
  );
});

test('unit: trailing punctuation is part of the import (as the reference): `@a.md,` is reported missing, not loaded', () => {
  const project = put(join(cwd, 'CLAUDE.md'), 'see @docs/a.md, (@docs/b.md) and "@docs/c.md"');
  for (const f of ['a', 'b', 'c']) put(join(cwd, 'docs', `${f}.md`), f);
  const m = loadMemory(cwd, noManaged());
  assert.deepEqual(
    m.files.map((f) => f.path),
    [project],
  );
  assert.ok(
    m.warnings.some((w) => w === `${project}: @import ${join(cwd, 'docs', 'a.md,')} was not found; it is not loaded`),
    m.warnings.join('\n'),
  );
});

test('unit: .claude/rules/**/*.md load after .claude/CLAUDE.md and before CLAUDE.local.md, user rules after ~/.claude/CLAUDE.md; path-conditional rules are reported, not loaded', () => {
  const user = put(join(home, '.claude', 'CLAUDE.md'), 'user');
  const userRule = put(join(home, '.claude', 'rules', 'u.md'), 'user rule');
  const parentRule = put(join(root, 'parent', '.claude', 'rules', 'p.md'), 'parent rule');
  const dot = put(join(cwd, '.claude', 'CLAUDE.md'), 'dot');
  const a = put(join(cwd, '.claude', 'rules', 'a.md'), '---\ndescription: style\n---\nrule a');
  const nested = put(join(cwd, '.claude', 'rules', 'b', 'y.md'), 'rule b/y');
  const empty = put(join(cwd, '.claude', 'rules', 'e.md'), '---\npaths: []\n---\nunconditional');
  const cond = put(join(cwd, '.claude', 'rules', 'c.md'), '---\npaths:\n  - "src/**/*.ts"\n---\nonly for ts');
  const inline = put(join(cwd, '.claude', 'rules', 'd.md'), '---\npaths: "**/*"\n---\nall files');
  put(join(cwd, '.claude', 'rules', 'notes.txt'), 'not markdown');
  const local = put(join(cwd, 'CLAUDE.local.md'), 'local');
  const m = loadMemory(cwd, noManaged());
  assert.deepEqual(
    m.files.map((f) => f.path),
    [user, userRule, parentRule, dot, a, nested, empty, local],
  );
  assert.equal(m.files.find((f) => f.path === a)?.content, 'rule a', 'frontmatter is not shown to the model');
  for (const p of [cond, inline])
    assert.ok(
      m.warnings.some((w) => w.startsWith(`${p}: a rule with paths:`)),
      m.warnings.join('\n'),
    );
  assert.equal(m.warnings.length, 2);
});

test('unit: a path-conditional rule that a CLAUDE.md imports is loaded (the import wins, as the reference)', () => {
  put(join(cwd, 'CLAUDE.md'), '@.claude/rules/c.md');
  const cond = put(join(cwd, '.claude', 'rules', 'c.md'), '---\npaths:\n  - "**/*.md"\n---\nimported rule');
  const m = loadMemory(cwd, noManaged());
  assert.ok(m.files.some((f) => f.path === cond && f.content === 'imported rule'));
  assert.deepEqual(m.warnings, []);
});

test('unit: frontmatter and block-level HTML comments are dropped from the text; inline comments and code keep them', () => {
  const text =
    '---\npaths: x\n---\nA <!-- inline --> B\n<!--\nmulti\nline\n-->\nC\n```\n<!-- in code -->\n```\n`<!-- span -->`\n<!-- @hidden.md -->\n';
  assert.equal(memoryText(text), 'A <!-- inline --> B\nC\n```\n<!-- in code -->\n```\n`<!-- span -->`\n');
  put(join(cwd, 'CLAUDE.md'), text);
  put(join(cwd, 'hidden.md'), 'hidden');
  assert.deepEqual(
    loadMemory(cwd, noManaged()).files.map((f) => f.path),
    [join(cwd, 'CLAUDE.md')],
    'an import inside an HTML comment is not followed',
  );
  assert.equal(hasPathsCondition('paths:\n  - a'), true);
  assert.equal(hasPathsCondition('paths: []'), false);
  assert.equal(hasPathsCondition('description: x'), false);
  assert.equal(hasPathsCondition(undefined), false);
});

test('unit: imports of binary file types are not loaded (warned); text files of any name are', () => {
  const project = put(join(cwd, 'CLAUDE.md'), 'p\n@logo.png\n@data.bin\n@run.sh\n@Makefile\n@conf.yaml\n@gone.pdf');
  put(join(cwd, 'logo.png'), '\x89PNG');
  put(join(cwd, 'data.bin'), 'text in a .bin');
  for (const f of ['run.sh', 'Makefile', 'conf.yaml']) put(join(cwd, f), f);
  const m = loadMemory(cwd, noManaged());
  assert.deepEqual(
    m.files.map((f) => f.path),
    [project, join(cwd, 'run.sh'), join(cwd, 'Makefile'), join(cwd, 'conf.yaml')],
  );
  assert.deepEqual(m.warnings, [
    `${project}: @import logo.png is a binary file type; it is not loaded (as Claude Code)`,
    `${project}: @import data.bin is a binary file type; it is not loaded (as Claude Code)`,
    `${project}: @import ${join(cwd, 'gone.pdf')} was not found; it is not loaded`,
  ]);
});

test('unit: a byte-order mark is dropped from a memory file, and its frontmatter still read', () => {
  const project = put(join(cwd, 'CLAUDE.md'), '\ufeff---\ndescription: x\n---\nBOM memory');
  const cond = put(join(cwd, '.claude', 'rules', 'r.md'), '\ufeff---\npaths:\n  - "src/**"\n---\nonly for src');
  const m = loadMemory(cwd, noManaged());
  assert.deepEqual(
    m.files.map((f) => [f.path, f.content]),
    [[project, 'BOM memory']],
  );
  assert.ok(m.warnings.some((w) => w.startsWith(`${cond}: a rule with paths:`)));
});
