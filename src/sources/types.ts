// What every input provider returns: a local file to stream, and the name to show in messages.

export interface InputFile {
  /** Absolute path on disk (artifacts are downloaded before parsing). */
  path: string;
  /** Short name for messages and tables, relative to the search root: `rank_3/plog-123_2026.log`. */
  name: string;
  /** Bytes, when the file search already knows it (saves a stat when deciding on threads). */
  size?: number;
}
