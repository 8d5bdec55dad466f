// Cases of `npm run test:reference` for issue 20's tools (their data; the harness is ./run.ts):
// NotebookEdit, WebFetch against the harness's local HTTPS site (`$WEB`), WebSearch through the
// fake API's server tool, and ToolSearch with the reference deferring as it does by default.
import type { RefCase } from './cases';

const nb = (minor: number, cells: Array<Record<string, unknown>>): string =>
  JSON.stringify(
    {
      cells,
      metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
      nbformat: 4,
      nbformat_minor: minor,
    },
    null,
    1,
  ) + '\n';
const code = (source: string, id?: string): Record<string, unknown> => ({
  cell_type: 'code',
  execution_count: null,
  ...(id ? { id } : {}),
  metadata: {},
  outputs: [],
  source: [source],
});
const markdown = (source: string, id?: string): Record<string, unknown> => ({
  cell_type: 'markdown',
  ...(id ? { id } : {}),
  metadata: {},
  source: [source],
});

/** nbformat 4.5: cells have ids. */
const WITH_IDS = nb(5, [code('print(1)', 'c1'), markdown('# Title', 'm1'), code('x = 2', 'c2')]);
/** nbformat 4.4: no cell ids (a new cell gets none either: the files compare whole). */
const WITHOUT_IDS = nb(4, [code('print(1)'), markdown('# Title')]);

const read = (id: string, file: string) => ({ id, name: 'Read', input: { file_path: `$DIR/${file}` } });
const fetch = (id: string, path: string) => ({
  id,
  name: 'WebFetch',
  input: { url: `$WEB${path}`, prompt: 'What is the answer?' },
});

