import { I as InputError, S as SchemaError } from './errors.js';
import { h as hashText, S as StringTable } from './string-table.js';
import { k as keyTokens, d as countJsonKeys, s as scanJson, l as lineColumn, c as compileSchema } from './reader.js';
import { s as shortenName } from './names.js';
import { b as SECTIONS } from './evidence-sources.js';
import './_commonjsHelpers.js';
import 'node:crypto';

const NONE = -1;
class Columns {
    size = 0;
    count = 0;
    origin = 0;
    latestOf;
    figureOf = new Int32Array(16);
    pointOf = new Int32Array(16);
    valueOf = new Float64Array(16);
    previousOf = new Int32Array(16);
    constructor(size = 0) {
        this.latestOf = new Int32Array(Math.max(size, 16)).fill(NONE);
        this.size = size;
    }
    add(n = 1) {
        const first = this.size;
        const to = first + n;
        if (to > this.latestOf.length) {
            const wider = new Int32Array(Math.max(to, this.latestOf.length * 2)).fill(NONE);
            wider.set(this.latestOf.subarray(0, first));
            this.latestOf = wider;
        }
        this.size = to;
        return first;
    }
    truncate(size) {
        this.latestOf.fill(NONE, size, this.size);
        this.size = Math.min(this.size, size);
    }
    push(i, p, v) {
        const c = this.count;
        if (c === this.pointOf.length)
            this.growChanges();
        this.figureOf[c] = i;
        this.pointOf[c] = p + this.origin;
        this.valueOf[c] = v;
        this.previousOf[c] = this.latestOf[i];
        this.latestOf[i] = c;
        this.count = c + 1;
    }
    latest(i) {
        const c = this.latestOf[i];
        return c === NONE ? Number.NaN : this.valueOf[c];
    }
    latestPoint(i) {
        const c = this.latestOf[i];
        return c === NONE ? -1 : Math.max(this.pointOf[c] - this.origin, 0);
    }
    at(i, p) {
        const stored = p + this.origin;
        let c = this.latestOf[i];
        while (c !== NONE && this.pointOf[c] > stored)
            c = this.previousOf[c];
        return c === NONE ? Number.NaN : this.valueOf[c];
    }
    changedSince(i, from) {
        const c = this.latestOf[i];
        if (c === NONE)
            return false;
        const point = this.pointOf[c] - this.origin;
        if (point <= 0 || point < from)
            return false;
        const before = this.previousOf[c];
        return before !== NONE && (this.pointOf[before] > this.origin || !Number.isNaN(this.valueOf[before]));
    }
    isDead(i) {
        const c = this.latestOf[i];
        return c === NONE || (this.pointOf[c] <= this.origin && Number.isNaN(this.valueOf[c]));
    }
    fill(i, out) {
        let to = out.length;
        for (let c = this.latestOf[i]; c !== NONE; c = this.previousOf[c]) {
            const from = Math.max(this.pointOf[c] - this.origin, 0);
            if (from < to)
                out.fill(this.valueOf[c], from, to);
            if (from === 0)
                return;
            to = from;
        }
    }
    fold(i, out) {
        let to = out.length;
        for (let c = this.latestOf[i]; c !== NONE; c = this.previousOf[c]) {
            const from = Math.max(this.pointOf[c] - this.origin, 0);
            const v = this.valueOf[c];
            if (!Number.isNaN(v))
                for (let p = from; p < to; p++) {
                    if (!(out[p] >= v))
                        out[p] = v;
                }
            if (from === 0)
                return;
            to = from;
        }
    }
    changesAt(p, visit) {
        const stored = p + this.origin;
        for (let c = this.firstAt(stored); c < this.count && this.pointOf[c] === stored; c++) {
            const before = this.previousOf[c];
            visit(this.figureOf[c], this.valueOf[c], before === NONE ? Number.NaN : this.valueOf[before]);
        }
    }
    changedAt(i, p) {
        const c = this.latestOf[i];
        return c !== NONE && this.pointOf[c] === p + this.origin;
    }
    sortAt(p) {
        const from = this.firstAt(p + this.origin);
        const to = this.count;
        let sorted = true;
        for (let c = from + 1; c < to && sorted; c++)
            sorted = this.figureOf[c - 1] < this.figureOf[c];
        if (sorted)
            return;
        const order = Array.from({ length: to - from }, (_, k) => from + k).sort((a, b) => this.figureOf[a] - this.figureOf[b]);
        const figures = order.map((c) => this.figureOf[c]);
        const values = order.map((c) => this.valueOf[c]);
        const previous = order.map((c) => this.previousOf[c]);
        for (let k = 0; k < order.length; k++) {
            const c = from + k;
            this.figureOf[c] = figures[k];
            this.valueOf[c] = values[k];
            this.previousOf[c] = previous[k];
            this.latestOf[figures[k]] = c;
        }
    }
    undo(p) {
        const stored = p + this.origin;
        while (this.count > 0 && this.pointOf[this.count - 1] >= stored) {
            const c = --this.count;
            this.latestOf[this.figureOf[c]] = this.previousOf[c];
        }
    }
    dropOldest() {
        this.origin++;
    }
    rebuilt(kept, size, points) {
        const out = new Columns(size);
        for (let i = 0; i < this.size; i++) {
            const to = kept[i];
            const v = this.at(i, 0);
            if (to !== -1 && !Number.isNaN(v))
                out.push(to, 0, v);
        }
        let c = this.firstAt(this.origin + 1);
        for (let p = 1; p < points; p++) {
            const stored = p + this.origin;
            for (; c < this.count && this.pointOf[c] === stored; c++) {
                const to = kept[this.figureOf[c]];
                if (to !== -1)
                    out.push(to, p, this.valueOf[c]);
            }
        }
        return out;
    }
    get dropped() {
        return this.origin;
    }
    firstAt(stored) {
        let lo = 0;
        let hi = this.count;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (this.pointOf[mid] < stored)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }
    growChanges() {
        const capacity = this.pointOf.length * 2;
        const widen = (a, make) => {
            const wider = make(capacity);
            wider.set(a);
            return wider;
        };
        this.figureOf = widen(this.figureOf, (n) => new Int32Array(n));
        this.pointOf = widen(this.pointOf, (n) => new Int32Array(n));
        this.valueOf = widen(this.valueOf, (n) => new Float64Array(n));
        this.previousOf = widen(this.previousOf, (n) => new Int32Array(n));
    }
}

