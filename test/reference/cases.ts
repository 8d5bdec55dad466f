// Cases of the differential test against the reference agent (`npm run test:reference`), as data.
// Each case: files to create in a fresh project dir, then turns of tool_use blocks the fake model
// sends to both agents. `$DIR` in inputs stands for the project dir. Compared per tool_use_id.
import { ISSUE20_CASES } from './casesIssue20';

export interface RefCall {
  id: string;
  name: string;
  input: unknown;
}

export interface RefCase {
  name: string;
  files?: Record<string, string>;
  /** One array per model turn (turn n+1 is sent after the tool results of turn n). */
  turns: RefCall[][];
  /** What the capture hook of an event answers on stdout (JSON; `$DIR` substituted). */
  hookReplies?: Record<string, unknown>;
  /** Texts whose presence in the model's conversation is compared (a hook's reason or context reaching the model). */
  modelSees?: string[];
  /**
   * MCP servers: written to `.mcp.json` on both sides and approved (`enableAllProjectMcpServers`).
   * `$DIR`, `$NODE`, `$MCP_EVERYTHING` (@modelcontextprotocol/server-everything), `$MCP_FILESYSTEM` and `$MCP_TEST`
   * (test/support/mcpServer.js) stand for their paths. The tool_result text of an `mcp__` call is compared too.
   */
  mcpServers?: Record<string, unknown>;
  /** As hookReplies, but answered only the first time the event fires (a Stop hook that blocks once). */
  hookRepliesOnce?: Record<string, unknown>;
  /** The capture hook of the event exits 2 with this stderr the first time it fires. */
  hookExit2Once?: Record<string, string>;
  /** How durable-agent's session ends (default completed). */
  ends?: 'completed' | 'stopped';
  /** The session's permission mode on both sides (default bypassPermissions). */
  permissionMode?: 'default' | 'acceptEdits' | 'dontAsk' | 'bypassPermissions';
  /**
   * User settings on both sides (`$DIR`/`$OTHER` substituted): the reference reads them from its
   * settings file (next to the capture hooks); durable-agent gets `permissions` as its rules and
   * `sandbox` as its sandbox settings, as `run` would.
   */
  settings?: { permissions?: { allow?: string[]; ask?: string[]; deny?: string[] }; sandbox?: Record<string, unknown> };
  /** Symlinks to create (name → target; a relative target stays relative). */
  symlinks?: Record<string, string>;
  /** Additional working directories (`--add-dir`): `$OTHER` is an empty sibling of the project; files named `$OTHER/…` go there. */
  additionalDirectories?: string[];
  /**
   * The project is a git repository (branch main, the case's files in one commit). Its `.git`
   * internals are left out of the file comparison (each side's bookkeeping differs); the worktrees
   * and branches are compared instead, as the `$GIT` entry. The reference gets every tool up front
   * (ENABLE_TOOL_SEARCH=false: EnterWorktree/ExitWorktree are deferred there).
   */
  git?: boolean;
  /**
   * WebFetch cases: `$WEB` stands for a local HTTPS site (`https://127.0.0.1:<port>`, ./webSite.ts:
   * /page, /redirect-same-host, /redirect-other-host to localhost, anything else 404) whose CA both
   * sides trust; the reference skips its claude.ai domain check (skipWebFetchPreflight).
   */
  web?: boolean;
  /**
   * ToolSearch cases: the reference defers its tools as by default (ENABLE_TOOL_SEARCH not set to
   * false); durable-agent offers ToolSearch with deferral on (contextManagement.toolSearch 'on').
   */
  toolSearch?: boolean;
  /**
   * Background Agent cases: a subagent's model requests take no turn of the script and are
   * answered (text `done`) only after this many ms, so the child is still running when the parent
   * acts; the parent's turns after its first wait until the child's first request arrived.
   */
  childLatencyMs?: number;
}

const big =
  Array.from({ length: 2000 }, (_, i) => `line ${String(i).padStart(5, '0')} ${'y'.repeat(30)}`).join('\n') + '\n';

