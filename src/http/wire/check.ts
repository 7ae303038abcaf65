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

/**
 * `T` with every key that `S` does not declare (at any depth) turned into `never`; used by
 * `onWire` so that an answer carrying a field its schema lacks fails to compile.
 */
export type Within<S, T> = T extends readonly (infer E)[]
  ? NonNullable<S> extends readonly (infer SE)[]
    ? readonly Within<SE, E>[]
    : T
  : T extends object
    ? {
        // an object with no declared keys is an open map (`additionalProperties: true`): anything goes
        [K in keyof T]: K extends keyof NonNullable<S>
          ? Within<NonNullable<S>[K], T[K]>
          : [keyof NonNullable<S>] extends [never]
            ? T[K]
            : never;
      }
    : T;

/**
 * Checks an answer against its wire type, deep: passing a domain object with a field the
 * response schema does not list (which the serializer would silently drop) is a compile
 * error, not only for object literals.
 *
 *   return onWire<ReplyOf<Op>>()({ ...fields })
 */
export const onWire =
  <S>() =>
  <T extends S>(value: T & Within<S, T>): S =>
    value;
