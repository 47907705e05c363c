// The sticky comment's marker: one per gate (comment-key), hidden, first line; src/hosts/sticky.ts finds and updates it on every host.
export type CommentPolicy = 'on-change' | 'always' | 'never';

/** The hidden marker that identifies this gate's comment; comment-key keeps several gates apart. */
export function commentMarker(commentKey: string): string {
  return `<!-- ascend-memory-gate:${commentKey} -->`;
}

/**
 * A gate's comment starts with its marker on a line of its own. A marker anywhere else (a name in another gate's
 * table, a quote of our comment) is text, never a claim on the comment.
 */
export function isMarkedBy(body: string | undefined | null, marker: string): boolean {
  return (
    typeof body === 'string' &&
    body.startsWith(marker) &&
    (body.length === marker.length || body[marker.length] === '\n' || body.startsWith('\r\n', marker.length))
  );
}

/** The Actions bot: who GITHUB_TOKEN posts as. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';
