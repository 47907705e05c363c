// Folds per-file parse results into one builder in file order, whatever order they arrive in, so that tie-breaks ("on
// a tie the later record wins"), the skipped-record sample and the first error are those of the sequential path.
import { SnapshotBuilder, type BuilderState } from '../../model/snapshot.js';

export type Outcome = { ok: true; state: BuilderState } | { ok: false; error: Error };

export class OrderedMerge {
  /** Per file, in file order; 'merged' once folded into `merged`. */
  private readonly outcomes: (Outcome | 'merged' | undefined)[];
  private readonly merged = new SnapshotBuilder();
  private mergedUpTo = 0;

  constructor(files: number) {
    this.outcomes = new Array<Outcome | 'merged' | undefined>(files);
  }

  /** The outcome of the file at `index`; the finished prefix is folded in now. */
  record(index: number, outcome: Outcome): void {
    const outcomes = this.outcomes;
    outcomes[index] = outcome;
    // Holding every small file's result to the end instead would hold memory in proportion to the file count.
    for (let o = outcomes[this.mergedUpTo]; o !== undefined && o !== 'merged' && o.ok; o = outcomes[this.mergedUpTo]) {
      this.merged.merge(o.state);
      outcomes[this.mergedUpTo++] = 'merged';
    }
  }

  /**
   * The merged builder, or the first failure in file order. Every file before the first failure has an outcome;
   * nothing after it matters.
   */
  finish(): SnapshotBuilder {
    for (let i = this.mergedUpTo; i < this.outcomes.length; i++) {
      const outcome = this.outcomes[i];
      if (outcome === undefined) break;
      if (outcome === 'merged') continue;
      if (!outcome.ok) throw outcome.error;
      this.merged.merge(outcome.state);
    }
    return this.merged;
  }
}
