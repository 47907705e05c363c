// A memory snapshot file (`{segments, device_traces}` or a bare segment list) to its figures per device, in one forward pass.
import { InputError } from '../../common/errors.js';
import { DumpState, TraceWalk, untracedFigures, type Address, type DeviceFigures } from './allocator-walk.js';
import {
  MemoFetches,
  PickleFloat,
  PickleTuple,
  readPickle,
  type PickleDict,
  type PickleDocument,
  type PickleValue,
  type StreamedItems,
  within64Bits,
} from './pickle-reader.js';
import { SiteNames } from './sites.js';
import { WorkBudget } from './work-budget.js';

/** One device of the file (its index is the process's logical device index: segment.device, device_traces[N]). */
export interface SnapshotDevice extends DeviceFigures {
  device: number;
  dump: DumpState;
  /** Trace entries by action (actions outside the format's table included: counted, nothing else). */
  actions: ReadonlyMap<string, number>;
}

export interface SnapshotFigures {
  /** Devices in index order. */
  devices: SnapshotDevice[];
  /** `dict` (torch_npu's `_dump_snapshot`) or `list` (a pickled `memory_snapshot()`: segments only). */
  topLevel: 'dict' | 'list';
  /** Lists in device_traces (one per device the allocator knew, mostly empty). */
  traceLists: number;
  segments: number;
  protocol: number;
  /** Bytes after STOP (left by a dump onto an older, longer file). */
  trailingBytes: number;
}

const LIVE_STATES = new Set(['active_allocated', 'active_pending_free']);

/** Why a segment, block or trace entry met a second time is refused (walking it again would cost its size per 2 bytes of file). */
const PLACED_TWICE =
  "torch's _snapshot() never shares a segment, block or trace entry between two places, so no torch wrote this file: refused, nothing of it was used";

/** Throws when `value` is placed a second time by a memo fetch; `what` names it. */
type Once = (value: PickleValue | undefined, what: () => string) => void;

/** Reads the snapshot at `path` (`name` in messages). Throws an InputError naming the file and where it is wrong. */
export function snapshotFigures(
  path: string,
  name: string,
  fileSize: number,
  work = new WorkBudget(name, fileSize),
): SnapshotFigures {
  const names = new SiteNames(work);
  const dumps = new Map<number, DumpState>();
  const walks = new Map<number, TraceWalk>();
  let segmentIndex = 0;
  const dumpOf = (device: number): DumpState => {
    let dump = dumps.get(device);
    if (dump === undefined) dumps.set(device, (dump = new DumpState()));
    return dump;
  };
  const walkOf = (device: number): TraceWalk => {
    let walk = walks.get(device);
    if (walk === undefined) walks.set(device, (walk = new TraceWalk(work, names)));
    return walk;
  };
  const memoFetches = new MemoFetches();
  const once = placedOnce(name, memoFetches);
  const checked = checkedIn(name);
  const addSegments = (items: readonly PickleValue[]): void => {
    work.charge(items.length, 'walking segments');
    for (const item of items) {
      const index = segmentIndex++;
      once(item, () => `segment ${index}`);
      checked(
        () => `segment ${index}`,
        () => addSegment(item, dumpOf, (value, what) => once(value, () => `segment ${index}'s ${what()}`), work),
      );
    }
  };
  const addEntries = (device: number, items: readonly PickleValue[]): void => {
    const walk = walkOf(device);
    for (const item of items) {
      once(item, () => `device_traces[${device}][${walk.entries}]`);
      checked(
        () => `device_traces[${device}][${walk.entries}]`,
        () => addEntry(item, walk),
      );
    }
  };

  const streamedItems: StreamedItems = { segments: addSegments, traceEntries: addEntries };
  const document = readPickle(path, name, streamedItems, memoFetches, work);
  const top = document.value;
  let topLevel: SnapshotFigures['topLevel'];
  let traceLists = 0;
  if (Array.isArray(top)) {
    topLevel = 'list';
    if (document.streamed.segments !== null && document.streamed.segments !== top) throw layoutError(name);
    addSegments(top);
  } else if (top instanceof Map) {
    topLevel = 'dict';
    traceLists = readSnapshotDict(top, name, document.streamed, streamedItems, once);
  } else {
    throw new InputError(
      `${name}: the pickle holds ${describe(top)}, not a memory snapshot (a dict of segments and device_traces, or a list of segments)`,
    );
  }

  return {
    devices: finishDevices(dumps, walks, (dump) => untracedFigures(dump, names, work), checked),
    topLevel,
    traceLists,
    segments: segmentIndex,
    protocol: document.protocol,
    trailingBytes: fileSize - document.end,
  };
}