const lines30 = Array.from({ length: 30 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';

export const CASES: RefCase[] = [
  {
    // CLAUDE.md loading (not a tool call): which texts reach the model, compared with the reference.
    name: 'Memory CLAUDE.md imports and rules',
    files: {
      'CLAUDE.md': [
        '---',
        'description: MEM-FRONTMATTER',
        '---',
        'Root memory.',
        '<!-- MEM-COMMENT and @docs/hidden.md -->',
        'Relative: @./docs/rel.md and @docs/comma.md, then (@docs/paren.md)',
        'Outside the project: @../outside.md',
        'Code: `@docs/span.md`',
        '```',
        '@docs/fenced.md',
        '```',
        'Bare: @README and @alice',
        'Binary: @logo.png',
        'Chain: @docs/d1.md',
      ].join('\n'),
      'docs/rel.md': 'MEM-REL',
      'docs/comma.md': 'MEM-COMMA',
      'docs/paren.md': 'MEM-PAREN',
      'docs/hidden.md': 'MEM-HIDDEN',
      'docs/span.md': 'MEM-SPAN',
      'docs/fenced.md': 'MEM-FENCED',
      '../outside.md': 'MEM-OUTSIDE',
      README: 'MEM-README',
      'logo.png': 'MEM-PNG',
      'docs/d1.md': 'MEM-D1 @d2.md',
      'docs/d2.md': 'MEM-D2 @d3.md',
      'docs/d3.md': 'MEM-D3 @d4.md',
      'docs/d4.md': 'MEM-D4 @d5.md',
      'docs/d5.md': 'MEM-D5',
      '.claude/rules/style.md': '---\ndescription: MEM-RULE-FM\n---\nMEM-RULE',
      '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nMEM-COND-RULE',
      'CLAUDE.local.md': 'MEM-LOCAL',
      'x.txt': 'x\n',
    },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/x.txt' } }]],
    modelSees: [
      'Root memory.',
      'MEM-FRONTMATTER',
      'MEM-COMMENT',
      'MEM-HIDDEN',
      'MEM-REL',
      'MEM-COMMA',
      'MEM-PAREN',
      'MEM-OUTSIDE',
      'MEM-SPAN',
      'MEM-FENCED',
      'MEM-README',
      'MEM-PNG',
      'MEM-D1',
      'MEM-D4',
      'MEM-D5',
      'MEM-RULE',
      'MEM-RULE-FM',
      'MEM-COND-RULE',
      'MEM-LOCAL',
    ],
  },
  {
    name: 'Read normal',
    files: { 'a.txt': 'hello\nworld\n' },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }]],
  },
  {
    name: 'Read offset/limit',
    files: { 'a.txt': 'l1\nl2\nl3\nl4\nl5\n' },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt', offset: 2, limit: 2 } }]],
  },
  {
    name: 'Read missing file',
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/missing.txt' } }]],
  },
  {
    name: 'Read directory',
    files: { 'sub/x.txt': 'x\n' },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/sub' } }]],
  },
  {
    name: 'Read empty file',
    files: { 'empty.txt': '' },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/empty.txt' } }]],
  },
  {
    name: 'Read relative path',
    files: { 'a.txt': 'hello\n' },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: 'a.txt' } }]],
  },
  {
    name: 'Write new file',
    turns: [[{ id: 'toolu_write', name: 'Write', input: { file_path: '$DIR/new.txt', content: 'fresh\n' } }]],
  },
  {
    name: 'Write overwrite without read',
    files: { 'a.txt': 'old\n' },
    turns: [[{ id: 'toolu_write', name: 'Write', input: { file_path: '$DIR/a.txt', content: 'new\n' } }]],
  },
  {
    name: 'Write overwrite after read',
    files: { 'a.txt': 'old\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [{ id: 'toolu_write', name: 'Write', input: { file_path: '$DIR/a.txt', content: 'new\n' } }],
    ],
  },
  {
    name: 'Edit unique',
    files: { 'a.txt': 'timeout = 10\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [{ id: 'toolu_edit', name: 'Edit', input: { file_path: '$DIR/a.txt', old_string: '10', new_string: '30' } }],
    ],
  },
  {
    name: 'Edit not unique',
    files: { 'a.txt': 'x = 1\ny = 1\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [{ id: 'toolu_edit', name: 'Edit', input: { file_path: '$DIR/a.txt', old_string: '1', new_string: '2' } }],
    ],
  },
  {
    name: 'Edit replace_all',
    files: { 'a.txt': 'x = 1\ny = 1\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [
        {
          id: 'toolu_edit',
          name: 'Edit',
          input: { file_path: '$DIR/a.txt', old_string: '1', new_string: '2', replace_all: true },
        },
      ],
    ],
  },
  {
    name: 'Edit missing old_string',
    files: { 'a.txt': 'abc\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [{ id: 'toolu_edit', name: 'Edit', input: { file_path: '$DIR/a.txt', old_string: 'zzz', new_string: 'y' } }],
    ],
  },
  {
    name: 'Edit without prior read',
    files: { 'a.txt': 'timeout = 10\n' },
    turns: [
      [{ id: 'toolu_edit', name: 'Edit', input: { file_path: '$DIR/a.txt', old_string: '10', new_string: '30' } }],
    ],
  },
  {
    name: 'Edit missing file',
    turns: [
      [{ id: 'toolu_edit', name: 'Edit', input: { file_path: '$DIR/nope.txt', old_string: 'a', new_string: 'b' } }],
    ],
  },
  {
    name: 'Edit create with empty old_string',
    turns: [
      [
        {
          id: 'toolu_edit',
          name: 'Edit',
          input: { file_path: '$DIR/created.txt', old_string: '', new_string: 'made\n' },
        },
      ],
    ],
  },
  // The shape of Write/Edit's PostToolUse tool_response (structuredPatch hunks) on harder inputs.
  {
    name: 'Edit mid-file (context lines)',
    files: { 'a.txt': lines30 },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [
        {
          id: 'toolu_edit',
          name: 'Edit',
          input: { file_path: '$DIR/a.txt', old_string: 'row 15\n', new_string: 'row fifteen\nrow 15b\n' },
        },
      ],
    ],
  },
  {
    name: 'Edit two hunks (replace_all)',
    files: { 'a.txt': lines30 },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [
        {
          id: 'toolu_edit',
          name: 'Edit',
          input: { file_path: '$DIR/a.txt', old_string: 'row 2', new_string: 'ROW 2', replace_all: true },
        },
      ],
    ],
  },
  {
    name: 'Edit no trailing newline',
    files: { 'a.txt': 'alpha\nbeta' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [{ id: 'toolu_edit', name: 'Edit', input: { file_path: '$DIR/a.txt', old_string: 'beta', new_string: 'gamma' } }],
    ],
  },
  {
    name: 'Edit special characters',
    files: { 'a.txt': 'price = $1 & tax\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [
        {
          id: 'toolu_edit',
          name: 'Edit',
          input: { file_path: '$DIR/a.txt', old_string: '$1 & tax', new_string: "$& $$ && $' tax" },
        },
      ],
    ],
  },
  {
    name: 'Edit CRLF file',
    files: { 'a.txt': 'one\r\ntwo\r\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [{ id: 'toolu_edit', name: 'Edit', input: { file_path: '$DIR/a.txt', old_string: 'two', new_string: 'deux' } }],
    ],
  },
  {
    name: 'Write rewrite with two hunks',
    files: { 'a.txt': lines30 },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [
        {
          id: 'toolu_write',
          name: 'Write',
          input: {
            file_path: '$DIR/a.txt',
            content: lines30.replace('row 3\n', 'row three\n').replace('row 27\n', ''),
          },
        },
      ],
    ],
  },
  {
    name: 'Write removes trailing newline',
    files: { 'a.txt': 'x\ny\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [{ id: 'toolu_write', name: 'Write', input: { file_path: '$DIR/a.txt', content: 'x\ny' } }],
    ],
  },
  {
    name: 'Write same content',
    files: { 'a.txt': 'same\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [{ id: 'toolu_write', name: 'Write', input: { file_path: '$DIR/a.txt', content: 'same\n' } }],
    ],
  },
  {
    name: 'Read no trailing newline',
    files: { 'a.txt': 'one\ntwo' },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }]],
  },
  {
    name: 'Read offset to the end',
    files: { 'a.txt': 'l1\nl2\nl3\n' },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt', offset: 2 } }]],
  },
  {
    name: 'Read blank lines at the end',
    files: { 'a.txt': 'a\n\n\n' },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/a.txt' } }]],
  },
  {
    name: 'Write relative path',
    turns: [[{ id: 'toolu_write', name: 'Write', input: { file_path: 'rel.txt', content: 'r\n' } }]],
  },
  {
    name: 'Edit relative path',
    files: { 'a.txt': 'k = 1\n' },
    turns: [
      [{ id: 'toolu_read', name: 'Read', input: { file_path: 'a.txt' } }],
      [{ id: 'toolu_edit', name: 'Edit', input: { file_path: 'a.txt', old_string: '1', new_string: '2' } }],
    ],
  },
  {
    name: 'Glob',
    files: { 'src/a.ts': '', 'src/b.ts': '', 'c.md': '' },
    turns: [[{ id: 'toolu_glob', name: 'Glob', input: { pattern: '**/*.ts' } }]],
  },
  {
    name: 'Grep files_with_matches',
    files: { 'a.txt': 'foo\n', 'b.txt': 'bar\n' },
    turns: [[{ id: 'toolu_grep', name: 'Grep', input: { pattern: 'foo' } }]],
  },
  {
    name: 'Grep content',
    files: { 'a.txt': 'foo\nbar\n' },
    turns: [[{ id: 'toolu_grep', name: 'Grep', input: { pattern: 'foo', output_mode: 'content' } }]],
  },
  {
    name: 'Grep count',
    files: { 'a.txt': 'foo\nfoo\n' },
    turns: [[{ id: 'toolu_grep', name: 'Grep', input: { pattern: 'foo', output_mode: 'count' } }]],
  },
  {
    name: 'Grep invalid regex',
    files: { 'a.txt': 'foo\n' },
    turns: [[{ id: 'toolu_grep', name: 'Grep', input: { pattern: 'foo(' } }]],
  },
  { name: 'Bash exit 0', turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]] },
  { name: 'Bash exit code', turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo out; exit 3' } }]] },
  {
    name: 'Bash stderr exit 0',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo warn >&2; echo ok' } }]],
  },
  {
    name: 'Bash writes a file',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo made > made.txt' } }]],
  },
  {
    name: 'Bash large output',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: "seq 1 20000 | sed 's/$/ xxxxxxxx/'" } }]],
  },
  {
    name: 'Read large file',
    files: { 'big.txt': big },
    turns: [[{ id: 'toolu_read', name: 'Read', input: { file_path: '$DIR/big.txt' } }]],
  },
  { name: 'malformed: Read without file_path', turns: [[{ id: 'toolu_bad', name: 'Read', input: {} }]] },
  {
    name: 'malformed: Bash command not a string',
    turns: [[{ id: 'toolu_bad', name: 'Bash', input: { command: 42 } }]],
  },
  {
    name: 'malformed: Edit extra key',
    files: { 'a.txt': 'a\n' },
    turns: [
      [
        {
          id: 'toolu_bad',
          name: 'Edit',
          input: { file_path: '$DIR/a.txt', old_string: 'a', new_string: 'b', bogus: 1 },
        },
      ],
    ],
  },
  {
    name: 'malformed: Write missing content',
    turns: [[{ id: 'toolu_bad', name: 'Write', input: { file_path: '$DIR/x.txt' } }]],
  },
  { name: 'unknown tool', turns: [[{ id: 'toolu_unknown', name: 'NoSuchTool', input: { x: 1 } }]] },
  // Hook answers: the same JSON output through both agents.
  {
    name: 'hook: PreToolUse deny',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo no > denied.txt' } }]],
    hookReplies: {
      PreToolUse: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'DENY-MARK policy',
        },
      },
    },
    modelSees: ['DENY-MARK'],
  },
  {
    name: 'hook: PreToolUse allow',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo yes > allowed.txt' } }]],
    hookReplies: {
      PreToolUse: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          permissionDecisionReason: 'ALLOW-MARK',
        },
      },
    },
  },
  {
    name: 'hook: PreToolUse ask (nobody to ask)',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo maybe > asked.txt' } }]],
    hookReplies: {
      PreToolUse: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'ask',
          permissionDecisionReason: 'ASK-MARK',
        },
      },
    },
  },
  {
    name: 'hook: PreToolUse updatedInput',
    turns: [[{ id: 'toolu_write', name: 'Write', input: { file_path: '$DIR/asked.txt', content: 'asked\n' } }]],
    hookReplies: {
      PreToolUse: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { file_path: '$DIR/rewritten.txt', content: 'rewritten\n' },
        },
      },
    },
  },
  {
    name: 'hook: PreToolUse additionalContext',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]],
    hookReplies: {
      PreToolUse: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'PRE-CTX-MARK' } },
    },
    modelSees: ['PRE-CTX-MARK'],
  },
  {
    name: 'hook: PreToolUse block (decision)',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo no > blocked.txt' } }]],
    hookReplies: { PreToolUse: { decision: 'block', reason: 'BLOCK-MARK' } },
    modelSees: ['BLOCK-MARK'],
  },
  {
    name: 'hook: PostToolUse decision block',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]],
    hookReplies: { PostToolUse: { decision: 'block', reason: 'POST-MARK reformat' } },
    modelSees: ['POST-MARK'],
  },
  {
    name: 'hook: PostToolUse additionalContext',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]],
    hookReplies: {
      PostToolUse: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'POST-CTX-MARK' } },
    },
    modelSees: ['POST-CTX-MARK'],
  },
  {
    name: 'hook: PostToolUseFailure additionalContext',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo out; exit 4' } }]],
    hookReplies: {
      PostToolUseFailure: {
        hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'FAIL-CTX-MARK' },
      },
    },
    modelSees: ['FAIL-CTX-MARK'],
  },
  {
    name: 'hook: PreToolUse exit 2',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo no > blocked.txt' } }]],
    hookExit2Once: { PreToolUse: 'PRE-EXIT2-MARK not here' },
    modelSees: ['PRE-EXIT2-MARK'],
  },
  {
    name: 'hook: PostToolUse exit 2',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]],
    hookExit2Once: { PostToolUse: 'POST-EXIT2-MARK lint failed' },
    modelSees: ['POST-EXIT2-MARK'],
  },
  {
    name: 'hook: PostToolUseFailure exit 2',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'exit 3' } }]],
    hookExit2Once: { PostToolUseFailure: 'FAIL-EXIT2-MARK' },
    modelSees: ['FAIL-EXIT2-MARK'],
  },
  {
    name: 'hook: PreToolUse continue false',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo ran > ran.txt' } }]],
    hookReplies: { PreToolUse: { continue: false, stopReason: 'CONT-MARK stop here' } },
    ends: 'stopped',
  },
  {
    name: 'hook: PostToolUse continue false',
    turns: [
      [{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo ran > ran.txt' } }],
      [{ id: 'toolu_bash2', name: 'Bash', input: { command: 'echo again > again.txt' } }],
    ],
    hookReplies: { PostToolUse: { continue: false, stopReason: 'CONT-MARK stop here' } },
    ends: 'stopped',
  },
  // Session-level events (./session.ts compares every case's SessionStart/UserPromptSubmit/Stop/SessionEnd input and transcript file).
  {
    name: 'session: Stop block once',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]],
    hookRepliesOnce: { Stop: { decision: 'block', reason: 'STOP-MARK run the tests' } },
    modelSees: ['Stop hook feedback:\nSTOP-MARK run the tests'],
  },
  {
    name: 'session: Stop exit 2 once',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]],
    hookExit2Once: { Stop: 'STOP2-MARK' },
    modelSees: ['STOP2-MARK'],
  },
  {
    name: 'session: UserPromptSubmit and SessionStart additionalContext',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]],
    hookReplies: {
      UserPromptSubmit: {
        hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'UPS-CTX-MARK' },
      },
      SessionStart: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'SS-CTX-MARK' } },
    },
    modelSees: ['UPS-CTX-MARK', 'SS-CTX-MARK'],
  },
  {
    name: 'session: UserPromptSubmit block',
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo no > ran.txt' } }]],
    hookReplies: { UserPromptSubmit: { decision: 'block', reason: 'UPS-BLOCK-MARK' } },
    ends: 'stopped',
  },
  {
    name: 'session: CLAUDE.md stays out of the prompt and the transcript',
    files: { 'CLAUDE.md': 'MEMORY-MARK: use pnpm.\n' },
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo hi' } }]],
    modelSees: ['MEMORY-MARK'],
  },
  {
    name: 'session: parallel calls in the transcript',
    files: { 'a.txt': 'a\n', 'b.txt': 'b\n' },
    turns: [
      [
        { id: 'toolu_ra', name: 'Read', input: { file_path: '$DIR/a.txt' } },
        { id: 'toolu_rb', name: 'Read', input: { file_path: '$DIR/b.txt' } },
      ],
      [{ id: 'toolu_bash', name: 'Bash', input: { command: 'echo c' } }],
    ],
  },
];

