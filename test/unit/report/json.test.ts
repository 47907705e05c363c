// The --report JSON: written for machines, and read back by the fork-safe comment job from an untrusted upload.
import { afterAll, describe, expect, it } from 'vitest';
import publishedSchema from '../../../schemas/report.schema.json' with { type: 'json' };
import { InputError, SchemaError } from '../../../src/common/errors.js';
import type { Entry, GateReport } from '../../../src/gate/types.js';
import { shortenName } from '../../../src/report/names.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseReportJson, renderJsonReport, writeJsonReport } from '../../../src/report/json.js';
import { stableStringify } from '../../../src/model/document-json.js';
import { MAX_ENTRIES, REPORT_STATUSES, reportSchema } from '../../../src/report/report-schema.js';
import { entry } from '../../helpers/entries.js';
import { GROWN_APP_PEAK, SEED_APP_DELTA, SEED_APP_PEAK } from '../../helpers/story.js';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
/** A temporary folder, removed after the tests. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'amg-report-'));
  scratch.push(dir);
  return dir;
}

const appRegressed = entry({
  key: 'DEV_MEM/dev0/APP',
  baseline: SEED_APP_PEAK,
  current: GROWN_APP_PEAK,
  delta: SEED_APP_DELTA,
  percent: 900,
  status: 'regressed',
  severity: 'fail',
  rule: 'DEV_MEM/**',
});
const newKernel = entry({
  kind: 'kernel',
  key: 'dev0/matmul_v1',
  baseline: null,
  current: 6,
  delta: null,
  percent: null,
  status: 'new',
  severity: 'warn',
});

const seedReport: GateReport = {
  result: 'fail',
  counts: {
    regressed: 1,
    'over-budget': 0,
    'over-capacity': 0,
    'alloc-failure': 0,
    oom: 0,
    'leak-suspect': 0,
    'step-leak': 0,
    'low-headroom': 0,
    fragmented: 0,
    'above-reference': 0,
    imbalance: 0,
    growing: 0,
    new: 1,
    missing: 0,
    improved: 0,
    ignored: 0,
    pass: 0,
  },
  entries: [appRegressed, newKernel],
};

/** A valid report document as plain JSON data, to be broken one field at a time. */
type LooseDocument = { [key: string]: unknown; entries: Record<string, unknown>[] };

function documentWith(change: (doc: LooseDocument) => void): string {
  const doc: LooseDocument = JSON.parse(renderJsonReport(seedReport));
  change(doc);
  return JSON.stringify(doc);
}

function schemaErrorOf(text: string): SchemaError {
  try {
    parseReportJson(text, 'report.json');
  } catch (error) {
    if (error instanceof SchemaError) return error;
    throw error;
  }
  throw new Error('the report was accepted');
}