const HISTORY_FORMAT = 'ascend-memory-gate history';
const HISTORY_VERSION = 1;
const MAX_NAME = 4096;
const value = {
    type: ['integer', 'null'],
    minimum: -Number.MAX_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
};
const sectionName = {
    title: 'a section name such as "modules"',
    type: 'string',
    pattern: '^[a-z][A-Za-z0-9]{0,63}$',
};
const values = {
    type: 'object',
    propertyNames: sectionName,
    additionalProperties: { type: 'array', items: value },
};
const historyHeaderSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'ascend-memory-gate history: header (line 1)',
    type: 'object',
    additionalProperties: false,
    required: ['format', 'version'],
    properties: {
        format: { const: HISTORY_FORMAT },
        version: { const: HISTORY_VERSION },
        gate: { title: "a gate name (the Action's comment-key)", type: 'string', pattern: '^[\\w.-]{1,64}$' },
        branch: { title: 'a branch name', type: 'string', minLength: 1, maxLength: 255 },
        commitUrl: {
            title: 'an http(s) URL holding {sha}, such as https://github.com/o/r/commit/{sha}',
            type: 'string',
            maxLength: 2048,
            pattern: '^https?://[^\\s"<>]*\\{sha\\}[^\\s"<>]*$',
        },
    },
};
const historyKeysSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'ascend-memory-gate history: key table (line 2)',
    description: 'Per section, the keys (one value each) and the roll-ups across devices (five values each: min, median, max, devices, the worst device number), in the order they first appeared. Point lines address them by position.',
    type: 'object',
    additionalProperties: false,
    required: ['keys'],
    properties: {
        keys: {
            type: 'object',
            propertyNames: sectionName,
            additionalProperties: { type: 'array', items: { type: 'string', minLength: 1, maxLength: MAX_NAME } },
        },
        rollups: {
            type: 'object',
            propertyNames: sectionName,
            additionalProperties: { type: 'array', items: { type: 'string', minLength: 1, maxLength: MAX_NAME } },
        },
    },
};
const historyPointSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'ascend-memory-gate history: one point (lines 3 and on, oldest first)',
    description: 'The first point writes every value (`values`, `rollups`: one item per key of the table, null for none); each later point writes only what changed since the point before it (`changes`, `rollupChanges`: pairs of the number of positions skipped and the difference, or null when the figure is gone). `environment` is written when it changed.',
    type: 'object',
    additionalProperties: false,
    required: ['commit', 'time', 'baseline'],
    properties: {
        commit: { title: 'a commit SHA (4 to 64 hex digits)', type: 'string', pattern: '^[0-9a-f]{4,64}$' },
        run: { title: 'a run id', type: 'string', minLength: 1, maxLength: 100 },
        attempt: { title: 'a run attempt (1 or more)', type: 'integer', minimum: 1, maximum: 1000000 },
        time: {
            title: 'an ISO 8601 date-time such as 2026-06-13T17:00:34Z',
            type: 'string',
            maxLength: 64,
            pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
        },
        baseline: {
            title: 'sha256: and 64 hex digits, or null',
            type: ['string', 'null'],
            pattern: '^sha256:[0-9a-f]{64}$',
        },
        environment: { type: 'object', additionalProperties: { type: 'string', maxLength: MAX_NAME } },
        values,
        rollups: values,
        changes: values,
        rollupChanges: values,
    },
};

