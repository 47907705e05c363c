// `--config` and `--capacity` for the commands that read inputs: the device capacity and fragmentation share OOM causes are decided with at parse time.
import { UsageError } from '../common/errors.js';
import { deviceLimits } from '../gate/findings/headroom.js';
import { loadGateConfig } from '../gate/thresholds.js';
import type { OomRuleSettings } from '../model/oom-cause.js';
import { parseSize } from '../model/units.js';

/** The flags that set how OOM causes are decided: `--config` (every command that reads inputs), `--capacity` (parse). */
export interface OomFlags {
  config?: string | undefined;
  capacity?: string | undefined;
}

/** The settings when --config or --capacity is given, else undefined (causes then use the figures alone and the default share). */
export async function oomSettingsFromOptions(flags: OomFlags): Promise<OomRuleSettings | undefined> {
  const { config: configFile, capacity: capacityText } = flags;
  if (configFile === undefined && capacityText === undefined) return undefined;
  const capacity = capacityText === undefined ? null : parseSize(capacityText);
  if (capacity === null && capacityText !== undefined)
    throw new UsageError(
      `--capacity: '${capacityText}' is not a size; give the device's memory, e.g. --capacity 64GiB`,
    );
  const config = await loadGateConfig(configFile, { required: configFile !== undefined });
  return {
    fragmentationPercent: config.oom.fragmentationPercent,
    capacityOf: (device) => capacity ?? deviceLimits(device, config).capacity ?? null,
  };
}
