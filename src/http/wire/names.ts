/**
 * Wire names of flat domain objects. The layers below `http/` build camelCase domain objects;
 * a serialiser renames their fields to the snake_case the response schema declares, through
 * one table per object:
 *
 *   const STATS_NAMES = wireNames<ReadStats, WireOf<typeof statsSchema>>()({ rawHtmlSizeKb: 'raw_html_size_kb', … });
 *
 * The table is checked both ways at compile time: a domain field without a wire name, a wire
 * name the schema does not declare, and a schema field no domain field is named to are all
 * errors. `renamed` then keeps the domain object's field order (JSON.stringify output, such
 * as the CLI's and the goldens', stays as it was) and leaves out absent (undefined) fields.
 */

/** A wire name for every field of `D` (optional ones too), each declared by the wire type `W`. */
export type WireNames<D, W> = { readonly [K in keyof Required<D>]: keyof W & string };

/** The wire fields of `W` no entry of `N` is named to; `never` when the table covers the schema. */
type Unnamed<W, N> = Exclude<keyof W, N[keyof N]>;

type CoversSchema<W, N> = [Unnamed<W, N>] extends [never] ? unknown : { wireFieldsWithoutDomainField: Unnamed<W, N> };

/** Checks a names table of domain type `D` against wire type `W` (see the module comment). */
export const wireNames =
  <D, W>() =>
  <const N extends WireNames<D, W>>(names: N & CoversSchema<W, N>): N =>
    names;

/** `D` with every field renamed by `N`, optionality and value types kept. */
export type Renamed<D, N extends { readonly [K in keyof D]: string }> = { -readonly [K in keyof D as N[K]]: D[K] };

/** The fields of `value` under their wire names, in the value's own order; undefined fields left out. */
export function renamed<D extends object, N extends { readonly [K in keyof D]: string }>(value: D, names: N): Renamed<D, N> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const name = (names as Record<string, string | undefined>)[key];
    if (name !== undefined && field !== undefined) out[name] = field;
  }
  return out as Renamed<D, N>;
}
