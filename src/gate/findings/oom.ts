// The oom finding: every out-of-memory event (job log, memory snapshot) explained in one of five causes with its numbers and the one next step that fits.
//
// One entry per device and cause (`dev3/outside-allocator`), so OOMs on many devices roll up in every renderer into one
// row per cause with the device count and the worst device; the entry describes the device's largest request of that
// cause. The words are the same whichever evidence the figures came from (FORMATS-oom-messages.md §4's table).
import { originText } from '../../model/sections/allocator.js';
import { findDeviceSegment, type SegmentBounds, modules } from '../../model/sections/index.js';
import { oomModules, type OomModuleMetric } from '../../model/sections/oom-modules.js';
import { ooms, type OomMetric } from '../../model/sections/ooms.js';
import {
  DEFAULT_FRAGMENTATION_PERCENT,
  modulesCurrentOf,
  oomCause,
  oomDevice,
  oomFiguresOf,
  type OomCause,
  type OomFigures,
  type OomVerdict,
  type TotalSource,
} from '../../model/oom-cause.js';
import { metricsOf } from '../../model/snapshot.js';
import { compareKeys } from '../../model/key-order.js';
import { formatBytes } from '../../model/units.js';
import type { EntryOf, GateInput } from '../basics.js';
import { referenceCost, type ReferenceOptions } from './above-reference.js';
import { defineFinding, type FindingContext } from './declaration.js';
import { parseModuleKey } from './devices.js';
import { deviceLimits, type HeadroomOptions } from './headroom.js';

/** The config's `oom`: fragmentation needs cached >= the request and >= `fragmentationPercent` of the device (src/model/oom-cause.ts). */
export interface OomOptions {
  oom: { fragmentationPercent: number };
}

/** What the oom finding reads: its own `oom`, and the devices' capacities (headroom's) and HCCL's reference (above-reference's). */
type OomConfig = FindingContext<'oom', OomOptions & HeadroomOptions & ReferenceOptions>['config'];

export const oom = defineFinding({
  name: 'oom',
  statuses: [
    {
      status: 'oom',
      policy: 'fail',
      description:
        "An out-of-memory of the caching allocator: a job log's OOM message or a memory snapshot trace's `oom` entry, explained as one of five causes (request larger than the device, refused with free memory, held outside the allocator, fragmentation, capacity). Default fail.",
    },
  ],
  config: {
    oom: {
      schema: {
        type: 'object',
        additionalProperties: false,
        description:
          "How an out-of-memory's cause is decided (job logs, memory snapshots): fragmentation when the memory PyTorch cached but had not allocated is at least the request and at least `fragmentationPercent` of the device.",
        properties: {
          fragmentationPercent: {
            title: 'a percent from 0 to 100',
            type: 'number',
            minimum: 0,
            maximum: 100,
            description: `Default ${DEFAULT_FRAGMENTATION_PERCENT}.`,
          },
        },
      },
      defaults: { fragmentationPercent: DEFAULT_FRAGMENTATION_PERCENT } as OomOptions['oom'],
      parse: (raw: unknown, defaults: OomOptions['oom']) => ({
        fragmentationPercent:
          (raw as { fragmentationPercent?: number } | undefined)?.fragmentationPercent ?? defaults.fragmentationPercent,
      }),
    },
  },
  writtenFor: ['ooms'],
  rejudge: { kept: 'the job log or memory snapshot the OOM was read from', withVerdict: [] },
  // Reads `device`/`devices` (capacities) and `profile`/`hccl` too: the gate passes every finding the whole config.
  assess: (context) => assessOoms(context as FindingContext<'oom', OomOptions & HeadroomOptions & ReferenceOptions>),
});

/** Holders named in a note: allocation sites, torch_npu modules, driver modules. */
const NAMED = 3;

/** How each cause is named at the start of its note. */
const CAUSE_TITLES: Record<OomCause, string> = {
  'request-exceeds-device': 'Request larger than the device',
  'free-but-refused': 'Refused with free memory',
  'outside-allocator': 'Held outside the allocator',
  fragmentation: 'Fragmentation',
  capacity: 'Capacity',
  unknown: 'Cause unknown',
};

