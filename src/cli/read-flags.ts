import type { readOptionProperties as ReadOptionProperties } from '../http/schemas.js';
import { readOptionProperties } from '../http/schemas.js';
import type { ReadOptionsBody } from '../http/wire/read-options.js';
import type { ParsedArgs } from './args.js';
import { UsageError } from './args.js';

/**
 * `pith read` flags for the read options (issues 17, 21, 22), as the request body names them,
 * so the local engine and a remote server get the same thing: `--target <css>`, `--remove
 * <css>` (a selector list `a, b` takes several), one flag per enum field of the schema
 * (`--format`, `--link-mode`, `--image-mode`: field name with dashes, values from the schema,
 * so a new value or a new enum field needs no edit here), and the switches below.
 */

type Properties = typeof ReadOptionProperties;
type BooleanField = { [K in keyof Properties]: Properties[K] extends { readonly type: 'boolean' } ? K : never }[keyof Properties];

/**
 * Switches: the flag sets its field to the value that is not the schema's default. Names are
 * the CLI's own (`--whole-page` reads better than `--no-main-content`).
 */
export const READ_SWITCHES = {
  links: { field: 'links', value: true },
  images: { field: 'images', value: true },
  'whole-page': { field: 'main_content', value: false },
  'no-clean-urls': { field: 'clean_urls', value: false },
  'keep-hidden': { field: 'keep_hidden', value: true },
} as const satisfies Record<string, { field: BooleanField; value: boolean }>;

/** Flags of read that take no value (see BOOLEAN_FLAGS of client-commands.ts). */
export const READ_BOOLEAN_FLAGS = Object.keys(READ_SWITCHES);

/** Schema properties as this module reads them (an enum field has `enum`). */
type SchemaLike = Readonly<Record<string, object>>;

const enumOf = (schema: object): readonly string[] | undefined =>
  'enum' in schema && Array.isArray(schema.enum) ? (schema.enum as readonly string[]) : undefined;

/** The enum fields of the read options and their flags: `link_mode` → `--link-mode`. */
export function choiceFlags(
  properties: SchemaLike = readOptionProperties,
): Array<{ flag: string; field: string; values: readonly string[] }> {
  return Object.entries(properties).flatMap(([field, schema]) => {
    const values = enumOf(schema);
    return values ? [{ flag: field.replace(/_/g, '-'), field, values }] : [];
  });
}

/** `--format markdown|html|text  --image-mode keep|alt|drop …`, for the help text. */
export const CHOICE_FLAGS_HELP = choiceFlags()
  .map((c) => `--${c.flag} ${c.values.join('|')}`)
  .join('  ');

/** A selector's bound, from the schema (each selector of target_selector / remove_selector). */
const SELECTOR_MAX_CHARS = readOptionProperties.target_selector.anyOf[0].maxLength;

function selector(args: ParsedArgs, flag: string): string | undefined {
  const value = args.options.get(flag);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${flag} takes a CSS selector`);
  if (value.length > SELECTOR_MAX_CHARS) throw new UsageError(`--${flag} takes a CSS selector of at most ${SELECTOR_MAX_CHARS} characters`);
  return value;
}

/** The read options of `pith read`'s flags, as a request body. `properties` is for tests (a planted enum value). */
export function readOptionsBodyOf(args: ParsedArgs, properties: SchemaLike = readOptionProperties): ReadOptionsBody {
  const body: Record<string, unknown> = {};
  const target = selector(args, 'target');
  const remove = selector(args, 'remove');
  if (target) body.target_selector = target;
  if (remove) body.remove_selector = remove;
  for (const { flag, field, values } of choiceFlags(properties)) {
    const value = args.options.get(flag);
    if (value === undefined) continue;
    if (typeof value !== 'string' || !values.includes(value)) throw new UsageError(`--${flag} takes ${values.join('|')}`);
    body[field] = value;
  }
  for (const [flag, { field, value }] of Object.entries(READ_SWITCHES)) {
    if (args.options.has(flag)) body[field] = value;
  }
  // the values come from the schema ReadOptionsBody is typed from
  return body as ReadOptionsBody;
}

/** The content, then the links list when it was asked for (text output of `pith read`). */
export function readOutputText(content: string, links: ReadonlyArray<{ url: string; text: string }> | undefined): string {
  const body = content.endsWith('\n') ? content : `${content}\n`;
  if (!links) return body;
  return `${body}\n${links.map((l) => `- ${l.url}${l.text ? `  ${l.text}` : ''}`).join('\n')}\n`;
}
