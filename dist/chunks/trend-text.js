import { e as environmentLabel } from './roll-up.js';
import { f as formatCount, d as formatBytes } from './evidence-sources.js';

const SPARK_BLOCKS = '▁▂▃▄▅▆▇█';
const SPARK_GAP = '·';
function sparkline(values, min, max) {
    let out = '';
    for (const v of values) {
        if (v === null)
            out += SPARK_GAP;
        else if (max === min)
            out += SPARK_BLOCKS[3];
        else
            out += SPARK_BLOCKS[Math.min(7, Math.floor(((v - min) / (max - min)) * 8))];
    }
    return out;
}
function trendValue(value, unit) {
    return unit === 'count' ? formatCount(value) : formatBytes(value);
}
function trendRange(trend, unit) {
    if (trend.min === trend.max)
        return trendValue(trend.min, unit);
    const lo = trendValue(trend.min, unit);
    const hi = trendValue(trend.max, unit);
    return lo === hi ? `${lo}, spread ${trendValue(trend.max - trend.min, unit)}` : `${lo} – ${hi}`;
}
function trendSpan(trend) {
    const n = trend.recent.length;
    return `${formatCount(n)} ${n === 1 ? 'run' : 'runs'}`;
}
function shortSha(sha) {
    return sha.slice(0, 7);
}
function runsAgo(step) {
    return step.runsAgo === 0
        ? 'the latest run'
        : `${formatCount(step.runsAgo)} ${step.runsAgo === 1 ? 'run' : 'runs'} ago`;
}
function stepContext(step, value = (t) => t, label = (t) => t) {
    const parts = [];
    if (step.environment.length > 0) {
        const changes = step.environment.map((c) => `${label(environmentLabel(c.item))} ${c.baseline === null ? '(unset)' : value(c.baseline)} → ${c.current === null ? '(unset)' : value(c.current)}`);
        parts.push(`${changes.join('; ')} at the same run`);
    }
    if (step.baselineChanged)
        parts.push('the baseline changed at the same run');
    return parts.length === 0 ? null : parts.join('; ');
}
function stepLevels(step, unit) {
    return `${trendValue(step.before, unit)} → ${trendValue(step.after, unit)}`;
}

export { stepContext as a, stepLevels as b, shortSha as c, trendValue as d, trendSpan as e, runsAgo as r, sparkline as s, trendRange as t };