/** The one next step per cause (FORMATS-oom-messages.md §4). */
const NEXT_STEPS: Record<OomCause, string> = {
  'request-exceeds-device':
    'No setting makes this one tensor fit: split or shard it (sequence or tensor parallel, chunked attention, a fused kernel), or use a device with more memory.',
  'free-but-refused':
    'Raise or remove the per-process memory fraction (set_per_process_memory_fraction), check `npu-smi info` for how the driver splits the free memory, and retry with PYTORCH_NPU_ALLOC_CONF=expandable_segments:True.',
  'outside-allocator':
    "Find what holds it: `npu-smi info` for other processes on the device (from a container that sees every device), HCCL_BUFFSIZE for HCCL's buffers, and the framework's own memory-utilisation setting (a serving engine's pool).",
  fragmentation:
    'Set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True so segments grow in place instead of leaving holes (or max_split_size_mb below the request).',
  capacity:
    'Hold less at that point: a smaller micro-batch, activation recomputation, ZeRO or tensor parallel, offload.',
  unknown: '',
};

/** One OOM event read back for the rule and the note. */
interface OomEvent {
  key: string;
  metric: OomMetric;
  device: string;
  figures: OomFigures;
  verdict: OomVerdict;
  totalFrom: TotalSource | null;
}

/**
 * `oom` for every out-of-memory event of the run, whatever the baseline (like alloc-failure): one entry per device and
 * cause, its note saying which cause, with the numbers, and the next step.
 */
function assessOoms({
  current,
  config,
}: FindingContext<'oom', OomOptions & HeadroomOptions & ReferenceOptions>): EntryOf<'oom'>[] {
  const policy = config.verdicts.oom;
  if (policy === 'ignore') return [];
  const tables = metricsOf(current, oomModules);
  const byEntry = new Map<string, OomEvent[]>();
  const settings = { capacityOf: (device: string) => deviceLimits(device, config).capacity ?? null };
  for (const [key, metric] of Object.entries(metricsOf(current, ooms))) {
    const device = oomDevice(key);
    if (device === null) continue;
    const { figures, totalFrom } = oomFiguresOf(metric, device, modulesCurrentOf(tables, device), settings);
    const verdict = oomCause(figures, config.oom.fragmentationPercent);
    const id = `${device}/${verdict.cause}`;
    byEntry.set(id, [...(byEntry.get(id) ?? []), { key, metric, device, figures, verdict, totalFrom }]);
  }
  const entries: EntryOf<'oom'>[] = [];
  for (const [key, events] of [...byEntry].sort((a, b) => compareKeys(a[0], b[0]))) {
    // The device's largest request of this cause speaks for the others; ties by key, so the order of files never matters.
    events.sort((a, b) => b.figures.requested - a.figures.requested || compareKeys(a.key, b.key));
    const worst = events[0] as OomEvent;
    const more = events.length - 1;
    const tail =
      more === 0
        ? ''
        : ` ${more} more OOM${more === 1 ? '' : 's'} of this cause on ${worst.device} (${events
            .slice(1, 1 + NAMED)
            .map((e) => e.key)
            .join(', ')}${more > NAMED ? ', …' : ''}).`;
    entries.push({
      kind: ooms.kind,
      key,
      baseline: null,
      current: worst.figures.requested,
      delta: null,
      percent: null,
      status: 'oom',
      severity: policy,
      rule: null,
      unit: 'bytes',
      note: explainOom(worst, current, config) + tail,
    });
  }
  return entries;
}