const HISTORY_MAX_BYTES = 8 * 1024 * 1024;
const HISTORY_NAME_LENGTH = 4096;
function historyName(name) {
    return name.length > HISTORY_NAME_LENGTH ? shortenName(name, HISTORY_NAME_LENGTH) : name;
}
const ROLLUP_FIELDS = ['min', 'median', 'max', 'devices', 'worst'];
const ROLLUP_WIDTH = ROLLUP_FIELDS.length;
function emptyHistory(header = {}) {
    return {
        header: { format: HISTORY_FORMAT, version: HISTORY_VERSION, ...header },
        points: [],
        sections: new Map(),
        lines: [],
    };
}
function emptySection() {
    return sectionOfKeys([]);
}
function sectionOfKeys(keys) {
    const keyColumns = new Columns(keys.length);
    let keyIndex;
    return {
        keys,
        keyColumns,
        get keyIndex() {
            if (keyIndex === undefined) {
                keyIndex = new Map();
                for (let i = 0; i < this.keys.length; i++)
                    keyIndex.set(this.keys[i], i);
            }
            return keyIndex;
        },
        rollups: [],
        rollupColumns: new Columns(),
        rollupIndex: new Map(),
    };
}
function orNull(v) {
    return Number.isNaN(v) ? null : v;
}
function serializeHistory(history) {
    return `${[headerLine(history.header), keysLine(history), ...history.lines].join('\n')}\n`;
}
function latestAloneBytes(history) {
    return tableBytes(history) + Buffer.byteLength(pointLine(history, history.points.length - 1, true)) + 1;
}
function tableBytes(history) {
    keysLine(history);
    const { bytes } = keysLines.get(history);
    return Buffer.byteLength(headerLine(history.header)) + bytes + 2;
}
function headerLine(header) {
    const { format, version, gate, branch, commitUrl } = header;
    return JSON.stringify({
        format,
        version,
        ...(gate !== undefined ? { gate } : {}),
        ...(branch !== undefined ? { branch } : {}),
        ...(commitUrl !== undefined ? { commitUrl } : {}),
    });
}
const keysLines = new WeakMap();
function keysLine(history) {
    let size = `${history.sections.size}`;
    for (const [name, section] of history.sections)
        size += `,${name}:${section.keys.length}:${section.rollups.length}`;
    const cached = keysLines.get(history);
    if (cached !== undefined && cached.size === size && cached.sections === history.sections)
        return cached.text;
    const text = keysLineOf(history);
    keysLines.set(history, { size, text, bytes: Buffer.byteLength(text), sections: history.sections });
    return text;
}
function keysLineOf(history) {
    const keys = {};
    const rollups = {};
    for (const [name, section] of history.sections) {
        keys[name] = section.keys;
        if (section.rollups.length > 0)
            rollups[name] = section.rollups;
    }
    return JSON.stringify(Object.keys(rollups).length > 0 ? { keys, rollups } : { keys });
}
function pointLine(history, p, whole = p === 0) {
    const meta = history.points[p];
    const line = { commit: meta.commit };
    if (meta.run !== undefined)
        line.run = meta.run;
    if (meta.attempt !== undefined)
        line.attempt = meta.attempt;
    line.time = meta.time;
    line.baseline = meta.baseline;
    const previous = p === 0 ? undefined : history.points[p - 1];
    if (whole || previous === undefined || !sameEnvironment(previous.environment, meta.environment))
        line.environment = sortedItems(meta.environment);
    if (whole) {
        const values = denseOf(history, p, (s) => s.keyColumns);
        const rollups = denseOf(history, p, (s) => s.rollupColumns);
        if (Object.keys(values).length > 0)
            line.values = values;
        if (Object.keys(rollups).length > 0)
            line.rollups = rollups;
    }
    else {
        const changes = changesOf(history, p, (s) => s.keyColumns);
        const rollupChanges = changesOf(history, p, (s) => s.rollupColumns);
        if (Object.keys(changes).length > 0)
            line.changes = changes;
        if (Object.keys(rollupChanges).length > 0)
            line.rollupChanges = rollupChanges;
    }
    return JSON.stringify(line);
}
function denseOf(history, p, columnsOf) {
    const out = {};
    for (const [name, section] of history.sections) {
        const columns = columnsOf(section);
        let end = columns.size;
        while (end > 0 && Number.isNaN(columns.at(end - 1, p)))
            end--;
        if (end === 0)
            continue;
        const dense = new Array(end);
        for (let i = 0; i < end; i++)
            dense[i] = orNull(columns.at(i, p));
        out[name] = dense;
    }
    return out;
}
function changesOf(history, p, columnsOf) {
    const out = {};
    for (const [name, section] of history.sections) {
        const pairs = [];
        let next = 0;
        columnsOf(section).changesAt(p, (i, now, before) => {
            pairs.push(i - next, Number.isNaN(now) ? null : now - (Number.isNaN(before) ? 0 : before));
            next = i + 1;
        });
        if (pairs.length > 0)
            out[name] = pairs;
    }
    return out;
}
function sameEnvironment(a, b) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length)
        return false;
    return ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}