/**
 * Protected paths (issue 18): the control files an agent must not rewrite unasked. For each, Write
 * in acceptEdits (the reference asks: denied under -p; CLAUDE.md is written), and Bash in the
 * sandbox (its settings on, `autoAllowBashIfSandboxed: true` on both sides so that the sandbox, not
 * a permission prompt, decides) overwriting the file and creating it with its directory. The
 * reference's answers for each path: /work/wt/REFERENCE-FACTS.md, summarised in docs/tools.md.
 */
export const PROTECTED_PATHS = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/agents/x.md',
  '.claude/commands/x.md',
  '.claude/hooks/x.sh',
  '.claude/skills/x/SKILL.md',
  '.mcp.json',
  '.git/config',
  '.git/hooks/pre-commit',
  '.gitmodules',
  '.gitconfig',
  '.bashrc',
  '.zshrc',
  '.profile',
  '.envrc',
  '.vscode/settings.json',
  '.vscode/tasks.json',
  '.idea/workspace.xml',
  'CLAUDE.md',
  '.durable-agent/settings.json',
  'sub/.git/config',
  'sub/.claude/settings.json',
  '.Claude/settings.json',
  'link/settings.json',
];
/** `link` is a symlink to `.claude` (a path through a symlinked directory). */
const LINK = { link: '.claude' };
const SANDBOX_ON = { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } };
/** A valid file of the path's kind (an agent or skill file with its frontmatter: durable-agent refuses a malformed one at start). */
const oldText = (p: string): string =>
  p.endsWith('.json') ? '{}\n' : /\/(agents|skills)\//.test(p) ? '---\nname: x\ndescription: old\n---\nold\n' : 'old\n';
/** The file a path names (the symlinked one is `.claude/settings.json`). */
const realPath = (p: string): string => (p.startsWith('link/') ? `.claude/${p.slice('link/'.length)}` : p);
const q = (p: string): string => `'${p}'`;
const dirOf = (p: string): string => p.slice(0, Math.max(p.lastIndexOf('/'), 0)) || '.';

