// Command-line flags: declared once with their help text; parsed with multi-value flags (`--plog a b`), `--help`, and a suggestion for a mistyped flag.
import { parseArgs } from 'node:util';
import { UsageError } from '../common/errors.js';
import { displayWidth, wrap } from '../common/text-layout.js';
import type { InputCommand } from './input-commands.js';

export interface OptionSpec {
  /** Takes a value; with `multiple`, every following bare word until the next flag belongs to it. */
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** The value's placeholder in help: `FILE`, `PATH`. */
  value?: string;
  /** One short line for `--help`. */
  description: string;
  /** A string flag given without a value takes this one (`--comment` = `--comment on-change`). */
  implicit?: string;
}

/**
 * A command: its name, one-line summary, usage line and flags. Declared with `satisfies CommandSpec`, its own flags
 * keep their names and kinds, and parseCommandArgs gives them back typed (`flags.maxIncrease`).
 */
export type CommandSpec<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> = CommandBase<O> &
  (
    | { inputs?: undefined }
    | {
        /** Only the commands of INPUT_COMMANDS read inputs: the entry starts their parse worker early. */
        name: InputCommand;
        /** The evidence flags, one per source (named by the sources, read by the pipeline by source), listed first. */
        inputs: Record<string, OptionSpec>;
      }
  );

interface CommandBase<O extends Record<string, OptionSpec>> {
  name: string;
  summary: string;
  /** What follows `ascend-memory-gate <name>` in the usage line: the required flags, then `[options]`. */
  usage: string;
  options: O;
}

