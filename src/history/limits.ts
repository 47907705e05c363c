// The bounds on how many points a history keeps, shared by the history itself and the entries that read the setting.

/** Points kept by default (input `history-size`, `--size`). */
export const DEFAULT_HISTORY_SIZE = 200;
/** The most points a history may be asked to keep. */
export const MAX_HISTORY_SIZE = 1000;
