// Reads the figures of one caching-allocator OOM message (torch_npu's parenthesised form, PyTorch ≥ 2.1's sentences), from the text after its `out of memory` hit.
//
// Checked against the code that prints them: Ascend/pytorch torch_npu/csrc/core/npu/NPUCachingAllocator.cpp (master
// 9e73e708a, 2026-08-21: `format_size`, malloc's "NPU out of memory. Tried to allocate … (NPU d; T total capacity;
// A already allocated; X current active; F free; [P allowed; ]V reserved in total by PyTorch)."), and pytorch/pytorch
// c10/cuda/CUDACachingAllocator.cpp (001074d2: "CUDA out of memory. Tried to allocate R. GPU d has a total capacity of T
// of which F is free. [Process N has M memory in use. | Including non-PyTorch memory, this process has W memory in
// use. ][P allowed; ]Of the allocated memory A is allocated by PyTorch, [with P allocated in private pools (e.g., CUDA
// Graphs), ]and C is reserved by PyTorch but unallocated.").

/** An OOM message's figures, in bytes as printed (format_size: two decimals of bytes, KiB, MiB or GiB); null where it does not say. */
export interface OomMessage {
  device: number | null;
  requested: number;
  total: number | null;
  allocated: number | null;
  active: number | null;
  deviceFree: number | null;
  allowed: number | null;
  reserved: number | null;
  /** "Including non-PyTorch memory, this process has W memory in use." */
  processTotal: number | null;
  /** "Process N has M memory in use." per process the driver listed: [pid, bytes]. */
  processes: [number, number][];
  /** `parenthesised` (torch_npu, PyTorch < 2.1) or `sentences` (PyTorch ≥ 2.1); `request only` when nothing after the request survived. */
  form: 'parenthesised' | 'sentences' | 'request only';
}

const UNIT: Record<string, number> = {
  bytes: 1,
  B: 1,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  TiB: 1024 ** 4,
  PiB: 1024 ** 5,
  EiB: 1024 ** 6,
};

/** A printed size: digits with an optional fraction, a space, a unit. `xxx MiB` and `X.XX GiB` (placeholders) do not match. */
const SIZE = String.raw`(\d{1,19}(?:\.\d{1,6})?) ?(bytes|B|KiB|MiB|GiB|TiB|PiB|EiB)\b`;

