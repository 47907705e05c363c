// The one shortening of long names lives in common/ (reports, history and the Action use it): re-exported for model/ and history/.
export { shortenName } from '../common/names.js';
