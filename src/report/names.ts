// The one shortening of long names lives in common/ (history and the Action use it too): re-exported for report/.
export { DISPLAY_NAME_LENGTH, shortenName } from '../common/names.js';