const REQUEST = new RegExp(
  String.raw`^\W{0,3}(?:Tried to allocate ${SIZE}|Allocation was preemptively rejected\b[^.]*\.\s*Requested size: ${SIZE}|Tried to allocate more than 1EB memory)`,
);
const PAREN_HEAD = /^\s*\((?:NPU|GPU|XPU|CUDA) (\d{1,9});/;
const PAREN_FIELD = new RegExp(
  String.raw`^\s*${SIZE} (total capacity|already allocated|current active|free|allowed|reserved in total by PyTorch|cached)\b`,
);
const SENTENCE_DEVICE = new RegExp(
  String.raw`^\s*\.?\s*(?:NPU|GPU|XPU|CUDA) (\d{1,9}) has a total capac(?:i)?ty of ${SIZE} of which ${SIZE} is free\.`,
);
const PROCESS = new RegExp(String.raw`Process (\d{1,10}) has ${SIZE} memory in use\.`, 'g');
const THIS_PROCESS = new RegExp(String.raw`Including non-PyTorch memory, this process has ${SIZE} memory in use\.`);
const ALLOWED = new RegExp(String.raw`${SIZE} allowed;`);
const OF_ALLOCATED = new RegExp(
  String.raw`Of the allocated memory ${SIZE} is allocated by PyTorch,(?: with ${SIZE} allocated in private pools \(e\.g\., CUDA Graphs\),)? and ${SIZE} is reserved by PyTorch but unallocated`,
);

/** 1 EiB: "Tried to allocate more than 1EB memory" (torch_npu) names no figure but this bound. */
const ONE_EB = 1024 ** 6;

/** The processes listed per message at most (a device shared by many processes). */
const MAX_PROCESSES = 16;

/** Bytes of a printed size, rounded to a byte; null past 2^53 − 1 (no exact byte figure). */
function bytesOf(digits: string | undefined, unit: string | undefined): number | null {
  if (digits === undefined || unit === undefined) return null;
  const scale = UNIT[unit];
  if (scale === undefined) return null;
  const value = Math.round(Number(digits) * scale);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * The figures of the message whose text starts right after `out of memory` (so `text` begins with `. Tried to
 * allocate …`), or null when no request figure follows (a placeholder, another tool's "out of memory", a line cut before
 * the size). Partial messages keep what survived.
 */
export function readOomMessage(text: string): OomMessage | null {
  const head = REQUEST.exec(text);
  if (head === null) return null;
  const requested =
    head[1] !== undefined ? bytesOf(head[1], head[2]) : head[3] !== undefined ? bytesOf(head[3], head[4]) : ONE_EB;
  if (requested === null) return null;
  const message: OomMessage = {
    device: null,
    requested,
    total: null,
    allocated: null,
    active: null,
    deviceFree: null,
    allowed: null,
    reserved: null,
    processTotal: null,
    processes: [],
    form: 'request only',
  };
  const rest = text.slice(head[0].length);
  const paren = PAREN_HEAD.exec(rest);
  if (paren !== null) {
    const close = rest.indexOf(')');
    readParenthesised(message, Number(paren[1]), rest.slice(paren[0].length, close === -1 ? undefined : close));
    return message;
  }
  const sentence = SENTENCE_DEVICE.exec(rest);
  if (sentence !== null) readSentences(message, sentence, rest.slice(sentence[0].length));
  return message;
}

/** The `(NPU 0; 60.97 GiB total capacity; …)` form: one figure per `;`-separated part. */
function readParenthesised(message: OomMessage, device: number, fields: string): void {
  message.form = 'parenthesised';
  message.device = device;
  let cached: number | null = null;
  for (const part of fields.split(';')) {
    const field = PAREN_FIELD.exec(part);
    if (field === null) continue;
    const bytes = bytesOf(field[1], field[2]);
    switch (field[3]) {
      case 'total capacity':
        message.total = bytes;
        break;
      case 'already allocated':
        message.allocated = bytes;
        break;
      case 'current active':
        message.active = bytes;
        break;
      case 'free':
        message.deviceFree = bytes;
        break;
      case 'allowed':
        message.allowed = bytes;
        break;
      case 'reserved in total by PyTorch':
        message.reserved = bytes;
        break;
      case 'cached':
        cached = bytes;
        break;
    }
  }
  // Very old PyTorch: "…; F free; C cached)": reserved is A + C.
  if (message.reserved === null && cached !== null && message.allocated !== null)
    message.reserved = message.allocated + cached;
}

/** The `NPU 0 has a total capacity of … Of the allocated memory …` form (PyTorch ≥ 2.1). */
function readSentences(message: OomMessage, sentence: RegExpExecArray, after: string): void {
  message.form = 'sentences';
  message.device = Number(sentence[1]);
  message.total = bytesOf(sentence[2], sentence[3]);
  message.deviceFree = bytesOf(sentence[4], sentence[5]);
  PROCESS.lastIndex = 0;
  for (let m = PROCESS.exec(after); m !== null && message.processes.length < MAX_PROCESSES; m = PROCESS.exec(after)) {
    const bytes = bytesOf(m[2], m[3]);
    if (bytes !== null) message.processes.push([Number(m[1]), bytes]);
  }
  const own = THIS_PROCESS.exec(after);
  if (own !== null) message.processTotal = bytesOf(own[1], own[2]);
  const allowed = ALLOWED.exec(after);
  if (allowed !== null) message.allowed = bytesOf(allowed[1], allowed[2]);
  const of = OF_ALLOCATED.exec(after);
  if (of !== null) {
    // The printed "allocated by PyTorch" already includes private pools; V = A + C.
    message.allocated = bytesOf(of[1], of[2]);
    const cached = bytesOf(of[5], of[6]);
    message.reserved = message.allocated === null || cached === null ? null : message.allocated + cached;
  }
}