function sortedItems(items) {
    const out = {};
    for (const k of Object.keys(items).sort())
        Object.defineProperty(out, k, { value: items[k], enumerable: true, writable: true, configurable: true });
    return out;
}
const validateHeader = compileSchema(historyHeaderSchema);
const validateKeysLine = compileSchema(historyKeysSchema);
const validatePointLine = compileSchema(historyPointSchema);
const isName = (v) => typeof v === 'string' && v.length >= 1 && v.length <= 4096;
const isValue = (v) => v === null || Number.isSafeInteger(v);
const validateKeys = (json, at) => validatedWithLists(validateKeysLine, json, at, ['keys', 'rollups'], isName);
const validatePoint = (json, at) => validatedWithLists(validatePointLine, json, at, ['values', 'rollups', 'changes', 'rollupChanges'], isValue);
function validatedWithLists(validate, json, at, fields, item) {
    if (!isObject(json))
        return validate(json, at);
    const shell = { ...json };
    for (const field of fields) {
        const bySection = shell[field];
        if (!Object.hasOwn(shell, field) || !isObject(bySection))
            continue;
        const emptied = {};
        for (const [name, list] of Object.entries(bySection)) {
            if (!Array.isArray(list) || !list.every(item))
                return validate(json, at);
            Object.defineProperty(emptied, name, { value: [], enumerable: true, writable: true, configurable: true });
        }
        shell[field] = emptied;
    }
    try {
        validate(shell, at);
    }
    catch {
        return validate(json, at);
    }
    return json;
}
function isObject(v) {
    return v !== null && typeof v === 'object' && !Array.isArray(v);
}
function parseHistory(text, file) {
    if (text.length * 3 > HISTORY_MAX_BYTES && Buffer.byteLength(text) > HISTORY_MAX_BYTES) {
        throw new InputError(`${file}: ${Buffer.byteLength(text)} bytes, past the ${HISTORY_MAX_BYTES} (8 MiB) a history ever holds: not read`);
    }
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (body === '')
        throw new InputError(`${file}: empty, not a history file (its first line is the header {"format":"${HISTORY_FORMAT}",…})`);
    const rawLines = body.split('\n');
    if (rawLines[rawLines.length - 1] !== '')
        throw new InputError(`${file}:${rawLines.length}: the last line has no line break: the file was cut short`);
    rawLines.pop();
    const lines = rawLines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    const warnings = [];
    const header = readHeader(lines[0], file, warnings);
    const history = { header, points: [], sections: new Map(), lines: [] };
    if (lines.length < 2)
        throw new InputError(`${file}:2: the key table line is missing`);
    const at2 = `${file}:2`;
    const table = validateKeys(parseLine(lines[1], file, 2), at2);
    const unknown = new Set();
    for (const name of [...Object.keys(table.keys), ...Object.keys(table.rollups ?? {})])
        if (!DECLARED.has(name))
            unknown.add(name);
    for (const [name, keys] of Object.entries(table.keys))
        if (!unknown.has(name))
            history.sections.set(name, sectionOf(keys, at2, `/keys/${name}`));
    for (const [name, patterns] of Object.entries(table.rollups ?? {})) {
        if (unknown.has(name))
            continue;
        const section = history.sections.get(name) ?? emptySection();
        if (!history.sections.has(name))
            history.sections.set(name, section);
        addNames(section.rollups, section.rollupIndex, patterns, at2, `/rollups/${name}`);
        section.rollupColumns.add(section.rollups.length * ROLLUP_WIDTH);
    }
    for (let n = 2; n < lines.length; n++)
        readPoint(history, lines[n], file, n + 1, unknown);
    if (unknown.size > 0) {
        const names = [...unknown].map((n) => `'${n}'`).join(', ');
        warnings.push(`${at2}: section${unknown.size === 1 ? '' : 's'} ${names} ${unknown.size === 1 ? 'is' : 'are'} not known to this version (a newer ascend-memory-gate wrote ${unknown.size === 1 ? 'it' : 'them'}): skipped; a run this version records drops ${unknown.size === 1 ? 'it' : 'them'} from the file, upgrade to keep ${unknown.size === 1 ? 'it' : 'them'}`);
        history.lines = history.points.map((_, p) => pointLine(history, p));
    }
    if (warnings.length > 0)
        history.warnings = warnings;
    return history;
}
const DECLARED = new Map(SECTIONS.map((d) => [d.name, d]));
function readHeader(line, file, warnings) {
    const at = `${file}:1`;
    const json = parseLine(line, file, 1);
    const version = json !== null && typeof json === 'object' && !Array.isArray(json)
        ? json.version
        : undefined;
    if (typeof version === 'number' && Number.isInteger(version) && version > HISTORY_VERSION) {
        throw new SchemaError(at, '/version', `is ${version}: this history was written by a newer ascend-memory-gate (this one reads version ${HISTORY_VERSION}); upgrade the Action or CLI`);
    }
    const header = { ...validateHeader(json, at) };
    if (header.commitUrl !== undefined && !isCommitUrl(header.commitUrl)) {
        warnings.push(`${at}: /commitUrl: ${JSON.stringify(header.commitUrl.slice(0, 200))} is not an http(s) URL once {sha} is filled in: commits are shown without links`);
        delete header.commitUrl;
    }
    return header;
}
function isCommitUrl(template) {
    if (!template.includes('{sha}'))
        return false;
    try {
        const url = new URL(template.replaceAll('{sha}', '0123456789abcdef0123456789abcdef01234567'));
        return url.protocol === 'https:' || url.protocol === 'http:';
    }
    catch {
        return false;
    }
}
function sectionOf(keys, at, pointer) {
    const twice = firstRepeat(keys);
    if (twice !== -1)
        throw new SchemaError(at, `${pointer}/${twice}`, `${JSON.stringify(keys[twice].slice(0, 200))} is listed twice`);
    return sectionOfKeys(keys);
}
function firstRepeat(names) {
    const table = new StringTable();
    for (let i = 0; i < names.length; i++) {
        const name = names[i];
        const hash = hashText(name);
        if (table.indexOf(name, 0, name.length, hash) !== -1)
            return i;
        table.add(name, 0, name.length, hash);
    }
    return -1;
}
function addNames(list, index, names, at, pointer) {
    for (const name of names) {
        if (index.has(name))
            throw new SchemaError(at, `${pointer}/${list.length}`, `${JSON.stringify(name.slice(0, 200))} is listed twice`);
        index.set(name, list.length);
        list.push(name);
    }
}
function readPoint(history, line, file, n, unknown) {
    const at = `${file}:${n}`;
    const json = validatePoint(parseLine(line, file, n), at);
    const p = history.points.length;
    const first = p === 0;
    if (first && (json.changes !== undefined || json.rollupChanges !== undefined)) {
        throw new SchemaError(at, json.changes !== undefined ? '/changes' : '/rollupChanges', 'the first point writes its values whole (values, rollups), not changes');
    }
    if (!first && (json.values !== undefined || json.rollups !== undefined)) {
        throw new SchemaError(at, json.values !== undefined ? '/values' : '/rollups', 'only the first point writes its values whole; later points write changes');
    }
    if (first && json.environment === undefined)
        throw new SchemaError(at, '/environment', 'the first point must say its environment ({} for none)');
    const environment = json.environment ?? history.points[p - 1].environment;
    const meta = {
        commit: json.commit,
        time: json.time,
        baseline: json.baseline,
        environment: { ...environment },
    };
    if (json.run !== undefined)
        meta.run = json.run;
    if (json.attempt !== undefined)
        meta.attempt = json.attempt;
    if (Number.isNaN(Date.parse(json.time)))
        throw new SchemaError(at, '/time', `is not a date: ${JSON.stringify(json.time)}`);
    history.points.push(meta);
    history.lines.push(line);
    const read = { history, at, unknown };
    if (first) {
        applyDense(read, json.values ?? {}, false, '/values');
        applyDense(read, json.rollups ?? {}, true, '/rollups');
    }
    else {
        applyChanges(read, p, json.changes ?? {}, false, '/changes');
        applyChanges(read, p, json.rollupChanges ?? {}, true, '/rollupChanges');
    }
}
function sectionNamed(read, name, pointer) {
    const section = read.history.sections.get(name);
    if (section !== undefined)
        return section;
    if (read.unknown.has(name))
        return undefined;
    throw new SchemaError(read.at, pointer, `names section '${name}', which the key table (line 2) does not list`);
}
function checkValue(read, name, section, rollup, position, value, pointer) {
    if (value === null || value >= 0)
        return;
    const declaration = DECLARED.get(name);
    const slot = rollup ? position % ROLLUP_WIDTH : -1;
    const subject = rollup
        ? `the roll-up ${JSON.stringify(section.rollups[Math.floor(position / ROLLUP_WIDTH)] ?? '')} ${ROLLUP_FIELDS[slot]}`
        : JSON.stringify(section.keys[position] ?? '');
    if (slot >= 3)
        throw new SchemaError(read.at, pointer, `makes ${subject} ${value}, which is never negative: this is not a history ascend-memory-gate wrote`);
    if (declaration.fields[declaration.value]?.type === 'signedBytes')
        return;
    throw new SchemaError(read.at, pointer, `makes ${subject} ${value}, but a ${declaration.kind} figure (${declaration.value}) is never negative: this is not a history ascend-memory-gate wrote`);
}
function checkRollup(read, section, r, pointer) {
    const values = ROLLUP_FIELDS.map((_, k) => orNull(section.rollupColumns.latest(r * ROLLUP_WIDTH + k)));
    if (values.every((v) => v === null))
        return;
    const pattern = JSON.stringify(section.rollups[r] ?? '');
    if (values.some((v) => v === null))
        throw new SchemaError(read.at, pointer, `leaves the roll-up ${pattern} with some of its five values and not others`);
    const [min, median, max, devices] = values;
    if (!(min <= median && median <= max)) {
        throw new SchemaError(read.at, pointer, `makes the roll-up ${pattern} min ${min}, median ${median}, max ${max}: min ≤ median ≤ max always holds for what ascend-memory-gate writes`);
    }
    if (devices < 1)
        throw new SchemaError(read.at, pointer, `makes the roll-up ${pattern} of ${devices} devices: a roll-up is of at least one`);
}
function applyDense(read, dense, rollup, pointer) {
    for (const [name, values] of Object.entries(dense)) {
        const section = sectionNamed(read, name, `${pointer}/${name}`);
        if (section === undefined)
            continue;
        const columns = rollup ? section.rollupColumns : section.keyColumns;
        const positions = columns.size;
        if (values.length > positions)
            throw new SchemaError(read.at, `${pointer}/${name}`, `has ${values.length} values, but the key table (line 2) has ${positions} positions`);
        for (let i = 0; i < values.length; i++) {
            const v = values[i];
            if (v !== null && v < 0)
                checkValue(read, name, section, rollup, i, v, `${pointer}/${name}/${i}`);
            if (v !== null)
                columns.push(i, 0, v);
        }
        if (rollup) {
            for (let r = 0; r * ROLLUP_WIDTH < values.length; r++) {
                if ((r + 1) * ROLLUP_WIDTH > values.length)
                    throw new SchemaError(read.at, `${pointer}/${name}`, `ends inside the roll-up ${JSON.stringify(section.rollups[r] ?? '')}: a roll-up has ${ROLLUP_WIDTH} values`);
                checkRollup(read, section, r, `${pointer}/${name}/${r * ROLLUP_WIDTH}`);
            }
        }
    }
}
function applyChanges(read, p, changes, rollup, pointer) {
    const { at } = read;
    for (const [name, pairs] of Object.entries(changes)) {
        const where = `${pointer}/${name}`;
        const section = sectionNamed(read, name, where);
        if (section === undefined)
            continue;
        const columns = rollup ? section.rollupColumns : section.keyColumns;
        if (pairs.length % 2 !== 0)
            throw new SchemaError(at, where, `must hold pairs (positions skipped, change), got ${pairs.length} numbers`);
        const touched = new Map();
        let i = 0;
        for (let k = 0; k < pairs.length; k += 2) {
            const skip = pairs[k];
            if (skip === null || skip === undefined || skip < 0)
                throw new SchemaError(at, `${where}/${k}`, `must be a number of positions skipped (0 or more), got ${String(skip)}`);
            i += skip;
            if (i >= columns.size)
                throw new SchemaError(at, `${where}/${k}`, `reaches position ${i}, but the key table (line 2) has ${columns.size}`);
            if (columns.changedAt(i, p))
                throw new SchemaError(at, `${where}/${k}`, `changes position ${i} twice`);
            const change = pairs[k + 1];
            const before = columns.latest(i);
            let value = null;
            if (change !== null) {
                value = (Number.isNaN(before) ? 0 : before) + change;
                if (!Number.isSafeInteger(value))
                    throw new SchemaError(at, `${where}/${k + 1}`, `makes a value past 2^53 - 1, which cannot be exact`);
            }
            else if (Number.isNaN(before)) {
                throw new SchemaError(at, `${where}/${k + 1}`, `removes position ${i}, which the point before does not have`);
            }
            if (change === 0 && !Number.isNaN(before))
                throw new SchemaError(at, `${where}/${k + 1}`, `is a change of 0 at position ${i}: unchanged values are not written`);
            if (value !== null && value < 0)
                checkValue(read, name, section, rollup, i, value, `${where}/${k + 1}`);
            columns.push(i, p, value ?? Number.NaN);
            if (rollup && !touched.has(Math.floor(i / ROLLUP_WIDTH)))
                touched.set(Math.floor(i / ROLLUP_WIDTH), `${where}/${k + 1}`);
            i++;
        }
        for (const [r, first] of touched)
            checkRollup(read, section, r, first);
    }
}
function parseLine(line, file, n) {
    let value;
    let parsed = true;
    try {
        value = JSON.parse(line);
    }
    catch {
        parsed = false;
    }
    if (parsed && keyTokens(line) === countJsonKeys(value))
        return value;
    const problem = scanJson(line, { strict: true });
    if (problem === null) {
        if (parsed)
            return value;
        throw new InputError(`${file}:${n}: not valid JSON`);
    }
    const { column } = lineColumn(line, problem.offset);
    const reason = problem.reason.replace(/\(first at 1:(\d+)\)/, '(first at column $1)');
    throw new InputError(`${file}:${n}:${column}: ${problem.kind === 'syntax' ? 'not valid JSON: ' : ''}${reason}`);
}

export { Columns, HISTORY_MAX_BYTES, ROLLUP_WIDTH, emptyHistory, emptySection, historyName, latestAloneBytes, orNull, parseHistory, pointLine, serializeHistory, tableBytes };
