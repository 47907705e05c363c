// The headroom finding: each device's estimated peak against its capacity (over-capacity), and the free memory it must keep (low-headroom).
import { SchemaError } from '../../common/errors.js';
import { metricsOf } from '../../model/snapshot.js';
import { compareKeys } from '../../model/key-order.js';
import { formatBytes } from '../../model/units.js';
import type { EntryOf, Severity } from '../basics.js';
import { toBytes, type SizeInput } from '../tolerance.js';
import { DEVICE, defineFinding, type FindingContext } from './declaration.js';
import {
  compared,
  estimateDevicePeaks,
  PROCESS_TOTAL_ATTRIBUTE,
  PROFILER_MODULES_ATTRIBUTE,
  plural,
  type DeviceEstimate,
} from './devices.js';
import { modules } from '../../model/sections/index.js';

/** Free memory a device must keep below its capacity: a share of the capacity, or bytes. */
export type Headroom = { percent: number } | { bytes: number };

/** One device's physical memory and the headroom it must keep; `devices.devN` overrides `device` field by field. */
export interface DeviceCapacity {
  /** Physical memory of the device in bytes; no headroom verdict without it. */
  capacity?: number;
  minHeadroom?: Headroom;
}

/** The config's `device` (limits of every device) and `devices` (per-device overrides by name, `dev3`, merged field by field over `device`). */
export interface HeadroomOptions {
  device: DeviceCapacity;
  devices: Record<string, DeviceCapacity>;
}

type HeadroomStatus = 'over-capacity' | 'low-headroom';

interface DeviceLimitsInput {
  capacity?: SizeInput;
  /** "10%" (of the capacity) or a size. */
  minHeadroom?: SizeInput;
}

export const headroom = defineFinding({
  name: 'headroom',
  statuses: [
    { status: 'over-capacity', policy: 'fail', description: 'Default fail.' },
    { status: 'low-headroom', policy: 'warn', description: 'Default warn.' },
  ],
  writesPass: true,
  config: {
    device: {
      schema: {
        $ref: '#/definitions/deviceLimits',
        description:
          'Physical memory of every device and the headroom it must keep. Each device\'s estimated peak is the larger of (a) the sum of the peaks of all its modules in every device attribute (DEV_MEM, MEM_DEV_*, ...), CACHED sizes included: an UPPER BOUND, since peaks need not coincide; and (b) the process total DEV_PROC_MEM, which is never added to (a). Above `capacity`: over-capacity (fail); less than `minHeadroom` left: low-headroom (warn). Without a capacity there is no headroom verdict. Example: {"capacity": "64GiB", "minHeadroom": "10%"}. Default minHeadroom: 10%.',
      },
      defaults: { minHeadroom: { percent: 10 } } as DeviceCapacity,
      // Field by field over the defaults, and each `devices.devN` over this when judged.
      parse: (input, defaults: DeviceCapacity, file, pointer) => ({
        ...defaults,
        ...toDeviceLimits((input ?? {}) as DeviceLimitsInput, file, pointer),
      }),
    },
    devices: {
      schema: {
        type: 'object',
        description:
          'Per-device overrides by device name, merged field by field over `device`. Example: {"dev3": {"capacity": "32GiB"}}.',
        propertyNames: { title: 'a device name such as "dev3"', pattern: '^dev\\d+$' },
        additionalProperties: { $ref: '#/definitions/deviceLimits' },
      },
      defaults: {} as Record<string, DeviceCapacity>,
      parse: (input, defaults: Record<string, DeviceCapacity>, file, pointer) =>
        input === undefined
          ? defaults
          : Object.fromEntries(
              Object.entries(input as Record<string, DeviceLimitsInput>).map(([name, limits]) => [
                name,
                toDeviceLimits(limits, file, `${pointer}/${name}`),
              ]),
            ),
    },
  },
  definitions: {
    deviceLimits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        capacity: { $ref: '#/definitions/size', description: 'Physical memory of the device, e.g. "64GiB".' },
        minHeadroom: {
          title: 'a share of the capacity such as "10%", or a byte size such as "4GiB"',
          description:
            'Memory that must stay free below the capacity: a percent (at most 100%) or a size with its unit. A bare number other than 0 (10, "10") is refused: write "10%" or "10B".',
          type: ['integer', 'string'],
          minimum: 0,
          maximum: 0,
          pattern: '^\\s*(0+(\\.0+)?|\\d+(\\.\\d+)?\\s*(%|[KkMmGgTt][Ii]?[Bb]|[Bb]))\\s*$',
        },
      },
    },
  },
  writtenFor: [DEVICE],
  rejudge: { derivedFrom: ['modules'] },
  assess: assessHeadroom,
});

/** A device's limits: `devices.devN` over `device`, field by field. */
export function deviceLimits(device: string, config: HeadroomOptions): { capacity?: number; minHeadroom?: Headroom } {
  const override = Object.hasOwn(config.devices, device) ? config.devices[device] : undefined;
  return { ...config.device, ...override };
}

/** The headroom a device must keep, in bytes: a percent of the capacity rounds up. */
export function requiredHeadroom(capacity: number, minHeadroom: Headroom | undefined): number {
  if (minHeadroom === undefined) return 0;
  if ('bytes' in minHeadroom) return minHeadroom.bytes;
  return Math.ceil((capacity * minHeadroom.percent) / 100);
}

