// Time without Date for the generated logs: civil dates from day numbers (Howard Hinnant's algorithm), a process's clock.

/** "00" … "99" and "000" … "999": the padded fields of a time stamp. */
export const P2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
export const P3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Microseconds since the epoch of the job's start: 2025-09-01 12:00:00 (log time has no zone). */
export const JOB_START_US = (daysFromCivil(2025, 9, 1) * 86400 + 12 * 3600) * 1e6;

/** A process's log clock: `2025-09-01-12:00:00.123.456`, with the per-second part cached. */
export class LogClock {
  private sec = -1;
  private secText = '';

  constructor(private us: number) {}

  advance(us: number): void {
    this.us += us;
  }
  private secondText(sec: number): string {
    if (sec !== this.sec) {
      this.sec = sec;
      const [y, mo, d] = civilFromDays(Math.floor(sec / 86400));
      const s = sec % 86400;
      this.secText = `${y}-${P2[mo]}-${P2[d]}-${P2[Math.floor(s / 3600)]}:${P2[Math.floor(s / 60) % 60]}:${P2[s % 60]}`;
    }
    return this.secText;
  }
  /** Log line time stamp. */
  stamp(): string {
    const sec = Math.floor(this.us / 1e6);
    const frac = this.us - sec * 1e6;
    return `${this.secondText(sec)}.${P3[Math.floor(frac / 1000)]}.${P3[frac % 1000]}`;
  }
  /** File name time stamp: YYYYMMDDhhmmssSSS. */
  fileStamp(): string {
    const sec = Math.floor(this.us / 1e6);
    const ms = Math.floor((this.us - sec * 1e6) / 1000);
    return `${this.secondText(sec).replace(/[-:]/g, '')}${P3[ms]}`;
  }
}
