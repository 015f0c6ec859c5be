/**
 * Lookups of user-supplied names in tables. `table[name]` also finds what every object inherits from
 * Object.prototype ("constructor", "toString", "__proto__", …), so a name like that would pass a "known name"
 * check and then break the command that trusted it. Every table keyed by a name a caller chose is read here.
 */

/** The table's own entry for `key`, or undefined (inherited properties are not entries). */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A frozen copy of `entries` without a prototype: even a plain `table[name]` finds only the entries. */
export function table<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
