// Identity caches over section records: which are already in file order, which hold keys, and their listed keys.
//
// Each cache is keyed by the record object, so it is right only while nothing adds a key to a section record (or a
// field to its metrics) or deletes one once it is read or built. Under the tests (VITEST set) every record these
// caches learn of is frozen, so a change to one throws where it is made instead of showing up as a stale key list.

/** True under vitest: records the caches hold are frozen there, so the invariant above is checked, not only stated. */
const FREEZE_RECORDS = typeof process !== 'undefined' && process.env.VITEST !== undefined;

/**
 * Section records that build() made: keys in fileKeyOrder, each metric's fields in code-unit order, which is how
 * stringifyDocument writes them, so it need not check 160,000 keys again (~0.2 s of merging 4,096 node snapshots).
 */
const asWritten = new WeakSet<object>();

/** A record seen to hold a key: for...in on a 100,000-key dictionary lists and orders every key first (~30 ms). */
const holdsKeys = new WeakSet<object>();

/**
 * Own keys of section records, listed once by a pass that had to list them anyway (the direct section check of a file,
 * build()), for the gate and the device findings, which read each side's keys again: Object.keys on a 100,000-key
 * dictionary costs ~25 ms, and a 4,096-device check asked for six of them.
 */
const knownKeys = new WeakMap<object, readonly string[]>();

/** Marks a section record build() made as written in file order, with its keys; its metrics are final too. */
export function noteWritten(record: Readonly<Record<string, object>>, keys: readonly string[]): void {
  asWritten.add(record);
  noteKeys(record, keys);
  if (FREEZE_RECORDS) for (const key of keys) Object.freeze(record[key]);
}

/** Whether build() made this record, keys and fields already in the order stringifyDocument writes. */
export function isWritten(record: object): boolean {
  return asWritten.has(record);
}

/** Records `keys` as the own keys of `record` (read-only from now on, as the record is). */
export function noteKeys(record: object, keys: readonly string[]): void {
  knownKeys.set(record, keys);
  if (FREEZE_RECORDS) Object.freeze(record);
}

/** The own keys of a section record, in its order: the list noted for it, else Object.keys. Callers must not change it. */
export function keysOf(record: object): readonly string[] {
  return knownKeys.get(record) ?? Object.keys(record);
}

/** No own key at all; a record once seen to hold a key is remembered, and one whose keys are known answers from them. */
export function isEmptyRecord(record: object): boolean {
  const known = knownKeys.get(record);
  if (known !== undefined) return known.length === 0;
  if (holdsKeys.has(record)) return false;
  for (const key in record) {
    if (Object.hasOwn(record, key)) {
      holdsKeys.add(record);
      if (FREEZE_RECORDS) Object.freeze(record);
      return false;
    }
  }
  return true;
}

/** record[key] = value without a [key, value] pair per entry, and a key named `__proto__` stays a key (not the prototype). */
export function setOwn<V>(record: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