/** What a memory engineer says about one OOM: the cause with its numbers, the next step, the joined evidence, where it came from. */
function explainOom(event: OomEvent, current: GateInput, config: OomConfig): string {
  const { metric: m, figures: f, verdict, device } = event;
  const R = formatBytes(f.requested);
  const b = (n: number | null): string => (n === null ? '?' : formatBytes(n));
  const T = b(f.total);
  const totalNote =
    event.totalFrom === 'config'
      ? ' (the configured capacity)'
      : event.totalFrom === 'memUsageInfo'
        ? " (torch_npu's module table plus the free memory)"
        : '';
  const allowed = m.allowed ?? null;
  let text: string;
  switch (verdict.cause) {
    case 'request-exceeds-device':
      text = `${R} were requested on a device of ${T}${totalNote}.`;
      break;
    case 'free-but-refused':
      text =
        `the driver reported ${b(f.deviceFree)} free, at least the ${R} requested, yet the allocator refused` +
        `${allowed === null ? '' : `: a memory-fraction cap of ${formatBytes(allowed)} was set`}.`;
      break;
    case 'outside-allocator':
      text =
        `of the ${T} device${totalNote}, PyTorch reserved ${b(f.reserved)} and ${b(f.deviceFree)} were free, so ${b(verdict.outside)} were held outside PyTorch's allocator ` +
        `(more than inside it) when ${R} were requested.${processesText(m)}`;
      break;
    case 'fragmentation':
      text =
        `PyTorch held ${b(verdict.cached)} reserved but unallocated (${b(f.reserved)} reserved, ${b(f.allocated)} allocated), more than the ${R} requested, ` +
        `but in no block that large${largestText(m, f.requested)}; ${b(f.deviceFree)} were free on the ${T} device${totalNote}.`;
      break;
    case 'capacity':
      text =
        `the program's own tensors filled the device: ${b(f.allocated)} allocated and ${b(f.reserved)} reserved of ${T}${totalNote}, ${b(f.deviceFree)} free, ` +
        `${b(verdict.cached)} cached (${capacityCached(f, verdict, config)}).`;
      break;
    default:
      text = `${R} were requested${f.deviceFree === null ? '' : ` with ${b(f.deviceFree)} free`}${f.total === null ? '' : ` on a ${T} device`}, but ${unknownWhy(f)}.`;
  }
  const step = NEXT_STEPS[verdict.cause];
  const joined = joinedEvidence(event, current, config);
  const approx =
    m.precision === 'printed' ? ' Figures as the message printed them (rounded to 0.01 of their unit).' : '';
  return `${CAUSE_TITLES[verdict.cause]}: ${text}${step === '' ? '' : ` ${step}`}${joined}${approx} ${whereText(m, device)}`;
}

/** Why the cached bytes were no fragmentation. */
function capacityCached(f: OomFigures, verdict: OomVerdict, config: OomConfig): string {
  const cached = verdict.cached ?? 0;
  const largest = f.largestFreeBlock ?? null;
  if (largest !== null && largest >= f.requested && cached >= f.requested) {
    return `a free block of ${formatBytes(largest)} at dump time was as large as the request, yet could not serve it: it belongs to another stream or memory pool`;
  }
  return cached < f.requested
    ? `less than the ${formatBytes(f.requested)} requested`
    : `under ${config.oom.fragmentationPercent}% of the device`;
}

/** Why the rule could not decide, and what would tell. */
function unknownWhy(f: OomFigures): string {
  if (f.total === null)
    return "the device's total memory is not known: set `device.capacity` in the config (or keep torch_npu's memUsageInfo CSV beside the OOM dump)";
  return "the message does not say how much PyTorch allocated and reserved: a memory snapshot (OOM_SNAPSHOT_ENABLE=1) or the plog's module figures would tell";
}

function processesText(m: OomMetric): string {
  const own = m.processTotal ?? null;
  const list = parsedPairs(m.processes);
  const parts: string[] = [];
  if (list.length > 0)
    parts.push(
      `the driver listed ${list
        .slice(0, NAMED)
        .map(([pid, bytes]) => `process ${pid} with ${formatBytes(bytes)}`)
        .join(', ')}${list.length > NAMED ? ', …' : ''}`,
    );
  if (own !== null) parts.push(`this process held ${formatBytes(own)} including non-PyTorch memory`);
  return parts.length === 0 ? '' : ` On the device ${parts.join('; ')}.`;
}

function largestText(m: OomMetric, requested: number): string {
  const largest = m.largestFreeBlock;
  if (largest === null || largest >= requested) return '';
  return ` (the largest free block: ${formatBytes(largest)}, ${m.entriesAfter === 0 ? 'at dump time, which the OOM triggered' : 'at dump time'})`;
}

