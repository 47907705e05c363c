import { loadBaseline, foldedSitesNotice } from './baseline.js';
import { I as InputError } from './errors.js';
import { r as releaseParsedTexts } from './validate.js';
import { h as hasNoMetrics } from './evidence-sources.js';
import { c as compareSnapshots } from './compare.js';
import { a as applyEnvironment, c as compareEnvironments, r as runEnvironmentOf } from './roll-up.js';
import { loadGateConfig, applyMaxIncrease, parseMaxIncrease } from './thresholds.js';
import 'node:fs';
import './atomic-write.js';
import 'node:crypto';
import 'node:fs/promises';
import 'node:path';
import './reader.js';
import './_commonjsHelpers.js';
import './whole-text.js';
import 'node:buffer';
import './document-json.js';
import 'node:v8';
import 'node:vm';
import './types.js';
import './index.js';
import './limits.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './keys.js';

const NOT_READ_SHOWN = 10;
const REASON_CHARS = 300;
function notReadOf(skipped, records) {
    if (skipped === 0 && records.length === 0)
        return undefined;
    const shown = (r) => ({
        file: r.file,
        line: r.line,
        reason: r.reason.length > REASON_CHARS ? `${r.reason.slice(0, REASON_CHARS - 1)}…` : r.reason,
    });
    return {
        count: Math.max(skipped, records.length),
        sample: records.slice(0, NOT_READ_SHOWN).map(shown),
        cut: records
            .filter((r) => r.cut === true)
            .slice(0, NOT_READ_SHOWN)
            .map(shown),
    };
}
async function runGate(request) {
    let config = request.limits?.config ?? (await loadGateConfig(request.configPath));
    if (request.maxIncrease !== undefined)
        config = applyMaxIncrease(config, parseMaxIncrease(request.maxIncrease));
    const baseline = request.limits ? request.limits.baseline : await loadBaseline(request.baselinePath);
    if (baseline === null && !request.allowMissingBaseline) {
        throw new InputError(`baseline ${request.baselinePath} does not exist: create it with 'ascend-memory-gate baseline --out ${request.baselinePath}' (or the Action's mode: update) and commit it`);
    }
    releaseParsedTexts();
    const compared = compareSnapshots(baseline ?? { sections: {} }, request.snapshot, config, request.noise);
    const judged = applyEnvironment(compared, compareEnvironments(runEnvironmentOf(baseline?.meta), runEnvironmentOf(request.snapshot.meta), config.environment));
    const report = request.notRead === undefined ? judged : { ...judged, notRead: request.notRead };
    if (config.onMissingBaseline === 'fail' && (baseline === null || hasNoMetrics(baseline)))
        return { report: { ...report, result: 'fail' }, config, baseline };
    return { report, config, baseline };
}

async function check(request) {
    const { snapshot, skippedRecords } = request.collected;
    const notRead = notReadOf(snapshot.meta.skipped, skippedRecords);
    const trendsModule = request.history === null ? undefined : await import('./trends.js');
    const read = request.history === null ? undefined : trendsModule?.trendsOf(request.history);
    const gated = await runGate({
        snapshot,
        baselinePath: request.baseline,
        configPath: request.config,
        maxIncrease: request.maxIncrease,
        allowMissingBaseline: true,
        ...(request.limits !== undefined ? { limits: request.limits } : {}),
        ...(read !== undefined ? { noise: read.noise } : {}),
        ...(notRead !== undefined ? { notRead } : {}),
    });
    return {
        ...gated,
        folded: foldedSitesNotice(gated.baseline, request.baseline),
        trends: async (history, recorded) => {
            if (history === null)
                return undefined;
            if (!recorded && read !== undefined)
                return read.withConfig(gated.config);
            return (trendsModule ?? (await import('./trends.js'))).trendsOf(history, gated.config);
        },
    };
}

export { check };
