// The iteration order of a libstdc++ std::unordered_map<uint64_t, …>: msMemScope writes its compare file in it.
//
// Identity hash, bucket = key mod bucket count, prime rehash policy (first table 13 buckets, then ×2 to the next listed
// prime). A key into an empty bucket goes to the front of the node list; into a used bucket, to the front of that bucket.

const FAST_BUCKETS = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];
/** libstdc++'s __prime_list around the sizes a table of up to MAX_KEYS keys reaches. */
const PRIMES = [
  17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127, 137, 139, 149, 157,
  167, 179, 193, 199, 211, 227, 241, 257,
];
/** Beyond this the next table size (541) leaves the part of the prime list checked here. */
export const MAX_KEYS = 257;

interface HashNode {
  key: bigint;
  next: HashNode | null;
}

/** Records insertions and answers the order a libstdc++ unordered_map/unordered_set would iterate them in. */
export class StdUnorderedOrder {
  private readonly beforeBegin: HashNode = { key: -1n, next: null };
  private buckets: (HashNode | null)[] = [null];
  private nextResize = 0;
  private readonly keys = new Set<bigint>();

  get size(): number {
    return this.keys.size;
  }

  insert(key: bigint): void {
    if (this.keys.has(key)) return;
    if (this.keys.size >= MAX_KEYS) throw new RangeError(`more than ${MAX_KEYS} devices`);
    const grow = this.needRehash(this.buckets.length, this.keys.size, 1);
    if (grow > 0) this.rehash(grow);
    this.keys.add(key);
    const node: HashNode = { key, next: null };
    const bkt = this.bucketOf(key);
    const before = this.buckets[bkt];
    if (before) {
      node.next = before.next;
      before.next = node;
    } else {
      node.next = this.beforeBegin.next;
      this.beforeBegin.next = node;
      if (node.next) this.buckets[this.bucketOf(node.next.key)] = node;
      this.buckets[bkt] = this.beforeBegin;
    }
  }

  order(): bigint[] {
    const out: bigint[] = [];
    for (let n = this.beforeBegin.next; n; n = n.next) out.push(n.key);
    return out;
  }

  private bucketOf(key: bigint): number {
    return Number(key % BigInt(this.buckets.length));
  }

  private needRehash(nBkt: number, nElt: number, nIns: number): number {
    if (nElt + nIns <= this.nextResize) return 0;
    const minBkts = Math.max(nElt + nIns, this.nextResize ? 0 : 11);
    if (minBkts >= nBkt) return this.nextBucketCount(Math.max(Math.floor(minBkts) + 1, nBkt * 2));
    this.nextResize = nBkt;
    return 0;
  }

  private nextBucketCount(n: number): number {
    if (n < FAST_BUCKETS.length) {
      const b = FAST_BUCKETS[n] as number;
      this.nextResize = b;
      return b;
    }
    const p = PRIMES.find((q) => q >= n);
    if (p === undefined) throw new RangeError(`more than ${MAX_KEYS} devices`);
    this.nextResize = p;
    return p;
  }

  private rehash(count: number): void {
    const buckets: (HashNode | null)[] = new Array<HashNode | null>(count).fill(null);
    let p = this.beforeBegin.next;
    this.beforeBegin.next = null;
    this.buckets = buckets;
    let bbeginBkt = 0;
    while (p) {
      const next: HashNode | null = p.next;
      const bkt = this.bucketOf(p.key);
      const before = buckets[bkt];
      if (!before) {
        p.next = this.beforeBegin.next;
        this.beforeBegin.next = p;
        buckets[bkt] = this.beforeBegin;
        if (p.next) buckets[bbeginBkt] = p;
        bbeginBkt = bkt;
      } else {
        p.next = before.next;
        before.next = p;
      }
      p = next;
    }
  }
}
