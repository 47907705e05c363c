import { v as visible } from './errors.js';
import { f as failureReason, c as annotationText } from './annotation.js';
import { l as kindTitle, w as worstOf, i as isRollUp, j as devicesPhrase, r as entrySentence } from './view.js';
import { s as shortenName } from './names.js';
import { t as titledVerdict, i as contextTerminal, j as REPORT_KINDS } from './partition.js';
import { W as UNTRACED_NOTE, s as sectionOfKind, f as formatCount } from './evidence-sources.js';
import './types.js';
import './index.js';
import './limits.js';
import 'node:fs';
import 'node:fs/promises';
import 'node:path';
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './roll-up.js';
import './oom-cause.js';
import './keys.js';
import './history-view.js';
import './thresholds.js';
import './reader.js';
import 'node:crypto';
import './trends.js';
import './format.js';
import './string-table.js';
import './moved.js';
import './groups.js';
import './trend-text.js';
import './escape.js';

const MEMBERS_LISTED = 10;
const NOT_JUDGED = new Set(['new', 'missing', 'ignored']);
function xml(text, keepNewlines = false) {
    return visible(text, keepNewlines)
        .replace(/[\ufffe\uffff]/g, (ch) => `⟨U+${ch.charCodeAt(0).toString(16).toUpperCase()}⟩`)
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;');
}
function timestampText(date) {
    if (Number.isNaN(date.getTime()))
        throw new RangeError('the JUnit timestamp is not a valid date');
    return date.toISOString().slice(0, 19);
}
function sectionName(kind) {
    return sectionOfKind(kind)?.name ?? `${kind}s`;
}
function groupMessage(group) {
    const line = annotationText(worstOf(group));
    return isRollUp(group) ? `${devicesPhrase(group)}, worst ${line}` : line;
}
function failureText(group) {
    if (!isRollUp(group))
        return annotationText(worstOf(group));
    const shown = group.entries.slice(0, MEMBERS_LISTED).map((e) => entrySentence(e));
    const more = group.entries.length - shown.length;
    return [...shown, ...(more > 0 ? [`…${formatCount(more)} more`] : [])].join('\n');
}
const BASELINE_VERDICTS = new Set([
    'regressed',
    'over-budget',
    'improved',
    'new',
    'missing',
    'ignored',
    'pass',
]);
function caseName(group) {
    const name = shortenName(isRollUp(group) ? group.pattern : worstOf(group).key);
    return BASELINE_VERDICTS.has(group.status) ? name : `${name} ${group.status}`;
}
function namedCases(groups) {
    const cases = groups.map(testCase);
    const seen = new Map();
    for (const c of cases)
        seen.set(c.name, (seen.get(c.name) ?? 0) + 1);
    return cases.map((c) => (seen.get(c.name) ?? 0) > 1 && BASELINE_VERDICTS.has(c.status) ? { ...c, name: `${c.name} ${c.status}` } : c);
}
function testCase(group) {
    const name = caseName(group);
    const message = groupMessage(group);
    if (group.severity === 'fail')
        return { name, outcome: 'failure', status: group.status, message, text: failureText(group) };
    if (NOT_JUDGED.has(group.status))
        return { name, outcome: 'skipped', status: group.status, message, text: '' };
    return { name, outcome: 'passed', status: group.status, message, text: '' };
}
function verdictSuite(view) {
    const report = view.report;
    const verdict = titledVerdict(view.verdict, 'Memory gate');
    const failed = report.result === 'fail';
    return {
        name: 'Memory gate',
        package: 'gate',
        cases: [
            {
                name: 'verdict',
                outcome: failed ? 'failure' : 'passed',
                status: 'memory-gate',
                message: failed ? failureReason(report) : verdict,
                text: failed ? verdict : '',
            },
        ],
        out: [verdict, ...contextTerminal(view.context, visible).filter((line) => line !== '')],
    };
}
function sectionSuites(view) {
    const byKind = new Map();
    for (const list of [view.problemsWithRecorded, view.improvements, view.unchanged]) {
        for (let i = 0; i < list.length; i++) {
            const entry = list[i];
            let entries = byKind.get(entry.kind);
            if (entries === undefined)
                byKind.set(entry.kind, (entries = []));
            entries.push(entry);
        }
    }
    const known = REPORT_KINDS;
    const rank = (kind) => (known.includes(kind) ? known.indexOf(kind) : known.length);
    return [...byKind]
        .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
        .map(([kind, entries]) => {
        const groups = view.groups(entries);
        const out = groups.filter((g) => g.severity === 'warn').map((g) => `warning: ${groupMessage(g)}`);
        const dumpTime = [
            ...new Set(entries.filter((e) => e.note?.startsWith(UNTRACED_NOTE) === true).map((e) => e.key)),
        ];
        for (const key of dumpTime)
            out.push(`dump-time: ${key}: no trace was recorded on this device, so this is its state at dump time, not a peak`);
        return { name: kindTitle(kind), package: sectionName(kind), cases: namedCases(groups), out };
    });
}
function renderCase(c, classname) {
    const open = `    <testcase name="${xml(c.name)}" classname="${xml(classname)}" time="0"`;
    if (c.outcome === 'passed')
        return `${open}/>`;
    if (c.outcome === 'skipped')
        return `${open}>\n      <skipped message="${xml(c.message)}"/>\n    </testcase>`;
    return `${open}>\n      <failure message="${xml(c.message)}" type="${xml(c.status)}">${xml(c.text, true)}</failure>\n    </testcase>`;
}
function renderSuite(suite, id, context) {
    const failures = suite.cases.filter((c) => c.outcome === 'failure').length;
    const skipped = suite.cases.filter((c) => c.outcome === 'skipped').length;
    const classname = `ascend-memory-gate.${suite.package}`;
    return [
        `  <testsuite name="${xml(suite.name)}" package="${xml(suite.package)}" id="${id}" tests="${suite.cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0" timestamp="${timestampText(context.timestamp)}" hostname="${xml(context.hostname || 'localhost')}">`,
        '    <properties/>',
        ...suite.cases.map((c) => renderCase(c, classname)),
        suite.out.length > 0 ? `    <system-out>${xml(suite.out.join('\n'), true)}</system-out>` : '    <system-out/>',
        '    <system-err/>',
        '  </testsuite>',
    ].join('\n');
}
function renderJunit(view, context) {
    const suites = [verdictSuite(view), ...sectionSuites(view)];
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites>',
        ...suites.map((s, i) => renderSuite(s, i, context)),
        '</testsuites>',
        '',
    ].join('\n');
}

export { renderJunit };
