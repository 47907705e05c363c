#!/usr/bin/env node
// The bench corpus on the command line: the generator is test/generators/corpus.ts (TypeScript shared with the tests).
//
//   node bench/generate.mjs --out DIR [--plog-bytes 1GiB] [--ranks 8] [--csv-rows 1000000] [--devices 8] [--seed 42]
//                           [--rotate-bytes 20MiB] [--no-legacy-csv] [--record-share 0.08] [--quoted-share 0.07]
//
// --record-share F: a record-dense plog (a log-heavy, failure-heavy run): about F of all lines are records, dumped
//   throughout each process (glued and wrapped ones included), with allocation failures in every shape of FORMATS.md.
// --quoted-share F: about F of the CSV rows name a kernel that needs RFC 4180 quoting (commas, quotes).
// What DIR then holds is listed at the top of test/generators/corpus.ts.
import { register } from 'node:module';
import { relative } from 'node:path';

register('../test/helpers/ts-hooks.mjs', import.meta.url);
const { generate } = await import('../test/generators/corpus.ts');

const MiB = 1024 * 1024;
const USAGE =
  'usage: node bench/generate.mjs --out DIR [--plog-bytes 1GiB] [--ranks 8] [--csv-rows 1000000] [--devices 8] [--seed 42] [--rotate-bytes 20MiB] [--no-legacy-csv] [--record-share 0.08] [--quoted-share 0.07]';
const NAMES = {
  '--out': 'out',
  '--plog-bytes': 'plogBytes',
  '--ranks': 'ranks',
  '--csv-rows': 'csvRows',
  '--devices': 'devices',
  '--seed': 'seed',
  '--rotate-bytes': 'rotateBytes',
  '--record-share': 'recordShare',
  '--quoted-share': 'quotedShare',
};

/** The generator's options from the flags; null for --help. */
function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag === '--no-legacy-csv') {
      opts.legacyCsv = false;
      continue;
    }
    if (flag === '--help' || flag === '-h') return null;
    const name = NAMES[flag];
    if (!name) throw new Error(`unknown option ${flag}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    opts[name] = value;
  }
  return opts;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`generate: ${e.message}\n${USAGE}`);
    process.exit(2);
  }
  if (opts === null || !opts.out) {
    console.error(USAGE);
    process.exit(opts === null ? 0 : 2);
  }
  const t0 = process.hrtime.bigint();
  const res = await generate(opts);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const keys = Object.keys(res.expected.plog.sections.modules ?? {}).length;
  console.log(
    `wrote ${relative(process.cwd(), res.out) || '.'}: ${res.plog.files} plog files, ${(res.plog.bytes / MiB).toFixed(1)} MiB, ` +
      `${res.plog.records} records (${keys} keys, ${res.plog.glued} glued lines, ${res.plog.wrapped} wrapped, ` +
      `${res.plog.truncated} truncated, ${res.plog.allocFailures} alloc failures); ` +
      `${res.csv.rows} CSV rows, ${(res.csv.bytes / MiB).toFixed(1)} MiB; in ${secs.toFixed(1)} s`,
  );
}

await main().catch((e) => {
  console.error(e);
  process.exit(1);
});