export const PROTECTED_CASES: RefCase[] = [
  ...PROTECTED_PATHS.map((p): RefCase => ({
    name: `protected: Write ${p} (acceptEdits)`,
    permissionMode: 'acceptEdits',
    ...(p.startsWith('link/') ? { symlinks: LINK, files: { '.claude/notes.md': 'n\n' } } : {}),
    turns: [[{ id: 'toolu_write', name: 'Write', input: { file_path: `$DIR/${p}`, content: 'x\n' } }]],
  })),
  ...PROTECTED_PATHS.map((p): RefCase => ({
    name: `protected: sandboxed Bash overwrites ${p}`,
    permissionMode: 'acceptEdits',
    settings: SANDBOX_ON,
    files: { [realPath(p)]: oldText(p) },
    ...(p.startsWith('link/') ? { symlinks: LINK } : {}),
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: `echo x > ${q(p)}` } }]],
  })),
  ...PROTECTED_PATHS.map((p): RefCase => ({
    name: `protected: sandboxed Bash creates ${p}`,
    permissionMode: 'acceptEdits',
    settings: SANDBOX_ON,
    ...(p.startsWith('link/') ? { symlinks: LINK, files: { '.claude/notes.md': 'n\n' } } : {}),
    turns: [[{ id: 'toolu_bash', name: 'Bash', input: { command: `mkdir -p ${q(dirOf(p))} && echo x > ${q(p)}` } }]],
  })),
  {
    name: 'protected: Edit after Read (acceptEdits)',
    permissionMode: 'acceptEdits',
    files: {
      '.claude/settings.json': '{"a":1}\n',
      '.mcp.json': '{"a":1}\n',
      '.git/config': 'a = 1\n',
      '.vscode/tasks.json': '{"a":1}\n',
      'CLAUDE.md': 'a = 1\n',
    },
    turns: ['.claude/settings.json', '.mcp.json', '.git/config', '.vscode/tasks.json', 'CLAUDE.md'].flatMap((p, i) => [
      [{ id: `toolu_read${i}`, name: 'Read', input: { file_path: `$DIR/${p}` } }],
      [{ id: `toolu_edit${i}`, name: 'Edit', input: { file_path: `$DIR/${p}`, old_string: '1', new_string: '2' } }],
    ]),
  },
  ...(['default', 'dontAsk', 'bypassPermissions'] as const).map((mode): RefCase => ({
    name: `protected: Write in ${mode}`,
    permissionMode: mode,
    turns: [
      '.claude/settings.json',
      '.claude/hooks/x.sh',
      '.mcp.json',
      '.git/config',
      '.bashrc',
      '.vscode/tasks.json',
      'CLAUDE.md',
      'ok.txt',
    ].map((p, i) => [{ id: `toolu_write${i}`, name: 'Write', input: { file_path: `$DIR/${p}`, content: 'x\n' } }]),
  })),
  {
    name: 'protected: allow rules do not lift it (acceptEdits)',
    permissionMode: 'acceptEdits',
    settings: { permissions: { allow: ['Edit(.mcp.json)', 'Edit(./.claude/**)', 'Edit(./.git/**)', 'Edit(.bashrc)'] } },
    turns: ['.mcp.json', '.claude/settings.json', '.git/config', '.bashrc'].map((p, i) => [
      { id: `toolu_write${i}`, name: 'Write', input: { file_path: `$DIR/${p}`, content: 'x\n' } },
    ]),
  },
  {
    name: 'protected: a PreToolUse allow does not lift it (acceptEdits)',
    permissionMode: 'acceptEdits',
    hookReplies: { PreToolUse: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } } },
    turns: ['.mcp.json', '.claude/settings.json', '.git/hooks/pre-commit', 'ok.txt'].map((p, i) => [
      { id: `toolu_write${i}`, name: 'Write', input: { file_path: `$DIR/${p}`, content: 'x\n' } },
    ]),
  },
  {
    name: 'protected: Write in an additional directory (acceptEdits)',
    permissionMode: 'acceptEdits',
    additionalDirectories: ['$OTHER'],
    turns: ['.mcp.json', '.claude/settings.local.json', '.git/hooks/pre-commit', '.bashrc', 'ok.txt'].map((p, i) => [
      { id: `toolu_write${i}`, name: 'Write', input: { file_path: `$OTHER/${p}`, content: 'x\n' } },
    ]),
  },
  {
    name: 'protected: sandboxed Bash in an additional directory',
    permissionMode: 'acceptEdits',
    settings: SANDBOX_ON,
    additionalDirectories: ['$OTHER'],
    files: {
      '$OTHER/.mcp.json': '{}\n',
      '$OTHER/.claude/settings.json': '{}\n',
      '$OTHER/.claude/agents/a.md': oldText('.claude/agents/a.md'),
      '$OTHER/.git/config': 'old\n',
      '$OTHER/.bashrc': 'old\n',
      '$OTHER/.vscode/tasks.json': '{}\n',
      '$OTHER/ok.txt': 'old\n',
    },
    turns: [
      '.mcp.json',
      '.claude/settings.json',
      '.claude/agents/a.md',
      '.git/config',
      '.bashrc',
      '.vscode/tasks.json',
      'ok.txt',
    ].map((p, i) => [{ id: `toolu_bash${i}`, name: 'Bash', input: { command: `echo x > "$OTHER"/${q(p)}` } }]),
  },
  {
    // The session's cwd moves (cd in Bash): the reference's protections stay those of its start directory.
    name: 'protected: sandboxed Bash after cd into a subdirectory',
    permissionMode: 'acceptEdits',
    settings: SANDBOX_ON,
    files: { 'sub/.claude/settings.json': '{}\n', 'sub/.mcp.json': '{}\n', 'sub/ok.txt': 'old\n' },
    turns: [
      [{ id: 'toolu_cd', name: 'Bash', input: { command: 'cd sub' } }],
      [{ id: 'toolu_settings', name: 'Bash', input: { command: 'echo x > .claude/settings.json' } }],
      [{ id: 'toolu_mcp', name: 'Bash', input: { command: 'echo x > .mcp.json' } }],
      [{ id: 'toolu_ok', name: 'Bash', input: { command: 'echo x > ok.txt' } }],
    ],
  },
];
CASES.push(...PROTECTED_CASES);

/**
 * Where the reference (Claude Code 2.1.x) and durable-agent deliberately differ: case → reason.
 * A differing case listed here is reported as "deliberate"; any other difference fails the run.
 * docs/tools.md lists the same rows (a unit test keeps them in sync).
 */
/** MCP cases: real servers from npm and the test server, over stdio. */
export const MCP_CASES: RefCase[] = [
  {
    name: 'MCP server-everything text and structuredContent',
    mcpServers: { everything: { command: '$NODE', args: ['$MCP_EVERYTHING'] } },
    turns: [
      [{ id: 'toolu_mcp_echo', name: 'mcp__everything__echo', input: { message: 'hi there' } }],
      [{ id: 'toolu_mcp_sum', name: 'mcp__everything__get-sum', input: { a: 2, b: 40 } }],
      [{ id: 'toolu_mcp_struct', name: 'mcp__everything__get-structured-content', input: { location: 'Chicago' } }],
      [{ id: 'toolu_mcp_links', name: 'mcp__everything__get-resource-links', input: { count: 2 } }],
      [{ id: 'toolu_mcp_image', name: 'mcp__everything__get-tiny-image', input: {} }],
    ],
  },
  {
    name: 'MCP server-filesystem read write edit and a path outside',
    files: { 'a.txt': 'hello\nworld\n' },
    mcpServers: { fs: { command: '$NODE', args: ['$MCP_FILESYSTEM', '$DIR'] } },
    turns: [
      [{ id: 'toolu_fs_read', name: 'mcp__fs__read_text_file', input: { path: '$DIR/a.txt' } }],
      [{ id: 'toolu_fs_write', name: 'mcp__fs__write_file', input: { path: '$DIR/b.txt', content: 'new file\n' } }],
      [
        {
          id: 'toolu_fs_edit',
          name: 'mcp__fs__edit_file',
          input: { path: '$DIR/a.txt', edits: [{ oldText: 'world', newText: 'there' }] },
        },
      ],
      [{ id: 'toolu_fs_outside', name: 'mcp__fs__read_text_file', input: { path: '/etc/hostname' } }],
      [{ id: 'toolu_fs_info', name: 'mcp__fs__list_allowed_directories', input: {} }],
    ],
  },
  {
    name: 'MCP dotted server name - resources - isError - crash and restart',
    mcpServers: { 'my.test': { command: '$NODE', args: ['$MCP_TEST'] } },
    turns: [
      [{ id: 'toolu_mcp_ping', name: 'mcp__my_test__ping', input: { message: 'one' } }],
      [{ id: 'toolu_mcp_fail', name: 'mcp__my_test__fail', input: {} }],
      [{ id: 'toolu_mcp_image', name: 'mcp__my_test__image', input: {} }],
      [{ id: 'toolu_mcp_crash', name: 'mcp__my_test__crash', input: {} }],
      [{ id: 'toolu_mcp_again', name: 'mcp__my_test__ping', input: { message: 'after the crash' } }],
    ],
  },
];
CASES.push(...MCP_CASES);

