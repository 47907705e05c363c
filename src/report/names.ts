// Long names shown shortened in the middle with a stable hash of the whole name: the function lives in
// src/model/names.ts, where the history (which writes names the same way) can reach it.
export { DISPLAY_NAME_LENGTH, shortenName } from '../model/names.js';
