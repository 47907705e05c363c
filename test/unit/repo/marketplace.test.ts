/**
 * The GitHub Marketplace's rules for action.yml, which otherwise show only on the publishing form: a name, a
 * description under 125 characters that names every kind of evidence the Action reads, a branding icon and colour from
 * the lists GitHub accepts, and every input in the README's inputs table (the Marketplace page is the README), which
 * `npm run docs` (scripts/write-docs.mjs) writes from action.yml.
 *
 * The accepted icons and colours are read from GitHub's own action schema (@actions/workflow-parser's
 * action-v1.0.min.json, `branding-icon` and `branding-color`), not copied here. GitHub's publishing page also says a
 * Marketplace repository "must not contain any workflow files"; the form does not enforce it (actions/checkout and
 * actions/setup-node are listed with their .github/workflows), and this repository keeps its CI and release workflows.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { SOURCES } from '../../../src/parsers/evidence-sources.js';
import { actionTables, withActionTables } from '../../../scripts/write-docs.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');

interface ActionYml {
  name?: unknown;
  description?: unknown;
  branding?: { icon?: unknown; color?: unknown };
  inputs: Record<string, unknown>;
}

interface SchemaDefinition {
  'allowed-values'?: string[];
}

const action = parseYaml(read('action.yml')) as ActionYml;
// The package's exports name no path to its schema file, so it is read from the installed package.
const schema = JSON.parse(read('node_modules/@actions/workflow-parser/dist/action-v1.0.min.json')) as {
  definitions: Record<string, SchemaDefinition>;
};
const allowed = (definition: string): string[] => schema.definitions[definition]?.['allowed-values'] ?? [];

/** How the description names each evidence source of src/parsers/evidence-sources.ts. A new source needs a line here. */
const NAMED_IN_DESCRIPTION: Record<string, RegExp> = {
  plog: /\bplog\b/,
  compare: /\bmemory_compare\b/,
  profiler: /\bprofiler\b/,
  snapshot: /\bnode snapshots\b/,
  dump: /\bmsMemScope dumps\b/,
  dumpBase: /\bmsMemScope dumps\b/,
  memorySnapshot: /\ballocator and node snapshots\b/,
  jobLog: /\bjob logs\b/,
};

describe('action.yml meets the Marketplace rules', () => {
  it('has a name', () => {
    expect(typeof action.name).toBe('string');
    expect(String(action.name).trim()).not.toBe('');
  });

  it('has a description under 125 characters (the publishing form refuses 125 or more)', () => {
    expect(typeof action.description).toBe('string');
    const description = String(action.description);
    expect(description.length, description).toBeLessThan(125);
    expect(description.trim()).not.toBe('');
  });

  it('names every kind of evidence the Action reads in its description', () => {
    const description = String(action.description);
    for (const source of SOURCES) {
      const named = NAMED_IN_DESCRIPTION[source.name];
      expect(
        named,
        `evidence source '${source.name}' is new: name it in action.yml's description and in NAMED_IN_DESCRIPTION`,
      ).toBeDefined();
      expect(description, `the description does not name ${source.label}`).toMatch(named!);
    }
  });

  it('has a branding icon and colour GitHub accepts', () => {
    const icons = allowed('branding-icon');
    const colours = allowed('branding-color');
    // the lists are read, not empty: Feather v4.28.0 less the icons GitHub omits, and eight colours
    expect(icons.length).toBeGreaterThan(200);
    expect(icons).not.toContain('coffee');
    expect(colours).toEqual(['white', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']);
    expect(icons).toContain(action.branding?.icon);
    expect(colours).toContain(action.branding?.color);
  });

  it("documents every input in the README's inputs table", () => {
    const lines = read('README.md').split('\n');
    const header = lines.findIndex((line) => /^\|\s*input\s*\|/.test(line));
    expect(header, 'README.md has no table whose first column is `input`').toBeGreaterThan(-1);
    const rows = lines.slice(header + 2);
    const table = rows.slice(
      0,
      rows.findIndex((line) => !line.startsWith('|')),
    );
    const documented = new Set(table.map((line) => /^\|\s*`([\w-]+)`/.exec(line)?.[1]));
    expect(Object.keys(action.inputs).filter((name) => !documented.has(name))).toEqual([]);
  });

  it("has the README's inputs and outputs tables as `npm run docs` writes them from action.yml", () => {
    const readme = read('README.md');
    expect(
      withActionTables(readme, read('action.yml')),
      "README.md's tables differ from action.yml: run 'npm run docs'",
    ).toBe(readme);
    const { inputs, outputs } = actionTables(read('action.yml'));
    expect(readme).toContain(inputs);
    expect(readme).toContain(outputs);
  });

  it('has descriptions that render as written in the README: every `*` (a glob) inside a code span', () => {
    const described = parseYaml(read('action.yml')) as {
      inputs: Record<string, { description: string }>;
      outputs: Record<string, { description: string }>;
    };
    const bare = [...Object.entries(described.inputs), ...Object.entries(described.outputs)].filter(([, d]) =>
      d.description.replace(/`[^`]*`/g, '').includes('*'),
    );
    expect(bare.map(([name]) => name)).toEqual([]);
  });

  it('the table writer: one row per input with its default as the runner passes it, pipes escaped', () => {
    const yml =
      "inputs:\n  a:\n    description: 'x | y\n      z'\n    default: ''\n  b:\n    description: 'b'\n    default: '8'\noutputs:\n  r:\n    description: 'the result'\n";
    expect(actionTables(yml)).toEqual({
      inputs: "| input | default | what it does |\n|---|---|---|\n| `a` | `''` | x \\| y z |\n| `b` | `8` | b |",
      outputs: '| output | what it holds |\n|---|---|\n| `r` | the result |',
    });
    expect(() => withActionTables('# no markers\n', yml)).toThrow(
      'README.md has no <!-- action-inputs:start --> … <!-- action-inputs:end --> span',
    );
  });
});