// Background tasks (issue 19): Bash run_in_background's result, its output file, the notification
// the model gets when it ends (the reference's -p waits for running tasks before it exits; so does
// the in-process runner's session), TaskStop of a running task, of a stopped one and of an unknown id.
const BACKGROUND_CASES: RefCase[] = [
  {
    name: 'Background Bash result output file and notification',
    turns: [
      [
        {
          id: 'toolu_bg_ok',
          name: 'Bash',
          input: {
            command: 'echo "start <1>"; sleep 1; echo "done & dusted" >&2',
            run_in_background: true,
            description: 'Build <all> & test',
          },
        },
      ],
    ],
  },
  {
    name: 'Background Bash failing command',
    turns: [
      [{ id: 'toolu_bg_fail', name: 'Bash', input: { command: 'echo partial; exit 3', run_in_background: true } }],
    ],
  },
  {
    name: 'Background Bash TaskStop',
    turns: [
      [{ id: 'toolu_ts_bg', name: 'Bash', input: { command: 'sleep 30', run_in_background: true } }],
      [{ id: 'toolu_ts_stop', name: 'TaskStop', input: { task_id: '$JOB(toolu_ts_bg)' } }],
      [{ id: 'toolu_ts_unknown', name: 'TaskStop', input: { task_id: 'bnosuchid' } }],
      [{ id: 'toolu_ts_again', name: 'TaskStop', input: { task_id: '$JOB(toolu_ts_bg)' } }],
    ],
  },
  {
    // Lines 1 s apart (after a first second, so that no event comes while the Monitor's own turn
    // runs): one event each, then the end notification with the line that came with the exit.
    name: 'Monitor command events and end notification',
    turns: [
      [
        {
          id: 'toolu_mon_ticks',
          name: 'Monitor',
          input: {
            description: 'Ticks <1s> & more',
            command: 'sleep 1; for i in 1 2 3; do echo "tick <$i>"; sleep 1; done; echo "last & final"',
            timeout_ms: 60000,
          },
        },
      ],
    ],
  },
];
// TaskStop of each kind of task (issue 19): a Monitor after its first event, a background Agent whose
// child is still in its model call, a background command that already ended; then the same id again.
// An empty turn ends the model's turn: it waits for the task's notification, which starts the next.
BACKGROUND_CASES.push(
  {
    // The first line after 2 s, so that it comes after the Monitor's own turn ended.
    name: 'Monitor TaskStop after its first event',
    turns: [
      [
        {
          id: 'toolu_ms_mon',
          name: 'Monitor',
          input: { description: 'Watch <up> & on', command: 'sleep 2; echo "up & <on>"; sleep 60', timeout_ms: 120000 },
        },
      ],
      [],
      [{ id: 'toolu_ms_stop', name: 'TaskStop', input: { task_id: '$JOB(toolu_ms_mon)' } }],
      [{ id: 'toolu_ms_again', name: 'TaskStop', input: { task_id: '$JOB(toolu_ms_mon)' } }],
    ],
  },
  {
    name: 'Agent background TaskStop',
    childLatencyMs: 120_000,
    turns: [
      [
        {
          id: 'toolu_as_agent',
          name: 'Agent',
          input: {
            description: 'Slow <look> & see',
            prompt: 'look around slowly',
            subagent_type: 'general-purpose',
            run_in_background: true,
          },
        },
      ],
      [{ id: 'toolu_as_stop', name: 'TaskStop', input: { task_id: '$JOB(toolu_as_agent)' } }],
      [{ id: 'toolu_as_again', name: 'TaskStop', input: { task_id: '$JOB(toolu_as_agent)' } }],
    ],
  },
  {
    name: 'Agent background TaskStop after it ended',
    childLatencyMs: 1000,
    turns: [
      [
        {
          id: 'toolu_ae_agent',
          name: 'Agent',
          input: {
            description: 'Quick look',
            prompt: 'look around',
            subagent_type: 'general-purpose',
            run_in_background: true,
          },
        },
      ],
      [],
      [{ id: 'toolu_ae_stop', name: 'TaskStop', input: { task_id: '$JOB(toolu_ae_agent)' } }],
    ],
  },
  {
    // No output: the end notification alone (no event that could start a turn of its own first).
    name: 'Monitor TaskStop after it ended',
    turns: [
      [{ id: 'toolu_me_mon', name: 'Monitor', input: { description: 'Quiet', command: 'sleep 2', timeout_ms: 60000 } }],
      [],
      [{ id: 'toolu_me_stop', name: 'TaskStop', input: { task_id: '$JOB(toolu_me_mon)' } }],
    ],
  },
  {
    name: 'Background Bash TaskStop after it ended',
    turns: [
      [{ id: 'toolu_te_bg', name: 'Bash', input: { command: 'sleep 2; echo finished', run_in_background: true } }],
      [],
      [{ id: 'toolu_te_stop', name: 'TaskStop', input: { task_id: '$JOB(toolu_te_bg)' } }],
    ],
  },
);
CASES.push(...BACKGROUND_CASES);

const WORKTREE_CASES: RefCase[] = [
  // Scheduling (issue 19): texts compared with ids, clock times, next-run dates and the seconds to a wake-up normalised.
  {
    name: 'Schedule wakeup clamped - missing reason - stop',
    turns: [
      [{ id: 'toolu_sw_noreason', name: 'ScheduleWakeup', input: { delaySeconds: 120, prompt: 'check again' } }],
      [
        {
          id: 'toolu_sw_clamped',
          name: 'ScheduleWakeup',
          input: { delaySeconds: 5, reason: 'poll the build', prompt: 'check the build' },
        },
      ],
      [{ id: 'toolu_sw_list', name: 'CronList', input: {} }],
      [{ id: 'toolu_sw_stop', name: 'ScheduleWakeup', input: { stop: true } }],
      [{ id: 'toolu_sw_stop_again', name: 'ScheduleWakeup', input: { stop: true } }],
    ],
  },
  {
    name: 'Cron create list delete',
    turns: [
      [{ id: 'toolu_cr_empty', name: 'CronList', input: {} }],
      [{ id: 'toolu_cr_rec', name: 'CronCreate', input: { cron: '*/5 * * * *', prompt: 'check the queue' } }],
      [
        {
          id: 'toolu_cr_once',
          name: 'CronCreate',
          input: { cron: '30 9 * * *', prompt: 'morning report', recurring: false },
        },
      ],
      [{ id: 'toolu_cr_list', name: 'CronList', input: {} }],
      [{ id: 'toolu_cr_del_rec', name: 'CronDelete', input: { id: '$JOB(toolu_cr_rec)' } }],
      [{ id: 'toolu_cr_del_once', name: 'CronDelete', input: { id: '$JOB(toolu_cr_once)' } }],
      [{ id: 'toolu_cr_del_unknown', name: 'CronDelete', input: { id: 'deadbeef' } }],
      [{ id: 'toolu_cr_list_after', name: 'CronList', input: {} }],
    ],
  },
  {
    name: 'Cron bad expressions',
    turns: [
      [{ id: 'toolu_cb_fields', name: 'CronCreate', input: { cron: '*/5 * * *', prompt: 'x' } }],
      [{ id: 'toolu_cb_range', name: 'CronCreate', input: { cron: '61 * * * *', prompt: 'x' } }],
      [{ id: 'toolu_cb_nodate', name: 'CronCreate', input: { cron: '0 0 31 2 *', prompt: 'x' } }],
    ],
  },
  // Worktrees (issue 19.4): location, branch naming, cwd of later calls, keep/remove and refusals.
  {
    name: 'Worktree enter write keep',
    git: true,
    files: { 'a.txt': 'main\n' },
    turns: [
      [{ id: 'toolu_wt_enter', name: 'EnterWorktree', input: { name: 'feat/x-1' } }],
      [{ id: 'toolu_wt_again', name: 'EnterWorktree', input: { name: 'other' } }],
      [{ id: 'toolu_wt_write', name: 'Write', input: { file_path: 'new.txt', content: 'in the worktree\n' } }],
      [{ id: 'toolu_wt_keep', name: 'ExitWorktree', input: { action: 'keep' } }],
      [{ id: 'toolu_wt_noop', name: 'ExitWorktree', input: { action: 'keep' } }],
      [{ id: 'toolu_wt_main', name: 'Write', input: { file_path: 'main.txt', content: 'back in main\n' } }],
    ],
  },
  {
    name: 'Worktree remove refused then discarded',
    git: true,
    files: { 'a.txt': 'main\n' },
    turns: [
      [{ id: 'toolu_wr_enter', name: 'EnterWorktree', input: { name: 'tmp' } }],
      [{ id: 'toolu_wr_write', name: 'Write', input: { file_path: 'scratch.txt', content: 'x\n' } }],
      [{ id: 'toolu_wr_refused', name: 'ExitWorktree', input: { action: 'remove' } }],
      [{ id: 'toolu_wr_discard', name: 'ExitWorktree', input: { action: 'remove', discard_changes: true } }],
    ],
  },
  {
    name: 'Worktree bad names',
    git: true,
    files: { 'a.txt': 'main\n' },
    turns: [
      [{ id: 'toolu_wb_space', name: 'EnterWorktree', input: { name: 'bad name!' } }],
      [{ id: 'toolu_wb_dots', name: 'EnterWorktree', input: { name: '../esc' } }],
      [{ id: 'toolu_wb_both', name: 'EnterWorktree', input: { name: 'a', path: '/tmp' } }],
      [{ id: 'toolu_wb_long', name: 'EnterWorktree', input: { name: 'n'.repeat(65) } }],
      [{ id: 'toolu_wb_path', name: 'EnterWorktree', input: { path: '/tmp' } }],
    ],
  },
  {
    name: 'Worktree outside a repository',
    files: { 'a.txt': 'plain\n' },
    turns: [
      [{ id: 'toolu_wn_enter', name: 'EnterWorktree', input: { name: 'x' } }],
      [{ id: 'toolu_wn_exit', name: 'ExitWorktree', input: { action: 'keep' } }],
    ],
  },
];
CASES.push(...WORKTREE_CASES);