export const ISSUE20_CASES: RefCase[] = [
  {
    name: 'NotebookEdit replace and delete after Read',
    files: { 'nb.ipynb': WITH_IDS },
    turns: [
      [read('toolu_read', 'nb.ipynb')],
      [
        {
          id: 'toolu_nb_replace',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'c1', new_source: 'print(2)' },
        },
      ],
      [
        {
          id: 'toolu_nb_delete',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'm1', new_source: '', edit_mode: 'delete' },
        },
      ],
    ],
  },
  {
    name: 'NotebookEdit insert (no cell ids) and a markdown replace',
    files: { 'nb.ipynb': WITHOUT_IDS },
    turns: [
      [read('toolu_read', 'nb.ipynb')],
      [
        {
          id: 'toolu_nb_insert',
          name: 'NotebookEdit',
          input: {
            notebook_path: '$DIR/nb.ipynb',
            cell_id: 'cell-0',
            new_source: 'y = 3',
            cell_type: 'code',
            edit_mode: 'insert',
          },
        },
      ],
      [
        {
          id: 'toolu_nb_md',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'cell-2', new_source: '## Sub', cell_type: 'markdown' },
        },
      ],
    ],
  },
  {
    name: 'NotebookEdit without a prior Read',
    files: { 'nb.ipynb': WITH_IDS },
    turns: [
      [
        {
          id: 'toolu_nb_noread',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'c1', new_source: 'print(3)' },
        },
      ],
    ],
  },
  {
    name: 'NotebookEdit a cell id that is not there',
    files: { 'nb.ipynb': WITH_IDS },
    turns: [
      [read('toolu_read', 'nb.ipynb')],
      [
        {
          id: 'toolu_nb_badid',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'nope', new_source: 'z' },
        },
      ],
    ],
  },
  {
    name: 'NotebookEdit failures: missing notebook, bad edit_mode, insert without a type, bad index',
    files: { 'nb.ipynb': WITH_IDS },
    turns: [
      [read('toolu_read', 'nb.ipynb')],
      [
        {
          id: 'toolu_nb_missing',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/missing.ipynb', cell_id: 'c1', new_source: 'z' },
        },
      ],
      [
        {
          id: 'toolu_nb_badmode',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'c1', new_source: 'z', edit_mode: 'append' },
        },
      ],
      [
        {
          id: 'toolu_nb_notype',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'c1', new_source: 'z', edit_mode: 'insert' },
        },
      ],
      [
        {
          id: 'toolu_nb_badindex',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'cell-9', new_source: 'z' },
        },
      ],
    ],
  },
  {
    name: 'NotebookEdit a file that is not a notebook',
    files: { 'notes.txt': 'plain text\n' },
    turns: [
      [read('toolu_read_txt', 'notes.txt')],
      [
        {
          id: 'toolu_nb_txt',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/notes.txt', cell_id: 'c1', new_source: 'z' },
        },
      ],
    ],
  },
  {
    name: 'WebFetch allowed by a domain rule (dontAsk): page, redirects, 404',
    web: true,
    permissionMode: 'dontAsk',
    settings: { permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } },
    turns: [
      [fetch('toolu_wf_page', '/page')],
      [fetch('toolu_wf_other', '/redirect-other-host')],
      [fetch('toolu_wf_same', '/redirect-same-host')],
      [fetch('toolu_wf_404', '/missing')],
    ],
  },
  {
    name: 'WebFetch a host no rule names (dontAsk) is denied',
    web: true,
    permissionMode: 'dontAsk',
    turns: [[fetch('toolu_wf_denied', '/page-denied')]],
  },
  {
    name: 'WebFetch a loopback host named by a rule (bypassPermissions)',
    web: true,
    settings: { permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } },
    turns: [[fetch('toolu_wf_named', '/page-named')]],
  },
  {
    name: 'WebFetch a loopback host no rule names (bypassPermissions)',
    web: true,
    turns: [[fetch('toolu_wf_loopback', '/page-loopback')]],
  },
  {
    name: 'WebSearch through the server tool',
    turns: [
      [{ id: 'toolu_ws', name: 'WebSearch', input: { query: 'durable execution' } }],
      [
        {
          id: 'toolu_ws_domains',
          name: 'WebSearch',
          input: { query: 'durable execution', allowed_domains: ['temporal.io'] },
        },
      ],
      [
        {
          id: 'toolu_ws_both',
          name: 'WebSearch',
          input: { query: 'durable execution', allowed_domains: ['temporal.io'], blocked_domains: ['example.com'] },
        },
      ],
    ],
  },
  {
    name: 'ToolSearch select and keywords, then the loaded tool',
    toolSearch: true,
    files: { 'nb.ipynb': WITH_IDS },
    turns: [
      [{ id: 'toolu_ts_select', name: 'ToolSearch', input: { query: 'select:CronList' } }],
      [{ id: 'toolu_cronlist', name: 'CronList', input: {} }],
      [{ id: 'toolu_ts_keywords', name: 'ToolSearch', input: { query: 'jupyter notebook cell', max_results: 3 } }],
      [read('toolu_read', 'nb.ipynb')],
      [
        {
          id: 'toolu_nb_loaded',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'c1', new_source: 'print(9)' },
        },
      ],
    ],
  },
  {
    name: 'ToolSearch a deferred tool called before it was loaded',
    toolSearch: true,
    files: { 'nb.ipynb': WITH_IDS },
    turns: [
      [{ id: 'toolu_cron_unloaded', name: 'CronList', input: {} }],
      [read('toolu_read', 'nb.ipynb')],
      [
        {
          id: 'toolu_nb_unloaded',
          name: 'NotebookEdit',
          input: { notebook_path: '$DIR/nb.ipynb', cell_id: 'c1', new_source: 'print(7)' },
        },
      ],
      [{ id: 'toolu_nb_unloaded_bad', name: 'NotebookEdit', input: { notebook_path: '$DIR/nb.ipynb', cell: 1 } }],
    ],
  },
  {
    name: 'ToolSearch malformed calls of a deferred tool, unloaded and loaded',
    toolSearch: true,
    turns: [
      [{ id: 'toolu_wf_bad_unloaded', name: 'WebFetch', input: { url: 5, prompt: 'x' } }],
      [{ id: 'toolu_ts_select_wf', name: 'ToolSearch', input: { query: 'select:WebFetch' } }],
      [{ id: 'toolu_wf_bad_loaded', name: 'WebFetch', input: { url: 5, prompt: 'x' } }],
    ],
  },
  {
    // Input errors (issue 20): schema errors (a missing key, a wrong type, unknown keys, several
    // problems at once, a format zod names only in JSON), validateInput errors and an unknown tool
    // come in <tool_use_error> tags; a permission deny and errors of call() do not.
    name: 'Input errors: schema errors of several tools',
    files: { 'a.txt': 'alpha\n' },
    turns: [
      [{ id: 'toolu_ie_read_missing', name: 'Read', input: {} }],
      [{ id: 'toolu_ie_read_type', name: 'Read', input: { file_path: 5 } }],
      [{ id: 'toolu_ie_read_extra', name: 'Read', input: { file_path: '$DIR/a.txt', bogus: 1 } }],
      [{ id: 'toolu_ie_edit_many', name: 'Edit', input: { file_path: 3, old_string: 'x', zap: true } }],
      [{ id: 'toolu_ie_bash_many', name: 'Bash', input: { command: 'echo hi', timeout: 'slow', extra: true } }],
      [{ id: 'toolu_ie_write_two', name: 'Write', input: { content: 7 } }],
      [
        {
          id: 'toolu_ie_wf_keys',
          name: 'WebFetch',
          input: { url: 'https://example.com', prompt: 'x', bogus: 'y', max: 1 },
        },
      ],
      [{ id: 'toolu_ie_wf_url', name: 'WebFetch', input: { url: 'not a url', prompt: 'x' } }],
    ],
  },
  {
    name: 'Input errors: validation; deny; call errors; unknown tool',
    files: { 'a.txt': 'alpha\n' },
    settings: { permissions: { deny: ['Bash(rm:*)'] } },
    turns: [
      [
        {
          id: 'toolu_ie_edit_absent',
          name: 'Edit',
          input: { file_path: '$DIR/none.txt', old_string: 'a', new_string: 'b' },
        },
        { id: 'toolu_ie_read_absent', name: 'Read', input: { file_path: '$DIR/none.txt' } },
        { id: 'toolu_ie_read_dir', name: 'Read', input: { file_path: '$DIR' } },
        { id: 'toolu_ie_stop_unknown', name: 'TaskStop', input: { task_id: 'bnosuchid' } },
        { id: 'toolu_ie_bash_denied', name: 'Bash', input: { command: 'rm -f a.txt' } },
        { id: 'toolu_ie_unknown_tool', name: 'NoSuchTool', input: {} },
      ],
      [{ id: 'toolu_ie_read_a', name: 'Read', input: { file_path: '$DIR/a.txt' } }],
      [
        {
          id: 'toolu_ie_edit_nomatch',
          name: 'Edit',
          input: { file_path: '$DIR/a.txt', old_string: 'zzz', new_string: 'b' },
        },
      ],
    ],
  },
];
