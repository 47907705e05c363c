// What the gate asks of the place where a change is reviewed (GitHub, GitLab, GitCode): one interface, one adapter per host.
import { InputError } from '../common/errors.js';

export type HostName = 'github' | 'gitlab' | 'gitcode';

/** A pull request (GitHub, GitCode) or merge request (GitLab), as its host reports it. */
export interface ChangeRequest {
  number: number;
  /** The commit whose baseline and config gate it (GitLab: diff_refs.base_sha; GitHub, GitCode: base.sha). */
  baseSha: string;
  headSha: string;
  targetBranch: string;
  labels: string[];
}

export interface HostComment {
  /** GitCode documents comment ids as text in its examples (a 40-hex id) and as int in its paths: either is kept. */
  id: number | string;
  body: string;
  /** The author's login (username); '' when the host does not say. */
  author: string;
  /** Its page, where the host says (GitHub's html_url). */
  url?: string;
}

/** The token a host's calls use: the variable it came from and what it needs, for one-line messages (never its value). */
export interface TokenInfo {
  variable: string;
  /** What reading needs (`read_api`, `contents: read`, …). */
  read: string;
  /** What posting a comment needs (`api`, `pull-requests: write`, …). */
  write: string;
}

/** One host: every call the gate makes, answered from its REST API. The gate's logic only ever sees this. */
export interface Host {
  readonly name: HostName;
  /** How a change request is called there: 'pull request' or 'merge request'. */
  readonly noun: string;
  /** How a comment is called there: 'comment' or 'note'. */
  readonly commentNoun: string;
  readonly token: TokenInfo;
  changeRequest(number: number): Promise<ChangeRequest>;
  /** Who the token posts as. */
  tokenLogin(): Promise<string>;
  listComments(number: number): Promise<HostComment[]>;
  createComment(number: number, body: string): Promise<HostComment>;
  /** Absent where the host documents no way to edit a comment: the sticky comment is then replaced (sticky.ts). */
  editComment?(number: number, id: HostComment['id'], body: string): Promise<HostComment>;
  deleteComment?(number: number, id: HostComment['id']): Promise<void>;
  /** A file's text at a commit; null when the file does not exist there. The commit itself must exist (commitExists). */
  fileAt(path: string, sha: string): Promise<string | null>;
  /** Throws a HostError when the commit cannot be read: "no baseline" must never stand for "cannot see the commit". */
  commitExists(sha: string): Promise<void>;
  /** Where the host has labels: takes one off the change request. */
  removeLabel?(number: number, label: string): Promise<void>;
  /**
   * Where the host records them: the head commit the change request had when `label` was last added (null when no
   * event records it; `unknown` says why it cannot be told). Used for "a later push voids the label".
   */
  headWhenLabelled?(number: number, label: string): Promise<string | null | { unknown: string }>;
}

/** An expected failure talking to a host: one line with the status, the attempt and what to do; never the token. */
export class HostError extends InputError {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'HostError';
  }
}