function assessHeadroom({
  baseline,
  current,
  config,
}: FindingContext<HeadroomStatus, HeadroomOptions>): EntryOf<HeadroomStatus | 'pass'>[] {
  // No capacity anywhere in the config: no device has a headroom verdict, so no estimate is needed.
  if (config.device.capacity === undefined && Object.values(config.devices).every((d) => d.capacity === undefined))
    return [];
  const before = estimateDevicePeaks(metricsOf(baseline, modules));
  const entries: EntryOf<HeadroomStatus | 'pass'>[] = [];
  for (const estimate of estimateDevicePeaks(metricsOf(current, modules)).values()) {
    const { capacity, minHeadroom } = deviceLimits(estimate.device, config);
    if (capacity === undefined) continue;
    const required = requiredHeadroom(capacity, minHeadroom);
    const headroomLimit = Math.max(0, capacity - required);
    const minimum =
      minHeadroom === undefined
        ? 'none'
        : 'percent' in minHeadroom
          ? `${minHeadroom.percent}% = ${formatBytes(required)}`
          : formatBytes(required);
    const estimateText = `estimated peak ${formatBytes(estimate.bytes)}`;
    let status: 'over-capacity' | 'low-headroom' | 'pass';
    let limit: number;
    let verdict: string;
    if (estimate.bytes > capacity) {
      status = 'over-capacity';
      limit = capacity;
      verdict = `${estimateText} is over the capacity ${formatBytes(capacity)} by ${formatBytes(estimate.bytes - capacity)}`;
    } else if (estimate.bytes > headroomLimit) {
      status = 'low-headroom';
      limit = headroomLimit;
      verdict = `${estimateText} leaves ${formatBytes(capacity - estimate.bytes)} of the capacity ${formatBytes(capacity)}, less than the minimum headroom (${minimum})`;
    } else {
      status = 'pass';
      limit = headroomLimit;
      verdict = `${estimateText} leaves ${formatBytes(capacity - estimate.bytes)} of the capacity ${formatBytes(capacity)} (minimum headroom ${minimum})`;
    }
    let severity: Severity = 'ok';
    if (status !== 'pass') {
      const policy = config.verdicts[status];
      if (policy === 'ignore') continue;
      severity = policy;
    }
    const baselineBytes = before.get(estimate.device)?.bytes ?? null;
    entries.push({
      ...compared('device', estimate.device, baselineBytes, estimate.bytes),
      status,
      severity,
      rule: null,
      unit: 'bytes',
      limit,
      capacity,
      note: `${verdict}. ${describeEstimate(estimate)}`,
    });
  }
  return entries.sort((a, b) => compareKeys(a.key, b.key));
}

function describeEstimate(estimate: DeviceEstimate): string {
  if (estimate.profilerModuleSum === null) return describePlogEstimate(estimate);
  const profiler = `the sum of the profiler's ${PROFILER_MODULES_ATTRIBUTE} module peaks (${formatBytes(estimate.profilerModuleSum)})`;
  if (estimate.moduleCount === 0 && estimate.processTotal === null)
    return `An upper bound: ${profiler}, which need not coincide`;
  const larger = estimate.profilerModuleSum > Math.max(estimate.moduleSum, estimate.processTotal ?? 0);
  return `${describePlogEstimate(estimate)}; ${profiler} is a second reading of the same memory, never added${larger ? ', and the larger: the estimate' : ''}`;
}

function describePlogEstimate(estimate: DeviceEstimate): string {
  const total = `the process total ${PROCESS_TOTAL_ATTRIBUTE} (${formatBytes(estimate.processTotal ?? 0)})`;
  if (estimate.moduleCount === 0) return `From ${total}`;
  const cached = estimate.cached > 0 ? `, CACHED ${formatBytes(estimate.cached)} included` : '';
  const modules = `the sum of ${plural(estimate.moduleCount, 'module peak')} in ${estimate.attributes.join(', ')}`;
  if (estimate.processTotal === null)
    return `An upper bound: ${modules}${cached ? ` (${cached.slice(2)})` : ''}, which need not coincide`;
  return estimate.processTotal > estimate.moduleSum
    ? `From ${total}, larger than ${modules} (${formatBytes(estimate.moduleSum)}${cached}); the two are never added`
    : `An upper bound: ${modules} (${formatBytes(estimate.moduleSum)}${cached}), which need not coincide, larger than ${total}; the two are never added`;
}

function toDeviceLimits(input: DeviceLimitsInput, file: string, pointer: string): DeviceCapacity {
  const limits: DeviceCapacity = {};
  if (input.capacity !== undefined) limits.capacity = toBytes(input.capacity, file, `${pointer}/capacity`);
  if (input.minHeadroom !== undefined)
    limits.minHeadroom = toHeadroom(input.minHeadroom, file, `${pointer}/minHeadroom`);
  return limits;
}

function toHeadroom(value: SizeInput, file: string, pointer: string): Headroom {
  const percent = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value) : null;
  if (percent === null) return { bytes: toBytes(value, file, pointer) };
  const share = Number(percent[1]);
  if (share > 100)
    throw new SchemaError(file, pointer, `must be at most 100% of the capacity, got ${JSON.stringify(value)}`);
  return { percent: share };
}
