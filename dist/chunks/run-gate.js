import { I as InputError } from './errors.js';
import { r as releaseParsedTexts } from './validate.js';
import { h as hasNoMetrics } from './snapshot.js';
import { loadBaseline } from './baseline.js';
import { c as compareSnapshots } from './compare.js';
import { a as applyEnvironment, c as compareEnvironments, r as runEnvironmentOf } from './environment.js';
import { loadGateConfig, applyMaxIncrease, parseMaxIncrease } from './thresholds.js';
import './reader.js';
import './_commonjsHelpers.js';
import 'node:crypto';
import 'node:v8';
import 'node:vm';
import './series.js';
import './units.js';
import 'node:fs';
import './atomic-write.js';
import 'node:fs/promises';
import 'node:path';
import './text-stream.js';
import 'node:buffer';
import 'node:string_decoder';
import './roll-up.js';
import './keys.js';
import './types.js';
import './local.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './evidence-sources.js';

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
    const report = applyEnvironment(compared, compareEnvironments(runEnvironmentOf(baseline?.meta), runEnvironmentOf(request.snapshot.meta), config.environment));
    if (config.onMissingBaseline === 'fail' && (baseline === null || hasNoMetrics(baseline)))
        return { report: { ...report, result: 'fail' }, config, baseline };
    return { report, config, baseline };
}

export { runGate };