/** Skills and the built-in agent types (issue 20.2–3). */
CASES.push(
  {
    name: 'Skill load - arguments - unknown - hidden',
    files: {
      '.claude/skills/greet/SKILL.md':
        '---\nname: greet\ndescription: Say hello\nargument-hint: <who>\n---\nGreet $ARGUMENTS warmly. First: $0. Dir ${CLAUDE_SKILL_DIR}\n',
      '.claude/skills/plain/SKILL.md': '---\ndescription: plain skill\n---\nPlain body\n',
      '.claude/skills/hidden/SKILL.md': '---\ndescription: hidden\ndisable-model-invocation: true\n---\nHidden\n',
    },
    turns: [
      [{ id: 'toolu_sk_greet', name: 'Skill', input: { skill: 'greet', args: 'Bob and Alice' } }],
      [{ id: 'toolu_sk_plain', name: 'Skill', input: { skill: '/plain', args: 'x y' } }],
      [{ id: 'toolu_sk_unknown', name: 'Skill', input: { skill: 'nope' } }],
      [{ id: 'toolu_sk_hidden', name: 'Skill', input: { skill: 'hidden' } }],
    ],
    modelSees: [
      'Launching skill: greet',
      'Greet Bob and Alice warmly. First: Bob. Dir ',
      'ARGUMENTS: x y',
      'Unknown skill: nope',
    ],
  },
  {
    name: 'Skill allowed-tools in dontAsk',
    permissionMode: 'dontAsk',
    settings: { permissions: { allow: ['Skill(mark)'] }, sandbox: { enabled: false } },
    files: {
      '.claude/skills/mark/SKILL.md':
        '---\ndescription: Marks the project\nallowed-tools: Bash(touch:*)\n---\nRun touch.\n',
    },
    turns: [
      [{ id: 'toolu_ska_before', name: 'Bash', input: { command: 'touch before.txt' } }],
      [{ id: 'toolu_ska_skill', name: 'Skill', input: { skill: 'mark' } }],
      [{ id: 'toolu_ska_after', name: 'Bash', input: { command: 'touch after.txt' } }],
    ],
  },
  {
    name: 'Agent Explore cannot write',
    files: { 'a.txt': 'a\n' },
    turns: [
      [
        {
          id: 'toolu_explore',
          name: 'Agent',
          input: { description: 'look', prompt: 'look around', subagent_type: 'Explore' },
        },
      ],
    ],
  },
);

CASES.push(...ISSUE20_CASES);

export interface Deliberate {
  /** Comma-separated case names; `X*` = every case whose name starts with X; `*` = all. */
  cases: string;
  /** Only calls of these tools (default: any). */
  tools?: string[];
  /** Only this aspect of the comparison (default: any): is_error, tool_response keys, … */
  aspect?: string;
  /**
   * A `file` difference is covered only when it names one of these paths (or a directory on the
   * way to one), whatever `tools` says: other files that differ in the case stay unexpected.
   * Default: any file (and, with `tools`, no file).
   */
  files?: string[];
  /** Only differences whose text matches (an output case's diff line, e.g. one request's `thinking display`). */
  matches?: RegExp;
  reason: string;
}