/** The evidence the run has beside the OOM: allocation sites and torch_npu's module table (snapshots), the plog's driver modules. */
function joinedEvidence(event: OomEvent, current: GateInput, config: OomConfig): string {
  const { metric: m, verdict, device, key } = event;
  let out = '';
  const sites = holdersText(m.sites);
  if (sites !== '' && (verdict.cause === 'capacity' || verdict.cause === 'fragmentation'))
    out += ` Largest holders at the OOM: ${sites}.`;
  const table = modulesText(key, metricsOf(current, oomModules));
  if (table !== '') out += ` torch_npu's module table at the OOM: ${table}.`;
  if (verdict.cause === 'outside-allocator') out += driverText(device, current, config);
  return out;
}

/** What the plog's driver statistics saw on the device beyond the application's pool, at their peaks, and HCCL against its configured estimate. */
function driverText(device: string, current: GateInput, config: OomConfig): string {
  const peaks = new Map<string, number>();
  for (const [key, metric] of Object.entries(metricsOf(current, modules))) {
    const parts = parseModuleKey(key);
    if (parts === null || parts.device !== device || parts.attribute !== 'DEV_MEM' || parts.module === 'APP') continue;
    peaks.set(parts.module, Math.max(peaks.get(parts.module) ?? 0, metric.peak));
  }
  if (peaks.size === 0) return '';
  const listed = [...peaks].sort((a, b) => b[1] - a[1] || compareKeys(a[0], b[0])).slice(0, NAMED);
  let out = ` The plog's driver statistics for ${device} saw beyond PyTorch's pool: ${listed.map(([module, peak]) => `${module} ${formatBytes(peak)}`).join(', ')} at their peaks.`;
  const hccl = peaks.get('HCCL');
  const reference = hccl === undefined ? null : referenceCost('HCCL', config.profile, config.hccl);
  if (hccl !== undefined && reference !== null) {
    const ratio = reference.bytes === 0 ? null : hccl / reference.bytes;
    out += ` HCCL's ${formatBytes(hccl)} against ${reference.basis} = ${formatBytes(reference.bytes)}${ratio === null ? '' : ` (${ratio.toFixed(1)}x)`}.`;
  } else if (hccl !== undefined) {
    out += ' Configure `hccl` (links, domains, buffSize) to compare HCCL with its estimate.';
  }
  return out;
}

function whereText(m: OomMetric, device: string): string {
  if (m.source === 'job log' || m.source === 'msMemScope dump') {
    const line = m.line ?? null;
    const times = m.printed ?? 1;
    const mapped =
      m.visibleDevices === null
        ? ''
        : `, where it is npu:${m.logicalDevice} of ASCEND_RT_VISIBLE_DEVICES=${m.visibleDevices}`;
    return `From ${m.file}${line === null ? '' : `:${line}`}${times > 1 ? ` (printed ${times} times)` : ''}${mapped}.`;
  }
  void device;
  return originText(m);
}

function parsedPairs(value: string | null | undefined): [number | string, number][] {
  if (typeof value !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (p): p is [number | string, number] =>
      Array.isArray(p) && (typeof p[0] === 'number' || typeof p[0] === 'string') && typeof p[1] === 'number',
  );
}

function holdersText(sites: string): string {
  return parsedPairs(sites)
    .slice(0, NAMED)
    .map(([site, bytes]) => `${site} ${formatBytes(bytes)}`)
    .join(', ');
}

/** The device's largest torch_npu modules (memUsageInfo): `PTA 24.6 GiB (peak 36.6 GiB)`. */
function modulesText(key: string, tables: Readonly<Record<string, OomModuleMetric>>): string {
  const bounds: SegmentBounds = { start: 0, end: 0 };
  if (!findDeviceSegment(key, bounds)) return '';
  const prefix = `${key.slice(0, bounds.end)}/`;
  return Object.entries(tables)
    .filter(([k]) => k.startsWith(prefix))
    .sort((a, b) => b[1].current - a[1].current || compareKeys(a[0], b[0]))
    .slice(0, NAMED)
    .map(([k, m]) => `${k.slice(prefix.length)} ${formatBytes(m.current)} (peak ${formatBytes(m.peak)})`)
    .join(', ');
}

/** Whether a stored cause is one of the six (for readers of older files). */
