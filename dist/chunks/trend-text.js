import { e as environmentLabel } from './environment.js';
import { f as formatCount, a as formatBytes } from './units.js';

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
    return trend.min === trend.max ? trendValue(trend.min, unit) : `${trendValue(trend.min, unit)} – ${trendValue(trend.max, unit)}`;
}
function trendSpan(trend) {
    const n = trend.recent.length;
    return `${formatCount(n)} ${n === 1 ? 'run' : 'runs'}`;
}
function shortSha(sha) {
    return sha.slice(0, 7);
}
function runsAgo(step) {
    return step.runsAgo === 0 ? 'the latest run' : `${formatCount(step.runsAgo)} ${step.runsAgo === 1 ? 'run' : 'runs'} ago`;
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

export { shortSha as a, stepContext as b, stepLevels as c, trendSpan as d, trendValue as e, runsAgo as r, sparkline as s, trendRange as t };
