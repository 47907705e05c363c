import { U as UsageError } from './errors.js';
import { h as deviceLimits } from './index.js';
import { loadGateConfig } from './thresholds.js';
import { Y as parseSize } from './evidence-sources.js';
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
import './reader.js';
import 'node:crypto';

async function oomSettingsFromOptions(flags) {
    const { config: configFile, capacity: capacityText } = flags;
    if (configFile === undefined && capacityText === undefined)
        return undefined;
    const capacity = capacityText === undefined ? null : parseSize(capacityText);
    if (capacity === null && capacityText !== undefined)
        throw new UsageError(`--capacity: '${capacityText}' is not a size; give the device's memory, e.g. --capacity 64GiB`);
    const config = await loadGateConfig(configFile, { required: configFile !== undefined });
    return {
        fragmentationPercent: config.oom.fragmentationPercent,
        capacityOf: (device) => capacity ?? deviceLimits(device, config).capacity ?? null,
    };
}

export { oomSettingsFromOptions };
