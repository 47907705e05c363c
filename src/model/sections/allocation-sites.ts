// Where in the user's code the memory at the allocated peak was allocated: live bytes per first frame of user code.
import { formatCount } from '../units.js';
import { originText, PROCESS_DEVICE_FIELDS } from './allocator.js';
import type { SectionDeclaration } from './types.js';

export const allocationSites: SectionDeclaration = {
  name: 'allocationSites',
  kind: 'allocationSite',
  title: 'Allocation sites',
  description:
    'Live requested bytes at the allocated peak of a memory snapshot, by device and the first frame of user code of each block (not torch, torch_npu, the standard library or C++; <unknown> without one), its path relative to the source root, e.g. dev0/model/attention.py:212 forward.',
  keyShape: 'devN/<file>:<line> <function>',
  example: 'dev0/model/attention.py:212 forward',
  value: 'bytes',
  unit: 'bytes',
  tolerance: { percent: 5, bytes: 64 * 1024 ** 2 },
  source: 'torch_npu memory snapshot (pickle) with stacks recorded',
  describe: (_key, m) => `${formatCount(typeof m.blocks === 'number' ? m.blocks : 0)} block(s) live at the allocated peak. ${originText(m)}`,
  logicalDevices: true,
  // No column of its own in the per-device table: its bytes add up to the allocated peak.
  deviceRow: { figures: [] },
  fields: {
    bytes: { type: 'bytes', description: 'Requested bytes of the blocks live at the allocated peak (at dump time without a trace).' },
    blocks: { type: 'count', description: 'How many blocks.' },
    codeRoot: { type: 'string', description: "The folder the site paths are relative to: the source root, the common folder of the file's user frames, or a package's site-packages; '' for absolute paths." },
    ...PROCESS_DEVICE_FIELDS,
  },
};
