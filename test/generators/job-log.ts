// A CI job's training log for the bench (bench/run.mjs): progress lines of a torchrun job, then one torch_npu OOM.
import { closeSync, openSync, writeSync } from 'node:fs';
import { MiB } from '../helpers/story.js';

/** The OOM the generated log ends with (torch_npu's parenthesised form behind a torchrun prefix). */
const JOB_LOG_OOM =
  '[rank3]: RuntimeError: NPU out of memory. Tried to allocate 1.50 GiB (NPU 3; 60.97 GiB total capacity; 41.20 GiB already allocated; 41.20 GiB current active; 1.10 GiB free; 44.31 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.\n';

/** One progress line: CI timestamp, rank prefix, loss and throughput (~150 bytes). */
function progressLine(step: number): string {
  const time = `2026-12-04T10:${String((step >> 6) % 60).padStart(2, '0')}:${String(step % 60).padStart(2, '0')}.${String(step % 1000).padStart(3, '0')}Z`;
  return `${time} [rank${step % 8}]: step ${step} | loss ${(2 + ((step * 7919) % 1000) / 1000).toFixed(4)} | lr 1.0e-04 | grad_norm ${(((step * 104729) % 1000) / 1000).toFixed(3)} | tokens/s ${50000 + (step % 4096)} | mem 48.21 GiB\n`;
}

/** Writes a log of about `bytes`: progress lines, then the OOM. Returns its size and line count. */
export function writeJobLog(file: string, bytes: number): { bytes: number; lines: number } {
  const fd = openSync(file, 'w');
  let written = 0;
  let lines = 0;
  try {
    const batch: string[] = [];
    let batchBytes = 0;
    for (let step = 0; written + batchBytes < bytes; step++) {
      const line = progressLine(step);
      batch.push(line);
      batchBytes += line.length;
      lines++;
      if (batchBytes >= 4 * MiB) {
        written += writeSync(fd, batch.join(''));
        batch.length = 0;
        batchBytes = 0;
      }
    }
    written += writeSync(fd, batch.join('') + JOB_LOG_OOM);
    lines++;
  } finally {
    closeSync(fd);
  }
  return { bytes: written, lines };
}
