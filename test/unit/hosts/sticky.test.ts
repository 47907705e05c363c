// The sticky comment on any host: found by marker and author, edited where the host can, replaced (new first, old
// deleted second) where it cannot, and a refused delete leaves two comments and says so, never none.
import { describe, expect, it } from 'vitest';
import { upsertSticky, type StickyHost } from '../../../src/hosts/sticky.js';
import { HostError, type HostComment } from '../../../src/hosts/types.js';

const MARKER = '<!-- ascend-memory-gate:default -->';

function memoryHost(
  comments: HostComment[],
  can: { edit: boolean; deleteFails?: boolean },
): StickyHost & { comments: HostComment[] } {
  let next = 100;
  const host: StickyHost & { comments: HostComment[] } = {
    comments,
    commentNoun: 'comment',
    tokenLogin: async () => 'bot',
    listComments: async () => host.comments.map((c) => ({ ...c })),
    createComment: async (_n, body) => {
      const c = { id: next++, body, author: 'bot' };
      host.comments.push(c);
      return c;
    },
    deleteComment: async (_n, id) => {
      if (can.deleteFails) throw new HostError('403 deleting comment: refused', 403);
      host.comments = host.comments.filter((c) => c.id !== id);
    },
  };
  if (can.edit) {
    host.editComment = async (_n, id, body) => {
      const c = host.comments.find((x) => x.id === id)!;
      c.body = body;
      return c;
    };
  }
  return host;
}

const body = (text: string): string => `${MARKER}\n${text}`;
const request = (text: string): Parameters<typeof upsertSticky>[1] => ({
  number: 1,
  body: body(text),
  marker: MARKER,
  policy: 'on-change',
  hasFindings: true,
});

describe('upsertSticky', () => {
  it("edits the token's own marked comment and leaves a quote by someone else alone", async () => {
    const host = memoryHost(
      [
        { id: 1, body: body('quoted'), author: 'alice' },
        { id: 2, body: body('old'), author: 'bot' },
      ],
      { edit: true },
    );
    expect(await upsertSticky(host, request('new'))).toEqual({ action: 'updated', id: 2 });
    expect(host.comments).toEqual([
      { id: 1, body: body('quoted'), author: 'alice' },
      { id: 2, body: body('new'), author: 'bot' },
    ]);
  });

  it('replaces where the host cannot edit: the new comment first, then the old one deleted', async () => {
    const host = memoryHost([{ id: 2, body: body('old'), author: 'bot' }], { edit: false });
    expect(await upsertSticky(host, request('new'))).toEqual({ action: 'replaced', id: 100, old: 2 });
    expect(host.comments).toEqual([{ id: 100, body: body('new'), author: 'bot' }]);
  });

  it('keeps both when the delete is refused, and says which one stays', async () => {
    const host = memoryHost([{ id: 2, body: body('old'), author: 'bot' }], { edit: false, deleteFails: true });
    expect(await upsertSticky(host, request('new'))).toEqual({
      action: 'replaced',
      id: 100,
      old: 2,
      leftover: 'the earlier comment 2 could not be deleted (403 deleting comment: refused)',
    });
    expect(host.comments.map((c) => c.id)).toEqual([2, 100]);
  });

  it('creates nothing on-change when everything passed and no earlier comment exists; a marker mid-body is no claim', async () => {
    const host = memoryHost([{ id: 3, body: `see ${MARKER}`, author: 'bot' }], { edit: true });
    expect(await upsertSticky(host, { ...request('ok'), hasFindings: false })).toEqual({
      action: 'skipped',
      reason: 'everything passed and there is no earlier comment to update',
    });
    expect(host.comments.map((c) => c.id)).toEqual([3]);
  });
});