export const DELIBERATE: Deliberate[] = [
  {
    cases: 'Agent Explore cannot write, Agent background*',
    aspect: 'tool_response keys',
    reason:
      "Both launch the agent in the background (the in-process runner too, issue 19); the Agent call's tool_response is each side's own record of the launch: the reference's has isAsync, outputFile, canReadOutputFile, canContinueAgent, durable-agent's is its Agent output (agentType, status launched, endReason, turns, the launched task id).",
  },
  {
    cases: 'Agent Explore cannot write, Agent background*',
    tools: ['Agent'],
    aspect: 'guidance',
    reason:
      "The launched result's first sentence and its `agentId: <id>` agree (compared as `content`); the rest is each side's own words: the reference's note not to quote the result and its output file, durable-agent's guidance (TaskStop stops it, wait for the notification) and the child's session id (the child is a session of its own: no transcript file to read).",
  },
  {
    cases: 'Agent Explore cannot write, Agent background TaskStop after it ended',
    aspect: 'notification',
    reason:
      "The agent's <task-notification> agrees but for two elements: no <output-file> (the reference's is the agent's transcript file; durable-agent's child is a session of its own, `durable-agent status <session>` shows it), and a <note> in durable-agent's own words (no SendMessage here: the agent cannot be resumed). Task id, tool use id, status, summary, result and the usage elements agree (usage numbers normalised).",
  },
  {
    cases: 'Skill*',
    aspect: 'transcript',
    reason:
      "The reference sends a skill's text (`Base directory for this skill: …` and the body) as a text block after the tool_result, in the same user message, and marks its transcript lines with its own bookkeeping (turnCompanion, sourceToolUseID, attributionSkill, toolResultTypedCommand); durable-agent sends the same text as the tool_result's second text block (the result travels by reference like every tool result), so the transcript has no separate text entry.",
  },
  {
    cases: 'Write overwrite without read, Edit without prior read',
    reason:
      'The reference 2.1.328 overwrites (Write) or edits (Edit) an existing file the model has not read; the seed and the reference 2.1.197 refuse ("File has not been read yet"). durable-agent keeps the read-before-write rule: a model cannot clobber a file it has not seen, and the same check catches a file changed since it was read.',
  },
  {
    cases: 'MCP server-everything text and structuredContent',
    tools: ['mcp__everything__get-tiny-image'],
    reason:
      'The reference 2.1.328 saves an MCP image into its session directory and adds a text block naming that file after the image; durable-agent sends the image block only (its tool results live in the store, not in files the model could open).',
  },
  {
    cases: 'MCP dotted server name - resources - isError - crash and restart',
    tools: ['mcp__my_test__image', 'mcp__my_test__crash'],
    reason:
      'Bytes that claim to be a PNG but are not: both say "[Image could not be processed: …]" in their own words (the reference tried to resize it; durable-agent checks the file signature). A server that exits mid-call: the reference says "Connection closed" (2.1.197: "MCP error -32000: Connection closed"), durable-agent "MCP server … is gone … it will be started again on the next call" (is_error on both).',
  },
  {
    cases: 'Glob*, Grep*',
    reason:
      'The reference (native build, 2.1.197 and 2.1.328) no longer offers Glob and Grep (it answers "No such tool available" and points to grep/find through Bash); the seed has both tools, so durable-agent keeps them.',
  },
  {
    cases: 'Read missing file, Read directory',
    tools: ['Read'],
    reason:
      "The seed checks that the path exists in validateInput, before the hooks (a failed validation runs no hook); the current reference checks it in call(), after PreToolUse, and then sends PostToolUseFailure. durable-agent keeps the seed's order.",
  },
  {
    cases: 'Worktree*',
    tools: ['EnterWorktree'],
    aspect: 'content',
    reason:
      "A new worktree's result says how to leave it (ExitWorktree) but not the reference's \"or exit the session to be prompted\": an unattended session ends without a prompt and keeps its worktree. Location, branch, the other results and the files agree (refusals are is_error on both, in durable-agent's own error format).",
  },
  {
    cases: 'hook: PreToolUse continue false',
    reason:
      "A PreToolUse hook's continue: false stops the session before the call runs (the call is denied with the stop reason); the reference (2.1.197, 2.1.328) runs the call, then stops. durable-agent keeps the safer reading (docs/hooks.md).",
  },
  {
    cases: 'output text: a refusal, output json: a refusal',
    aspect: 'output',
    reason:
      'On `stop_reason: "refusal"` the reference 2.1.328 sends the refused turn again (3 safety stops in one `-p` run, the last on another model), then prints `API Error: <model>\'s safeguards flagged this message. …` with the category\'s help link, `Details: [<category>]`, the request and message ids, `terminal_reason: "api_error"`. durable-agent never sends a refused turn again (the API\'s guidance: reset that turn\'s context) and has no fallback model: the session ends `refused` at once (one turn, `terminal_reason: "refusal"`) with its own words, the API\'s category and explanation. Exit code, `subtype`, `is_error` and `stop_reason` agree.',
  },
  {
    cases: 'output text: the context window exceeded, output json: the context window exceeded',
    aspect: 'output',
    reason:
      'On `stop_reason: "model_context_window_exceeded"` the reference 2.1.328 continues the cut answer as after `max_tokens` (4 more turns, each sending the full window again) and then prints `API Error: The model has reached its context window limit.` with `subtype: "success"`, `terminal_reason: "api_error"`. durable-agent stops at once: a full window cannot take the continuation, and an unattended job should not pay for four more full-window requests to learn it (invariant 17); the session ends `failed` (`error_during_execution`, its own words naming the limit), exit 1 as the reference. A tool_use cut open by the stop never runs on either.',
  },
  {
    cases: 'thinking request:*',
    aspect: 'output',
    matches: /thinking display ref="omitted" ours=absent/,
    reason:
      'The reference asks for `thinking.display: "omitted"`; durable-agent leaves `display` at the API\'s default because `transcript`, the audit and stream-json show each thinking block\'s text (issue 31). Type, budget and the blocks sent back agree.',
  },
  {
    cases:
      'thinking request: claude-sonnet-4-5 (alwaysThinkingEnabled false*, thinking request: claude-opus-4-6 (MAX_THINKING_TOKENS=0*',
    aspect: 'output',
    matches: /^request 1 thinking (temperature ref=1 ours=absent|ref=\{"type":"disabled"\} ours=none)$/,
    reason:
      'With thinking off the reference sends `thinking: {type: "disabled"}` and `temperature: 1`; durable-agent sends neither, which the API reads the same way (no thinking, temperature 1.0), and a session\'s own `model.temperature` when it sets one.',
  },
  {
    cases: 'thinking request: claude-opus-4-1*, thinking request: claude-opus-4-20250514*',
    aspect: 'output',
    matches: /^request 1 thinking ref=\{"type":"adaptive"\} ours=\{"budget_tokens":"max_tokens-1","type":"enabled"\}$/,
    reason:
      "The reference 2.1.328 asks Claude Opus 4 and 4.1 for adaptive thinking (Sonnet 4, Sonnet, Opus and Haiku 4.5 get a budget, as here); the API's extended-thinking page documents `budget_tokens` for these models and adaptive thinking from 4.6, and durable-agent sends what the API documents (src/core/thinking.ts).",
  },
  {
    cases: 'thinking request: claude-fable-5-1*',
    aspect: 'output',
    matches: /block_binding|bindingBeta|total_cost_usd is null/,
    reason:
      'For Claude Fable 5.1 durable-agent adds `block_binding: {prefix_mismatch_behavior: "drop_block"}` with its beta (`thinking-binding-controls-2026-08-01`): its compaction and cleared tool results change the prefix of replayed thinking, and the API then drops such a block instead of refusing the request (src/core/thinking.ts); the reference sends plain adaptive. Fable\'s price is not in src/core/prices.ts: `total_cost_usd` is null, never 0.',
  },
];

// Where durable-agent protects more than the reference (issue 18), file by file.
DELIBERATE.push(
  {
    cases:
      'protected: Write .durable-agent/settings.json (acceptEdits), protected: sandboxed Bash overwrites .durable-agent/settings.json, protected: sandboxed Bash creates .durable-agent/settings.json',
    files: ['.durable-agent/settings.json'],
    reason:
      "`.durable-agent/` is durable-agent's own control directory (its settings choose the mode, the rules, the sandbox, the working directories); the reference does not know it and writes it. durable-agent protects it like `.claude/`: Write asks (denied unattended), the sandbox refuses it.",
  },
  {
    cases: 'protected: sandboxed Bash overwrites .envrc, protected: sandboxed Bash creates .envrc',
    files: ['.envrc'],
    reason:
      "The reference's file tools treat `.envrc` as sensitive, but its sandbox leaves it writable (direnv runs it outside any sandbox on the next `cd`). durable-agent's sandbox protects the same list as its file tools.",
  },
  {
    cases:
      'protected: sandboxed Bash overwrites sub/.claude/settings.json, protected: sandboxed Bash creates sub/.claude/settings.json, protected: sandboxed Bash overwrites .Claude/settings.json, protected: sandboxed Bash creates .Claude/settings.json, protected: sandboxed Bash after cd into a subdirectory',
    tools: ['Bash'],
    files: ['sub/.claude/settings.json', '.Claude/settings.json'],
    reason:
      "The reference's file tools refuse a `.claude` directory at any depth and in any case (`sub/.claude/`, `.Claude/`), but its sandbox protects only the `.claude` files of the directory it started in (after `cd sub`, `sub/.claude/settings.json` is writable). durable-agent's sandbox uses the file tools' list: every depth, names compared case-insensitively (on a case-insensitive filesystem `.Claude` is `.claude`); what a call creates there is undone after the call.",
  },
  {
    cases:
      'protected: sandboxed Bash creates .git/config, protected: sandboxed Bash creates .git/hooks/pre-commit, protected: sandboxed Bash creates sub/.git/config',
    files: ['.git/config', '.git/hooks/pre-commit', 'sub/.git/config'],
    reason:
      "Where no `.git` existed, the reference's sandbox lets `mkdir -p .git && echo … > .git/config` (or a hook) through; durable-agent undoes a git config or hook that a call creates (a repository made this way would run it on the next git command) and says so in the result.",
  },
  {
    cases: 'protected: sandboxed Bash in an additional directory',
    tools: ['Bash'],
    files: ['$OTHER/.git/config', '$OTHER/.bashrc', '$OTHER/.vscode/tasks.json'],
    reason:
      "In an `--add-dir` directory the reference's sandbox protects only its own files (`.mcp.json`, `.claude/`); `.git/config`, `.bashrc` and `.vscode/` there stay writable. durable-agent protects the whole list at every working directory (issue 18).",
  },
);

