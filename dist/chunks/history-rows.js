import './thresholds.js';
import { I as section } from './evidence-sources.js';
import { f as findDeviceSegment } from './keys.js';
import { g as globMatches } from './index.js';

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

export { historySubjects as h, movedFirst as m, rowsOf as r };