/** A flag's property name: `max-increase` → `maxIncrease`. */
type PropertyName<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<PropertyName<T>>}` : S;
type FlagValue<O extends OptionSpec> = O['type'] extends 'boolean'
  ? boolean
  : O extends { multiple: true }
    ? string[]
    : string | undefined;
/** A command's own flags, typed: a misspelt flag is a compile error. */
type Flags<O extends Record<string, OptionSpec>> = {
  readonly [K in keyof O & string as PropertyName<K>]: FlagValue<O[K]>;
};

/** What a command line gave: its own flags typed, and every flag by name (the evidence flags, read by source). */
export interface ParsedArgs<O extends Record<string, OptionSpec>> {
  flags: Flags<O>;
  all: ParsedOptions;
}

export type ParsedOptions = Record<string, string | string[] | boolean | undefined>;

/** Asked for `<command> --help`: the caller prints the help and exits 0. */
export class HelpRequested extends Error {
  constructor(readonly command: CommandSpec) {
    super(`${command.name} --help`);
  }
}

/** A usage error with the command's usage line, printed under the message. */
export class CommandUsageError extends UsageError {
  constructor(
    message: string,
    readonly command: CommandSpec,
  ) {
    super(message);
  }
}

/** Every flag of a command, in its help's order: the evidence flags, then its own. */
function allOptions(spec: CommandSpec): Record<string, OptionSpec> {
  return spec.inputs === undefined ? spec.options : { ...spec.inputs, ...spec.options };
}

export function parseCommandArgs<O extends Record<string, OptionSpec>>(
  args: string[],
  spec: CommandSpec<O>,
): ParsedArgs<O> {
  const all = parseAll(args, spec);
  const flags = Object.fromEntries(
    Object.entries(spec.options).map(([name, opt]) => {
      const value = all[name];
      const typed =
        opt.type === 'boolean' ? value === true : opt.multiple ? (Array.isArray(value) ? value : []) : value;
      return [name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()), typed];
    }),
  ) as Flags<O>;
  return { flags, all };
}

function parseAll(args: string[], command: CommandSpec): ParsedOptions {
  const spec = { ...command, options: allOptions(command) };
  const fail = (message: string): never => {
    throw new CommandUsageError(`${spec.name}: ${message}`, command);
  };
  if (args.includes('--help') || args.includes('-h')) throw new HelpRequested(command);
  // A flag with an implicit value takes the next word only when it is not a flag (`--comment --plog x`).
  const expanded = args.map((a, i) => {
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    const opt = name !== undefined && Object.hasOwn(spec.options, name) ? spec.options[name] : undefined;
    const next = args[i + 1];
    return opt?.implicit !== undefined && (next === undefined || next.startsWith('-')) ? `${a}=${opt.implicit}` : a;
  });
  const { tokens } = parseArgs({
    args: expanded,
    options: Object.fromEntries(
      Object.entries(spec.options).map(([k, v]) => [k, { type: v.type, multiple: v.multiple ?? false }]),
    ),
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const out: ParsedOptions = {};
  let last: string | undefined;
  for (const token of tokens) {
    if (token.kind === 'option') {
      const opt = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
      if (opt === undefined) {
        const guess = closest(token.name, Object.keys(spec.options));
        fail(`unknown option ${token.rawName}${guess === null ? '' : `: did you mean --${guess}?`}`);
        return out;
      }
      if (token.rawName !== `--${token.name}`) fail(`unknown option ${token.rawName}: write --${token.name}`);
      if (opt.type === 'boolean') {
        if (token.value !== undefined) fail(`--${token.name} takes no value`);
        out[token.name] = true;
        last = undefined;
      } else if (opt.multiple) {
        const list = (out[token.name] as string[] | undefined) ?? [];
        if (token.value !== undefined) list.push(token.value);
        out[token.name] = list;
        last = token.name;
      } else {
        if (token.value === undefined && opt.implicit === undefined)
          fail(`--${token.name} needs a value (${opt.value ?? 'VALUE'})`);
        if (out[token.name] !== undefined) fail(`--${token.name} given twice`);
        out[token.name] = token.value ?? opt.implicit;
        last = undefined;
      }
    } else if (token.kind === 'positional') {
      if (last === undefined) fail(`unexpected argument '${token.value}'`);
      else (out[last] as string[]).push(token.value);
    } else {
      last = undefined;
    }
  }
  for (const [name, opt] of Object.entries(spec.options)) {
    if (opt.multiple && Array.isArray(out[name]) && (out[name] as string[]).length === 0)
      fail(`--${name} needs at least one ${opt.value ?? 'value'}`);
  }
  return out;
}

/** Help is written for 80 columns, or a narrower terminal: no line is wider. */
export const HELP_WIDTH = 80;

/** `--help` of a command: usage, summary, one flag per entry (a long description wraps under itself). */
export function commandHelp(program: string, spec: CommandSpec, width = HELP_WIDTH): string {
  const flags: [string, string][] = Object.entries(allOptions(spec)).map(([name, opt]) => {
    const value =
      opt.type === 'string'
        ? opt.implicit !== undefined
          ? ` [${opt.value ?? 'VALUE'}]`
          : ` ${opt.value ?? 'VALUE'}${opt.multiple ? '...' : ''}`
        : '';
    return [`--${name}${value}`, opt.description];
  });
  flags.push(['-h, --help', 'show this help']);
  const lines = [
    ...wrapHelp(`Usage: ${program} ${spec.name} ${spec.usage}`, '    ', width),
    '',
    ...wrapHelp(spec.summary, '', width),
    '',
    'Options:',
    ...helpLines(flags, width),
  ];
  return `${lines.join('\n')}\n`;
}

/** Two columns, flag and description, within HELP_WIDTH; a long description continues under its column. */
export function helpLines(rows: readonly (readonly [string, string])[], width = HELP_WIDTH): string[] {
  const column = Math.max(...rows.map(([f]) => f.length)) + 4;
  // A word the description column cannot hold (a long glob) would stick out of the width: take the narrow layout then.
  const longestWord = Math.max(0, ...rows.flatMap(([, d]) => d.split(' ').map((w) => displayWidth(w))));
  // Too narrow for two columns: each description on its own lines under its flag.
  if (width - column < Math.max(24, longestWord))
    return rows.flatMap(([flag, description]) => [`  ${flag}`, ...wrapHelp(`      ${description}`, '      ', width)]);
  return rows.flatMap(([flag, description]) =>
    wrapHelp(`  ${flag.padEnd(column - 2)}${description}`, ' '.repeat(column), width),
  );
}

/** A help line wrapped to the width by the reports' rule (text-layout's wrap); an empty line stays one empty line. */
export function wrapHelp(line: string, indent = '    ', width = HELP_WIDTH): string[] {
  return line === '' ? [''] : wrap(line, width, indent);
}

/** The closest name by edit distance (at most 2 edits, or a prefix), for "did you mean --plog?". */
export function closest(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = candidate.startsWith(name) && name.length >= 2 ? 1 : editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}

/** Damerau–Levenshtein distance (optimal string alignment): a swapped pair (`plgo`) is one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** A source's evidence paths (its flag, e.g. --plog), none when not given. */
export function stringList(opts: ParsedOptions, name: string): string[] {
  const v = opts[name];
  return Array.isArray(v) ? v : [];
}
