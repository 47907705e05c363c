import { a as SnapshotBuilder } from './evidence-sources.js';

function rewriteKeys(snapshot, rewrites) {
    const names = Object.keys(rewrites).filter((name) => Object.hasOwn(snapshot.sections, name) || Object.hasOwn(snapshot.series, name));
    if (names.length === 0)
        return snapshot;
    const kept = { ...snapshot, sections: { ...snapshot.sections }, series: { ...snapshot.series } };
    for (const name of names) {
        delete kept.sections[name];
        delete kept.series[name];
    }
    const builder = new SnapshotBuilder();
    builder.addSnapshot(kept);
    for (const name of names) {
        const rewrite = rewrites[name];
        const moved = new Map();
        const metrics = snapshot.sections[name] ?? {};
        for (const key of Object.keys(metrics)) {
            const out = rewrite(key, metrics[key]);
            moved.set(key, out.key);
            builder.addMetric(name, out.key, out.metric);
        }
        for (const [key, series] of Object.entries(snapshot.series[name] ?? {}))
            builder.addSeries(name, moved.get(key) ?? key, series);
    }
    return builder.build();
}

export { rewriteKeys as r };