/** Throws when a value is placed a second time by a memo fetch (see PLACED_TWICE). */
function placedOnce(name: string, memoFetches: MemoFetches): Once {
  return (value, what) => {
    const at = memoFetches.of(value);
    if (at !== undefined)
      throw new InputError(
        `${name}: byte ${at}: ${what()} is placed a second time here, by a memo fetch: ${PLACED_TWICE}`,
      );
  };
}

/** Runs `read`; a field that is not what the format says becomes an InputError naming the file and `where`. */
type Checked = <T>(where: () => string, read: () => T) => T;

function checkedIn(name: string): Checked {
  return <T>(where: () => string, read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof FieldError || error instanceof RangeError)
        throw new InputError(`${name}: ${where()}: ${error.message}`);
      throw error;
    }
  };
}

/**
 * A top-level dict (`{segments, device_traces}`): its segments, then each device's trace list. Returns how many lists
 * device_traces holds.
 */
function readSnapshotDict(
  top: PickleDict,
  name: string,
  streamed: PickleDocument['streamed'],
  read: StreamedItems,
  once: Once,
): number {
  const segments = top.get('segments');
  const traces = top.get('device_traces');
  if (!Array.isArray(segments))
    throw new InputError(`${name}: the top-level dict has no 'segments' list: not a memory snapshot`);
  if (traces !== undefined && !Array.isArray(traces))
    throw new InputError(`${name}: 'device_traces' is not a list: not a memory snapshot`);
  if (streamed.segments !== null && streamed.segments !== segments) throw layoutError(name);
  // Lists the reader did not stream (a layout no known writer uses) are read now, whole.
  read.segments(segments);
  const lists = traces ?? [];
  for (const [device, list] of streamed.traces) if (lists[device] !== list) throw layoutError(name);
  lists.forEach((list, device) => {
    if (!Array.isArray(list))
      throw new InputError(`${name}: device_traces[${device}] is not a list: not a memory snapshot`);
    if (list.length > 0 && streamed.traces.has(device)) throw layoutError(name);
    // A streamed list is empty by now: placing it again costs nothing. A full one would be walked again.
    if (list.length > 0) once(list, () => `device_traces[${device}]`);
    if (list.length > 0) read.traceEntries(device, list);
  });
  return lists.length;
}

/** Every device with segments or trace entries, in index order, with its figures. */
function finishDevices(
  dumps: ReadonlyMap<number, DumpState>,
  walks: ReadonlyMap<number, TraceWalk>,
  untraced: (dump: DumpState) => DeviceFigures,
  checked: Checked,
): SnapshotDevice[] {
  const indices = [...new Set([...dumps.keys(), ...[...walks].filter(([, w]) => w.entries > 0).map(([d]) => d)])].sort(
    (a, b) => a - b,
  );
  return indices.map((device): SnapshotDevice => {
    const dump = dumps.get(device) ?? new DumpState();
    const walk = walks.get(device);
    const figures = checked(
      () => `device ${device}`,
      () => (walk !== undefined && walk.entries > 0 ? walk.finish(dump) : untraced(dump)),
    );
    return { device, dump, actions: walk?.actions ?? new Map(), ...figures };
  });
}

function layoutError(name: string): InputError {
  return new InputError(
    `${name}: its segments or traces are laid out in a way no torch_npu or PyTorch writer uses (a list filled from two places): not read`,
  );
}

