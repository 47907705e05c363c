import './thresholds.js';
import { environmentChanges } from './trends.js';
import { T as section } from './evidence-sources.js';
import { f as findDeviceSegment } from './keys.js';
import { g as globMatches } from './index.js';
export { R as RECENT_POINTS } from './moved.js';
import 'node:fs/promises';
import 'node:path';
import './errors.js';
import './reader.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import './roll-up.js';
import './limits.js';
import 'node:fs';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './format.js';
import './string-table.js';
import './names.js';
import './groups.js';

function buildHistoryView(history, trends) {
    return {
        branch: history.header.branch,
        gate: history.header.gate,
        sections: [...history.sections.keys()],
        points: history.points,
        changes: runChanges(history.points),
        commitUrl: trends.commitUrl,
        subjects: (glob) => glob === undefined ? movedFirst(historySubjects(history), trends) : historySubjects(history, glob),
        rows: (subjects) => rowsOf(subjects, trends),
    };
}
function runChanges(points) {
    return points.map((now, p) => {
        const before = p === 0 ? undefined : points[p - 1];
        if (before === undefined)
            return { baselineUpdated: false, environment: null };
        const changes = environmentChanges(before.environment, now.environment);
        return {
            baselineUpdated: before.baseline !== now.baseline,
            environment: changes.length === 0
                ? null
                : changes.map((c) => `${c.item} ${c.baseline ?? '(unset)'} → ${c.current ?? '(unset)'}`).join('; '),
        };
    });
}
function historySubjects(history, glob) {
    const out = [];
    const at = { start: 0, end: 0 };
    for (const [name, section$1] of history.sections) {
        const declaration = section(name);
        const seen = new Set();
        const add = (subject, pattern) => {
            const shown = pattern && subject === '*' ? 'dev*' : subject;
            const id = `${pattern ? 'p' : 'k'}${shown}`;
            if (seen.has(id))
                return;
            seen.add(id);
            out.push({ section: name, kind: declaration.kind, subject: shown, pattern, unit: declaration.unit });
        };
        for (const key of section$1.keys) {
            if (!findDeviceSegment(key, at)) {
                if (glob === undefined || globMatches(glob, key))
                    add(key, false);
                continue;
            }
            const pattern = `${key.slice(0, at.start)}*${key.slice(at.end)}`;
            if (glob === undefined || globMatches(glob, pattern))
                add(pattern, true);
            else if (globMatches(glob, key))
                add(key, false);
        }
        for (const pattern of section$1.rollups)
            if (glob === undefined || globMatches(glob, pattern))
                add(pattern, true);
    }
    return out;
}
function movedFirst(subjects, trends) {
    const rank = new Map(trends.moved().map((m, i) => [`${m.kind}\u0000${m.subject}`, i]));
    const moved = subjects.filter((s) => rank.has(`${s.kind}\u0000${s.subject}`));
    moved.sort((a, b) => rank.get(`${a.kind}\u0000${a.subject}`) - rank.get(`${b.kind}\u0000${b.subject}`));
    return [...moved, ...subjects.filter((s) => !rank.has(`${s.kind}\u0000${s.subject}`))];
}
function rowsOf(subjects, trends) {
    const rows = [];
    for (const s of subjects) {
        const trend = s.pattern ? trends.forPattern(s.kind, s.subject) : trends.forKey(s.kind, s.subject);
        if (trend !== undefined)
            rows.push({ ...s, trend });
    }
    return rows;
}

export { buildHistoryView, runChanges };
