import { a as SnapshotBuilder, T as section, U as combineMetrics } from './evidence-sources.js';

function sectionRewrite(declaration, rewrite) {
    return [declaration.name, rewrite];
}
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
        const declaration = section(name);
        const moved = new Map();
        const metrics = snapshot.sections[name] ?? {};
        const rewritten = new Map();
        for (const key of Object.keys(metrics)) {
            const out = rewrite(key, metrics[key]);
            moved.set(key, out.key);
            const prev = rewritten.get(out.key);
            rewritten.set(out.key, prev === undefined ? out.metric : combineMetrics(declaration, prev, out.metric));
        }
        builder.merge(sectionState(name, rewritten));
        for (const [key, series] of Object.entries(snapshot.series[name] ?? {}))
            builder.addSeries(name, moved.get(key) ?? key, series);
    }
    return builder.build();
}
function sectionState(name, metrics) {
    return {
        sections: new Map([[name, metrics]]),
        series: new Map(),
        allocFailures: new Map(),
        allocFailureSites: new Map(),
        nodes: new Map(),
        skippedRecords: [],
        notes: [],
        files: 0,
        records: 0,
        skipped: 0,
    };
}

export { rewriteKeys as r, sectionRewrite as s };