/** A field that is not what the format says: the caller adds where it is. */
class FieldError extends Error {}

function addSegment(item: PickleValue, dumpOf: (device: number) => DumpState, once: Once, work: WorkBudget): void {
  const segment = dict(item, 'is not a dict');
  const device = deviceIndex(segment.get('device'));
  const total = bytes(segment, 'total_size');
  const allocated = bytes(segment, 'allocated_size');
  const dump = dumpOf(device);
  dump.addSegment(total, allocated);
  const blocks = segment.get('blocks');
  if (blocks === undefined) return;
  if (!Array.isArray(blocks)) throw new FieldError("'blocks' is not a list");
  once(blocks, () => 'blocks list');
  work.charge(8 * blocks.length, 'walking segments');
  for (let i = 0; i < blocks.length; i++) {
    once(blocks[i], () => `block ${i}`);
    const block = dict(blocks[i] as PickleValue, `block ${i} is not a dict`);
    const state = block.get('state');
    if (typeof state !== 'string') throw new FieldError(`block ${i}: 'state' is not a string`);
    if (state === 'inactive') dump.addFreeBlock(bytes(block, 'size', `block ${i}: `));
    else if (LIVE_STATES.has(state)) {
      dump.addLiveBlock(address(block.get('address'), `block ${i}: 'address'`), {
        size: bytes(block, 'requested_size', `block ${i}: `),
        frames: block.get('frames'),
      });
    }
  }
}

function addEntry(item: PickleValue, walk: TraceWalk): void {
  const entry = dict(item, 'is not a dict');
  const action = entry.get('action');
  if (typeof action !== 'string') throw new FieldError("'action' is not a string");
  switch (action) {
    case 'alloc':
      walk.alloc(address(entry.get('addr'), "'addr'"), bytes(entry, 'size'), entry.get('frames'));
      break;
    case 'free_completed':
      walk.freeCompleted(address(entry.get('addr'), "'addr'"), bytes(entry, 'size'), entry.get('frames'));
      break;
    case 'segment_alloc':
    case 'segment_map':
      walk.segment(bytes(entry, 'size'));
      break;
    case 'segment_free':
    case 'segment_unmap':
      walk.segment(-bytes(entry, 'size'));
      break;
    case 'oom':
      walk.oom(bytes(entry, 'size'), bytes(entry, 'device_free'));
      break;
    default:
    // free_requested, snapshot, workspace_snapshot and actions of newer writers change nothing.
  }
  walk.next(action);
}

function dict(value: PickleValue, what: string): PickleDict {
  if (!(value instanceof Map)) throw new FieldError(what);
  return value;
}

/** A byte count: a non-negative integer of at most 2^53 − 1. */
function bytes(record: PickleDict, key: string, prefix = ''): number {
  const value = record.get(key);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value > 0n)
    throw new FieldError(`${prefix}'${key}' is ${value} bytes, past 2^53 - 1: no exact byte figure can hold it`);
  throw new FieldError(`${prefix}'${key}' is ${value === undefined ? 'missing' : describe(value)}, not a byte count`);
}

function address(value: PickleValue | undefined, what: string): Address {
  if ((typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'bigint' && within64Bits(value)))
    return value;
  // V8 hashes a bigint by its lowest 64 bits: wider ones sharing them would make every address Map compare them whole.
  if (typeof value === 'bigint') throw new FieldError(`${what} is ${value}, past 64 bits: not an address`);
  throw new FieldError(`${what} is ${value === undefined ? 'missing' : describe(value)}, not an address`);
}

function deviceIndex(value: PickleValue | undefined): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1e9) return value;
  throw new FieldError(`'device' is ${value === undefined ? 'missing' : describe(value)}, not a device index`);
}

function describe(value: PickleValue): string {
  if (value === null) return 'None';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Map) return 'a dict';
  if (value instanceof PickleTuple) return 'a tuple';
  if (value instanceof PickleFloat) return `the float ${value.value}`;
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return String(value);
}
