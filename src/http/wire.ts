import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * A schema's type with the open `[key: string]: unknown` of objects removed: what the
 * serializer actually sends (it drops undeclared fields), so building an undeclared field
 * is a compile error.
 */
export type Wire<T> = T extends readonly (infer E)[]
  ? Wire<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Wire<T[K]> }
    : T;

/** The TypeScript type of a JSON schema, as the wire carries it. */
export type WireOf<S extends JSONSchema> = Wire<FromSchema<S>>;