// Scheduling (issue 19): what durable-agent's session does differently, and its own words after the shared first sentence.
DELIBERATE.push(
  {
    cases: 'Schedule wakeup clamped - missing reason - stop',
    tools: ['ScheduleWakeup'],
    aspect: 'PreToolUse ran',
    reason:
      "A call without `delaySeconds`/`reason` (and no `stop`) is refused in validateInput, before the hooks, with the same text; the reference checks it in call(), after PreToolUse, and then sends PostToolUseFailure. durable-agent keeps the seed's order for malformed input.",
  },
  {
    cases: 'Schedule wakeup clamped - missing reason - stop',
    tools: ['ScheduleWakeup'],
    aspect: 'PostToolUseFailure ran',
    reason: 'The same refusal: no PreToolUse, so no PostToolUseFailure either.',
  },
  {
    cases: 'Schedule wakeup clamped - missing reason - stop',
    tools: ['ScheduleWakeup'],
    aspect: 'content',
    reason:
      'The first sentence agrees ("Next wakeup scheduled for <HH:MM:SS> (in <n>s) (clamped to 60s …)", "Loop stopped — cancelled <n> pending wakeup(s)"); the guidance after it is durable-agent\'s own (the reference\'s speaks of its /loop and Monitor; no prompt text is copied). The wake-up fires at the exact second, the reference\'s on a whole minute (normalised away: clock and seconds).',
  },
  {
    cases: 'Schedule wakeup clamped - missing reason - stop',
    tools: ['ScheduleWakeup'],
    aspect: 'tool_response keys',
    reason:
      "A wake-up's tool_response also has `clock` (the time in the session's zone, fixed at its start, which the text shows); a stop's has only `stopped` and `cancelledWakeups` (the reference's carries the scheduling fields too).",
  },
  {
    cases: 'Schedule wakeup clamped - missing reason - stop',
    tools: ['CronList'],
    aspect: 'content',
    reason:
      "The pending wake-up is not a cron job in durable-agent (it is the session's one durable timer): CronList shows it as `wakeup — wake-up (<reason>) (one-shot), next run …` instead of the reference's one-shot daily cron line with a job id.",
  },
  {
    cases: 'Cron create list delete',
    tools: ['CronCreate', 'CronList'],
    aspect: 'content',
    reason:
      'Every job is durable (the session keeps it across worker and server restarts): "Durable: the session keeps it across restarts." instead of "Session-only (not written to disk, dies when Claude exits).", no `[session-only]` tag in CronList, and the next run names the session\'s zone (`Dec 2 8:00am (UTC)`). A one-shot fires at its minute; the reference\'s fires early (jitter). Ids and dates normalised.',
  },
  {
    cases: 'Cron create list delete',
    tools: ['CronCreate'],
    aspect: 'tool_response keys',
    reason: "CronCreate's tool_response also has `nextRun` (the next firing in words, in the session's zone).",
  },
  {
    cases: 'Cron bad expressions',
    tools: ['CronCreate'],
    aspect: 'content',
    reason:
      "A field out of range: the reference's text, then in parentheses which field is wrong (`minute field '61' is out of range 0-59`), so the model can fix it. A wrong number of fields and an expression with no date in a year: the same text.",
  },
);

// Issue 20's tools (./casesIssue20.ts).
DELIBERATE.push({
  cases: 'WebFetch a loopback host no rule names (bypassPermissions)',
  tools: ['WebFetch'],
  reason:
    "durable-agent's WebFetch never connects to a loopback, private or link-local address unless an allow rule names the host (issue 20: a model must not reach the worker's own services or the cloud metadata address by URL); bypassPermissions does not lift that. The reference fetches any host in bypassPermissions. With `WebFetch(domain:127.0.0.1)` both fetch (case 'WebFetch a loopback host named by a rule').",
});

DELIBERATE.push({
  cases: 'NotebookEdit a file that is not a notebook',
  tools: ['NotebookEdit'],
  aspect: 'content',
  reason:
    'The refusal is the reference\'s text in its `<tool_use_error>` tags but for the tool it points to: the reference\'s says "use the FileEdit tool", a name its model is never offered; durable-agent\'s says "use the Edit tool".',
});

/** The reason a difference of a case is deliberate, or undefined. */
DELIBERATE.push(
  {
    cases: 'Agent background TaskStop',
    aspect: 'notification',
    reason:
      'The agent\'s "was stopped" notification agrees (task id, tool use id, status killed, summary `Agent "<description>" was stopped by Claude`; no result, no usage) but for three things: no <output-file> (the child is a session of its own, as for a finished agent), a <note> in durable-agent\'s own words, and its role: the stop\'s turn still runs when it comes, and the reference adds it to that turn\'s next request as a role "system" message, durable-agent as a user message (<system-reminder>, preamble, block; in process with that next request, on the session workflow in a new turn).',
  },
  {
    cases: 'Agent background TaskStop',
    aspect: 'transcript',
    reason:
      "The same notification in the transcript: durable-agent's is a user line before the model's last answer; the reference's system message is no user line there.",
  },
  {
    cases: 'Background Bash*, Monitor*, Agent Explore cannot write, Agent background*',
    aspect: 'session hook input',
    reason:
      "A task notification fires UserPromptSubmit on both sides; the reference's prompt is the bare <task-notification> block, durable-agent's is the whole message the model gets (<system-reminder>, our preamble, the block): a hook sees exactly what enters the conversation.",
  },
  {
    cases: 'Background Bash*, Monitor*, Agent Explore cannot write, Agent background*',
    aspect: 'transcript',
    reason:
      "The reference marks a notification's transcript line with its own bookkeeping keys (origin, queueSkipAttachments); durable-agent's line is a plain user message.",
  },
  {
    cases: 'Monitor*',
    tools: ['Monitor'],
    aspect: 'guidance',
    reason:
      "The Monitor result's first sentence agrees (task id, expiry, the one notice at expiry; compared as `content`); the guidance after it (notifications, no polling, an event is not the user's reply) says the same in durable-agent's own words (no prompt text is copied).",
  },
  {
    cases: 'Background Bash failing command',
    aspect: 'notification',
    reason:
      "A task that ends while a turn still runs (this command exits at once): the reference adds its notification to that turn's next model request as a role \"system\" message; durable-agent queues it as a user message (<system-reminder>, preamble, block) for a new turn after the turn ends, since a turn's input is fixed when it starts (a child workflow's history). The block itself is the same.",
  },
  {
    cases: 'Background Bash failing command',
    aspect: 'session hook ran',
    reason:
      'The same difference seen by hooks: the notification is a new turn in durable-agent (Stop fires again after it), part of the running turn in the reference.',
  },
);

// Input errors (issue 20): the tags and texts agree; Read's missing file and directory keep the seed's order.
DELIBERATE.push(
  {
    cases: 'Input errors: validation; deny; call errors; unknown tool',
    tools: ['Read'],
    aspect: 'PreToolUse ran',
    reason:
      "As in 'Read missing file': durable-agent refuses a missing file or a directory in validateInput, before the hooks; the reference in call(), after PreToolUse. Both send the refusal without `<tool_use_error>` tags (the reference's is a call() error; durable-agent's Read marks these refusals untagged).",
  },
  {
    cases: 'Input errors: validation; deny; call errors; unknown tool',
    tools: ['Read'],
    aspect: 'PostToolUseFailure ran',
    reason: 'The same refusal: no PreToolUse, so no PostToolUseFailure either.',
  },
);

export function deliberateReason(
  caseName: string,
  diff: { tool?: string; aspect: string; path?: string },
): string | undefined {
  // A side that did not run as it should (a session that failed, a reference that crashed, no
  // sandbox in this process) is never a deliberate difference, whatever the case's rows cover.
  if (diff.aspect === 'run') return undefined;
  for (const d of DELIBERATE) {
    const caseMatches = d.cases
      .split(',')
      .map((p) => p.trim())
      .some((pat) => (pat.endsWith('*') ? caseName.startsWith(pat.slice(0, -1)) : caseName === pat));
    if (!caseMatches) continue;
    // A file difference has no tool: a row that names files covers them whatever its tools.
    const fileRow = d.files !== undefined && diff.aspect === 'file';
    if (d.tools && !fileRow && (!diff.tool || !d.tools.includes(diff.tool))) continue;
    if (d.aspect && d.aspect !== diff.aspect) continue;
    if (d.matches && !d.matches.test(diff.path ?? '')) continue;
    if (
      d.files &&
      diff.aspect === 'file' &&
      !d.files.some((f) => diff.path === f || (diff.path?.endsWith('/') === true && f.startsWith(diff.path)))
    )
      continue;
    return d.reason;
  }
  return undefined;
}