describe('the report written in pieces', () => {
  /** A report of `n` module keys over `devices` devices (APP regressed on every device: one roll-up), plus one kernel. */
  function bigReport(n: number, devices: number): GateReport {
    const entries: Entry[] = [];
    for (let i = 0; i < n; i++) {
      const device = i % devices;
      const regressed = i % 3 === 0;
      entries.push(
        entry({
          key: `DEV_MEM/dev${device}/M${Math.floor(i / devices)}`,
          current: regressed ? 2000 : 1000,
          delta: regressed ? 1000 : 0,
          percent: regressed ? 100 : 0,
          status: regressed ? 'regressed' : 'pass',
          severity: regressed ? 'fail' : 'ok',
          ...(i % 7 === 0 ? { note: `note ${i}`, unit: 'count' as const, limit: 5 } : {}),
        }),
      );
    }
    entries.push(newKernel);
    const counts: GateReport['counts'] = { new: 1 };
    for (const e of entries.slice(0, n)) counts[e.status] = (counts[e.status] ?? 0) + 1;
    return {
      result: 'fail',
      counts,
      entries,
      environment: { changes: [{ item: 'CANN', baseline: '8.3', current: '9.0' }], splits: [], severity: 'warn' },
    };
  }

  it('is the stable JSON of its own content, byte for byte, across batches, with and without groups', () => {
    for (const report of [
      bigReport(0, 1),
      bigReport(1, 1),
      bigReport(2049, 1),
      bigReport(5000, 64),
      { ...seedReport, entries: [], counts: {}, result: 'pass' as const },
    ]) {
      const text = renderJsonReport(report, { baselineFile: 'baselines/b.json', generatedAt: '2026-12-01T00:00:00Z' });
      expect(stableStringify(JSON.parse(text))).toBe(text);
      const back = parseReportJson(text, 'report.json');
      expect(back.entries.length).toBe(report.entries.length);
      expect(back.entries.map((e) => e.key)).toEqual(report.entries.map((e) => e.key));
    }
    expect(JSON.parse(renderJsonReport(bigReport(5000, 64))).groups.length).toBeGreaterThan(0);
  });

  it('writes to a file exactly the text renderJsonReport gives, and leaves no temporary file', async () => {
    const dir = tempDir();
    const report = bigReport(9000, 128);
    await writeJsonReport(join(dir, 'report.json'), report);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe(renderJsonReport(report));
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('a report that cannot be written is named by the path asked for, not the temporary file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a-file'), '');
    const target = join(dir, 'a-file', 'report.json');
    const error = await writeJsonReport(target, seedReport).then(
      () => null,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    expect(error?.code).toBe('EEXIST');
    expect(error?.path).toBe(target);
    expect(readdirSync(dir)).toEqual(['a-file']);
  });

  it("makes the report's folder when it does not exist yet", async () => {
    const dir = tempDir();
    const target = join(dir, 'no-such-dir', 'report.json');
    await writeJsonReport(target, seedReport);
    expect(readdirSync(join(dir, 'no-such-dir'))).toEqual(['report.json']);
  });

  it('refuses to write an entry the reader would refuse: a note too long, a byte count that is not an integer', () => {
    const long = { ...seedReport, entries: [{ ...appRegressed, note: 'x'.repeat(2001) }, newKernel] };
    expect(() => renderJsonReport(long)).toThrow(
      /^report: \/entries\/0\/note: must be at most 2000 characters, got 2001$/,
    );
    const fractional = { ...seedReport, entries: [appRegressed, { ...newKernel, current: 6.5 }] };
    expect(() => renderJsonReport(fractional)).toThrow(
      /^report: \/entries\/1\/current: must be an integer number of bytes, got 6\.5$/,
    );
  });

  it('writes nothing when the report would be refused on reading', async () => {
    const dir = tempDir();
    await expect(
      writeJsonReport(join(dir, 'report.json'), { ...seedReport, counts: { regressed: 2, new: 1 } }),
    ).rejects.toThrow(/\/counts\/regressed/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('renderJsonReport', () => {
  it('writes every key with exact byte counts, sorted object keys and a count for every status', () => {
    expect(
      renderJsonReport({ ...seedReport, counts: { regressed: 1, new: 1 } }, { baselineFile: 'baselines/llama.json' }),
    ).toBe(`{
  "baselineFile": "baselines/llama.json",
  "counts": {
    "above-reference": 0,
    "alloc-failure": 0,
    "fragmented": 0,
    "growing": 0,
    "ignored": 0,
    "imbalance": 0,
    "improved": 0,
    "leak-suspect": 0,
    "low-headroom": 0,
    "missing": 0,
    "new": 1,
    "oom": 0,
    "over-budget": 0,
    "over-capacity": 0,
    "pass": 0,
    "regressed": 1,
    "step-leak": 0
  },
  "entries": [
    {
      "baseline": 2078195712,
      "current": 20781957120,
      "delta": 18703761408,
      "key": "DEV_MEM/dev0/APP",
      "kind": "module",
      "percent": 900,
      "rule": "DEV_MEM/**",
      "severity": "fail",
      "status": "regressed"
    },
    {
      "baseline": null,
      "current": 6,
      "delta": null,
      "key": "dev0/matmul_v1",
      "kind": "kernel",
      "percent": null,
      "rule": null,
      "severity": "warn",
      "status": "new"
    }
  ],
  "result": "fail"
}
`);
  });

  it('writes a key longer than the schema allows shortened in the middle with a hash, so the comment job reads it back', () => {
    const key = `dev0/${'x'.repeat(3000)}MIDDLE${'y'.repeat(3000)}`;
    const long = {
      ...seedReport,
      counts: { regressed: 1 },
      entries: [entry({ key, status: 'regressed', severity: 'fail' })],
    };
    const [written] = parseReportJson(renderJsonReport(long), 'report.json').entries;
    expect(written!.key).toHaveLength(4096);
    expect(written!.key).toBe(shortenName(key, 4096));
    expect(written!.key).toMatch(/^dev0\/x+…y+~[0-9a-f]{12}$/);
  });

  it('refuses counts that disagree with the entries', () => {
    expect(() => renderJsonReport({ ...seedReport, counts: { regressed: 2, new: 1 } })).toThrow(
      "report: /counts/regressed: is 2 but 1 entry has status 'regressed'",
    );
  });
});

describe('parseReportJson', () => {
  it('reads back exactly the report that was rendered', () => {
    expect(parseReportJson(renderJsonReport(seedReport), 'report.json')).toEqual(seedReport);
  });

  it('reads back the extras, and fills the counts of absent statuses with 0', () => {
    const text = renderJsonReport(
      { ...seedReport, counts: { regressed: 1, new: 1 } },
      { baselineFile: 'b.json', generatedAt: '2026-06-13T17:00:34.718Z' },
    );
    expect(parseReportJson(text, 'report.json')).toEqual({
      ...seedReport,
      baselineFile: 'b.json',
      generatedAt: '2026-06-13T17:00:34.718Z',
    });
  });

  it("reads back hostile names unchanged (escaping is the renderers' job, not the data's)", () => {
    const names = ['a|b|c', 'x`y', '<img src=x onerror=alert(1)>', '@org/team', 'dev0/line\nbreak', 'dev0/\u001b[2J'];
    const hostile: GateReport = {
      result: 'pass',
      counts: { pass: names.length },
      entries: names.map((key) => entry({ kind: 'kernel', key })),
    };
    expect(parseReportJson(renderJsonReport(hostile), 'r.json').entries.map((e) => e.key)).toEqual(names);
  });

  it('accepts a file saved with a UTF-8 byte order mark', () => {
    expect(parseReportJson(`\uFEFF${renderJsonReport(seedReport)}`, 'report.json')).toEqual(seedReport);
  });

  it('names the file when the upload is not JSON', () => {
    expect(() => parseReportJson('{"result": "pass",', 'memory-report/report.json')).toThrow(
      /^memory-report\/report\.json:1:19: not valid JSON: /,
    );
    expect(() => parseReportJson('', 'r.json')).toThrow(InputError);
  });

  it('refuses an unknown status at /entries/0/status and lists the known ones', () => {
    const error = schemaErrorOf(documentWith((doc) => (doc.entries[0]!['status'] = 'exploded')));
    expect(error.pointer).toBe('/entries/0/status');
    expect(error.message).toBe(
      'report.json: /entries/0/status: must be one of "regressed", "over-budget", "over-capacity", "low-headroom", "alloc-failure", "oom", "fragmented", "leak-suspect", "above-reference", "imbalance", "growing", "step-leak", "new", "missing", "improved", "ignored", "pass", got "exploded"',
    );
  });

  it('refuses an extra property, pointing at it', () => {
    expect(schemaErrorOf(documentWith((doc) => (doc.entries[1]!['owner'] = '@org/team'))).message).toBe(
      'report.json: /entries/1/owner: unknown property; expected one of: kind, key, baseline, current, delta, percent, status, severity, rule, unit, limit, capacity, note, noise',
    );
    expect(schemaErrorOf(documentWith((doc) => (doc['html'] = '<script>'))).pointer).toBe('/html');
    // A property name is escaped as a JSON pointer token and shown without control characters.
    expect(schemaErrorOf(documentWith((doc) => (doc['a/b~c\u001b'] = 1))).pointer).toBe('/a~1b~0c␛');
  });

  it('refuses a count for a status it does not know', () => {
    expect(
      schemaErrorOf(documentWith((doc) => ((doc['counts'] as Record<string, number>)['exploded'] = 0))).pointer,
    ).toBe('/counts/exploded');
  });

  it('shows a hostile property name in the pointer with its control characters visible and its length bounded', () => {
    const hostile = `\u001b]8;;x\u0007${'A'.repeat(1000)}`;
    const { pointer } = schemaErrorOf(documentWith((doc) => ((doc['counts'] as Record<string, number>)[hostile] = 0)));
    expect(pointer.startsWith('/counts/␛]8;;x␇AAA')).toBe(true);
    expect(pointer).not.toMatch(/[\u0000-\u001f]/);
    expect(pointer.length).toBe(301);
  });

  it('refuses a string where a byte count is expected', () => {
    const error = schemaErrorOf(documentWith((doc) => (doc.entries[0]!['baseline'] = '2078195712')));
    expect(error.message).toBe('report.json: /entries/0/baseline: must be integer,null, got "2078195712"');
  });

  it('refuses fractional, unsafe and infinite numbers', () => {
    expect(schemaErrorOf(documentWith((doc) => (doc.entries[0]!['delta'] = 1.5))).pointer).toBe('/entries/0/delta');
    // 2^60 bytes cannot be held exactly in a double.
    const unsafe = renderJsonReport(seedReport).replace('"current": 20781957120', '"current": 1152921504606846976');
    expect(schemaErrorOf(unsafe).message).toBe(
      'report.json: /entries/0/current: must be <= 9007199254740991, got 1152921504606847000',
    );
    const infinite = renderJsonReport(seedReport).replace('"percent": 900', '"percent": 1e999');
    expect(schemaErrorOf(infinite).pointer).toBe('/entries/0/percent');
  });

  it('refuses a missing field, pointing at where it should be', () => {
    expect(schemaErrorOf(documentWith((doc) => delete doc.entries[1]!['rule'])).message).toBe(
      'report.json: /entries/1/rule: required property is missing',
    );
    expect(schemaErrorOf(documentWith((doc) => delete doc['result'])).pointer).toBe('/result');
  });

  it('refuses an empty key, a kind it does not know and a malformed time', () => {
    expect(schemaErrorOf(documentWith((doc) => (doc.entries[0]!['key'] = ''))).pointer).toBe('/entries/0/key');
    expect(schemaErrorOf(documentWith((doc) => (doc.entries[0]!['kind'] = 'rack'))).message).toBe(
      'report.json: /entries/0/kind: must be one of "module", "component", "operator", "graph", "kernel", "step", "stepLeak", "unfreed", "owner", "opFootprint", "inefficient", "allocator", "allocationSite", "oom", "oomModule", "device", got "rack"',
    );
    expect(schemaErrorOf(documentWith((doc) => (doc['generatedAt'] = 'yesterday'))).pointer).toBe('/generatedAt');
  });

  it('refuses more than MAX_ENTRIES (500,000) entries', () => {
    const many = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => entry({ key: `HOST_MEM/M${i}` }));
    const text = JSON.stringify({ result: 'pass', counts: { pass: MAX_ENTRIES }, entries: many });
    expect(schemaErrorOf(text).message).toBe('report.json: /entries: must NOT have more than 500000 items');
    const overCounted = JSON.stringify({ result: 'pass', counts: { pass: MAX_ENTRIES + 1 }, entries: [] });
    expect(schemaErrorOf(overCounted).message).toBe('report.json: /counts/pass: must be <= 500000, got 500001');
  });

  it('accepts exactly MAX_ENTRIES (500,000) entries, as many as the largest jobs give', () => {
    const many = Array.from({ length: MAX_ENTRIES }, (_, i) => entry({ key: `HOST_MEM/M${i}` }));
    const text = JSON.stringify({ result: 'pass', counts: { pass: MAX_ENTRIES }, entries: many });
    expect(parseReportJson(text, 'r.json').entries).toHaveLength(MAX_ENTRIES);
  });

  it('refuses a report whose counts lie about its entries', () => {
    const error = schemaErrorOf(documentWith((doc) => ((doc['counts'] as Record<string, number>)['regressed'] = 0)));
    expect(error.message).toBe("report.json: /counts/regressed: is 0 but 1 entry has status 'regressed'");
  });

  it('refuses a report that claims to pass while an entry fails', () => {
    expect(schemaErrorOf(documentWith((doc) => (doc['result'] = 'pass'))).message).toBe(
      "report.json: /result: is 'pass' but /entries/0 has severity 'fail'",
    );
  });
});

describe('device entries and findings', () => {
  const overCapacity = entry({
    kind: 'device',
    key: 'dev0',
    baseline: 2_122_334_208,
    current: 20_826_095_616,
    delta: 18_703_761_408,
    percent: 881.28,
    status: 'over-capacity',
    severity: 'fail',
    unit: 'bytes',
    limit: 17_179_869_184,
    note: 'estimated peak 19.4 GiB is over the capacity 16.0 GiB by 3.4 GiB',
  });
  const leak = entry({
    key: 'DEV_MEM/dev0/APP',
    baseline: 996,
    current: 1096,
    delta: 100,
    percent: 10.04,
    status: 'leak-suspect',
    severity: 'warn',
    unit: 'count',
    limit: 1095,
  });
  const report: GateReport = {
    result: 'fail',
    counts: { 'over-capacity': 1, 'leak-suspect': 1 },
    entries: [leak, overCapacity],
  };

  it('writes unit, limit and note when set, and reads them back', () => {
    const text = renderJsonReport(report);
    expect(JSON.parse(text).entries[1]).toEqual({
      kind: 'device',
      key: 'dev0',
      baseline: 2_122_334_208,
      current: 20_826_095_616,
      delta: 18_703_761_408,
      percent: 881.28,
      status: 'over-capacity',
      severity: 'fail',
      rule: null,
      unit: 'bytes',
      limit: 17_179_869_184,
      note: 'estimated peak 19.4 GiB is over the capacity 16.0 GiB by 3.4 GiB',
    });
    expect(parseReportJson(text, 'report.json').entries).toEqual([leak, overCapacity]);
    expect(parseReportJson(text, 'report.json').counts).toMatchObject({
      'over-capacity': 1,
      'leak-suspect': 1,
      regressed: 0,
    });
  });

  it('refuses a unit it does not know, a fractional limit and an overlong note', () => {
    const broken = (change: (doc: LooseDocument) => void): string => {
      const doc: LooseDocument = JSON.parse(renderJsonReport(report));
      change(doc);
      return JSON.stringify(doc);
    };
    expect(schemaErrorOf(broken((doc) => (doc.entries[0]!['unit'] = 'pages'))).message).toBe(
      'report.json: /entries/0/unit: must be one of "bytes", "count", got "pages"',
    );
    expect(schemaErrorOf(broken((doc) => (doc.entries[1]!['limit'] = 1.5))).pointer).toBe('/entries/1/limit');
    expect(schemaErrorOf(broken((doc) => (doc.entries[1]!['note'] = 'x'.repeat(2001)))).message).toBe(
      'report.json: /entries/1/note: must NOT have more than 2000 characters',
    );
  });
});

describe('the published schema', () => {
  it('schemas/report.schema.json is the schema the code validates with', () => {
    // When this fails after a change to report-schema.ts, write the file again from `reportSchema`.
    expect(publishedSchema).toEqual(JSON.parse(JSON.stringify(reportSchema)));
  });

  it('enumerates every status once, from the one REPORT_STATUSES list', () => {
    expect(publishedSchema.definitions.entry.properties.status.enum).toEqual([...REPORT_STATUSES]);
    expect(Object.keys(publishedSchema.properties.counts.properties)).toEqual([...REPORT_STATUSES]);
    expect(new Set(REPORT_STATUSES).size).toBe(17);
  });
});

describe('roll-ups in the JSON report', () => {
  const app = (d: number, delta: number): Entry =>
    entry({
      key: `DEV_MEM/dev${d}/APP`,
      baseline: 1000,
      current: 1000 + delta,
      delta,
      percent: delta / 10,
      status: 'regressed',
      severity: 'fail',
    });
  const report: GateReport = {
    result: 'fail',
    counts: { regressed: 3, pass: 1 },
    entries: [app(0, 100), app(1, 300), entry({ key: 'DEV_MEM/dev2/APP' }), app(3, 200)],
  };

  it('keeps every entry and adds one group of DEV_MEM/*/APP on 3 of 4 devices, largest change first', () => {
    const doc = JSON.parse(renderJsonReport(report)) as { entries: unknown[]; groups: unknown[] };
    expect(doc.entries).toHaveLength(4);
    expect(doc.groups).toEqual([
      {
        kind: 'module',
        status: 'regressed',
        severity: 'fail',
        pattern: 'DEV_MEM/*/APP',
        entries: [1, 3, 0],
        ofDevices: 4,
        medianDelta: 200,
      },
    ]);
  });

  it('refuses a group that points past the entries, twice at one entry, or at an entry of another status', () => {
    const doc = JSON.parse(renderJsonReport(report)) as { groups: { entries: number[] }[] };
    const broken = (entries: number[]): string => {
      const copy = structuredClone(doc);
      (copy.groups[0] as { entries: number[] }).entries = entries;
      return schemaErrorOf(JSON.stringify(copy)).message;
    };
    expect(broken([1, 9])).toBe('report.json: /groups/0/entries/1: is 9, but there are 4 entries');
    expect(broken([1, 1])).toBe('report.json: /groups/0/entries/1: lists /entries/1 a second time');
    expect(broken([1, 2])).toBe(
      'report.json: /groups/0/entries/1: is /entries/2, which is not a module regressed key of DEV_MEM/*/APP',
    );
  });
});
