// Generated torch_npu memory_record.csv timelines for the growing verdict's tests (unit and end-to-end).

const SECOND = 1_000_000; // µs
const A3 = 'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type';

/**
 * A memory_record.csv of `windows` one-second windows (10 PTA rows each, plus one APP row), PTA allocated in MB given
 * by level(window, row); PTA reserved flat at 8192 MB, APP flat at 9000 MB. Window 0 starts at 1,700,000,000 s.
 */
export function memoryRecord(windows: number, level: (w: number, r: number) => number | null): string {
  const lines = [A3];
  const t0 = 1_700_000_000 * SECOND;
  for (let w = 0; w < windows; w++) {
    lines.push(`APP,${t0 + w * SECOND}.000\t,,9000.0,,,NPU:0`);
    for (let r = 0; r < 10; r++) {
      const mb = level(w, r);
      if (mb === null) continue;
      // Whole multiples of 1/1024 MB, as the allocator's 512-byte-aligned blocks give.
      const text = (Math.round(mb * 1024) / 1024).toString();
      lines.push(`PTA,${t0 + w * SECOND + r * 1000 + 500}.000\t,${text},8192.0,${text},2,NPU:0`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
