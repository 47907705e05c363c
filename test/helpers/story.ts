// The numbers the tests share: byte units, a plog device's module names and the seed story's APP peaks.

export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;

/** The 15 modules a device reports in plog (DEV_MEM), for generated runs: history points, bench jobs. */
export const MODULES = [
  'APP',
  'HCCL',
  'RUNTIME',
  'GE',
  'AICPU_SCHEDULE',
  'HCCP_SCHEDULE',
  'ASCENDCL',
  'DVPP',
  'TSDAEMON',
  'FMK',
  'AICPU',
  'DRV',
  'PROFILING',
  'DEBUG',
  'DMP',
] as const;

/** The seed story (test/fixtures/plog/seed, examples/): APP on a device at 2,078,195,712 bytes, then 10x that. */
export const SEED_APP_PEAK = 2_078_195_712;
export const GROWN_APP_PEAK = 20_781_957_120;
export const SEED_APP_DELTA = GROWN_APP_PEAK - SEED_APP_PEAK;
