// The gate's sticky comment on any host: found by its hidden marker AND its author (the token's user), edited in place,
// or replaced (a new one, then the old one deleted) where a host documents no edit. Names no host.
import { isMarkedBy, type CommentPolicy } from '../github/comment.js';
import { HostError, type Host, type HostComment } from './types.js';

export interface StickyRequest {
  number: number;
  /** The full body; it starts with `marker`. */
  body: string;
  marker: string;
  policy: CommentPolicy;
  /** Something is not pass (or the limits moved): on-change creates a comment only then. */
  hasFindings: boolean;
}

export type StickyResult =
  | { action: 'created' | 'updated'; id: HostComment['id']; url?: string }
  | { action: 'replaced'; id: HostComment['id']; url?: string; old: HostComment['id']; leftover?: string }
  | { action: 'skipped'; reason: string };

/** What the sticky comment needs of a host. */
export type StickyHost = Pick<
  Host,
  'commentNoun' | 'tokenLogin' | 'listComments' | 'createComment' | 'editComment' | 'deleteComment'
>;

const made = (c: HostComment): { id: HostComment['id']; url?: string } => ({
  id: c.id,
  ...(c.url !== undefined ? { url: c.url } : {}),
});

export async function upsertSticky(host: StickyHost, request: StickyRequest): Promise<StickyResult> {
  const { number, body, marker, policy, hasFindings } = request;
  if (policy === 'never') return { action: 'skipped', reason: "comment is 'never'" };
  const comments = await host.listComments(number);
  const marked = comments.filter((c) => isMarkedBy(c.body, marker));
  // Anyone can paste the marker or quote the gate: only the token's own comment is taken over.
  const login = marked.length === 0 ? undefined : await host.tokenLogin();
  const existing = marked.find((c) => c.author !== '' && c.author === login);
  if (existing !== undefined) {
    if (host.editComment !== undefined)
      return { action: 'updated', ...made(await host.editComment(number, existing.id, body)) };
    // Created first, deleted second: a refused delete leaves two comments, never none.
    const created = await host.createComment(number, body);
    if (host.deleteComment === undefined)
      return {
        action: 'replaced',
        ...made(created),
        old: existing.id,
        leftover: `the ${host.commentNoun} ${existing.id} stays: this host has no delete`,
      };
    try {
      await host.deleteComment(number, existing.id);
      return { action: 'replaced', ...made(created), old: existing.id };
    } catch (error) {
      if (!(error instanceof HostError)) throw error;
      return {
        action: 'replaced',
        ...made(created),
        old: existing.id,
        leftover: `the earlier ${host.commentNoun} ${existing.id} could not be deleted (${error.message})`,
      };
    }
  }
  if (policy === 'on-change' && !hasFindings)
    return { action: 'skipped', reason: 'everything passed and there is no earlier comment to update' };
  return { action: 'created', ...made(await host.createComment(number, body)) };
}
