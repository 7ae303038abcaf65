import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { z } from 'zod';
import type { Wire } from '../http/wire/check.js';

/**
 * MCP tool arguments from the REST body schemas of the operation registry, with the same
 * bounds (URL length, 1..100 URLs, limit 1..5000, glob counts): an argument the route would
 * refuse is refused by the tool's own schema first. Covers the JSON-schema subset the
 * request schemas use.
 */

type Schema = {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  anyOf?: readonly Schema[];
  properties?: Readonly<Record<string, Schema>>;
  required?: readonly string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  maxProperties?: number;
  items?: Schema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  description?: string;
  readOnly?: boolean;
};

/** The arguments a tool receives: the body as a client may send it (defaults not yet applied). */
export type ToolArgs<S extends JSONSchema> = Wire<FromSchema<S, { keepDefaultedPropertiesOptional: true }>>;

function string(s: Schema): z.ZodString {
  let out = z.string();
  if (s.minLength !== undefined) out = out.min(s.minLength);
  if (s.maxLength !== undefined) out = out.max(s.maxLength);
  return out;
}

function number(s: Schema, integer: boolean): z.ZodNumber {
  let out = integer ? z.number().int() : z.number();
  if (s.minimum !== undefined) out = out.min(s.minimum);
  if (s.maximum !== undefined) out = out.max(s.maximum);
  return out;
}

function literalOf(value: unknown): z.ZodType {
  return value === null ? z.null() : z.literal(value as string | number | boolean);
}

function union(members: z.ZodType[]): z.ZodType {
  const [first, second, ...rest] = members;
  if (!first) return z.never();
  return second ? z.union([first, second, ...rest]) : first;
}

/** One JSON schema as zod. */
export function zodFrom(s: Schema): z.ZodType {
  if (s.enum) return union(s.enum.map(literalOf));
  if (s.anyOf) return union(s.anyOf.map(zodFrom));
  const types = typeof s.type === 'string' ? [s.type] : (s.type ?? []);
  if (types.length === 0) return z.unknown();
  return union(
    types.map((type): z.ZodType => {
      switch (type) {
        case 'string':
          return string(s);
        case 'integer':
        case 'number':
          return number(s, type === 'integer');
        case 'boolean':
          return z.boolean();
        case 'null':
          return z.null();
        case 'array': {
          let out = z.array(s.items ? zodFrom(s.items) : z.unknown());
          if (s.minItems !== undefined) out = out.min(s.minItems);
          if (s.maxItems !== undefined) out = out.max(s.maxItems);
          return out;
        }
        default:
          return objectFrom(s);
      }
    }),
  );
}

function objectFrom(s: Schema): z.ZodType {
  if (s.properties) return z.object(shapeOf(s));
  const values = typeof s.additionalProperties === 'object' ? zodFrom(s.additionalProperties) : z.unknown();
  const record = z.record(s.propertyNames ? string(s.propertyNames) : z.string(), values);
  const most = s.maxProperties;
  return most === undefined ? record : record.refine((value) => Object.keys(value).length <= most, `at most ${most} entries`);
}

function shapeOf(s: Schema, describe: Readonly<Record<string, string>> = {}): Record<string, z.ZodType> {
  const required = new Set(s.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  // readOnly: a field the route declares only to refuse it; a tool never sends it
  for (const [name, sub] of Object.entries(s.properties ?? {})) {
    if (sub.readOnly) continue;
    const base = zodFrom(sub);
    const field = required.has(name) ? base : base.optional();
    const description = describe[name] ?? sub.description;
    shape[name] = description ? field.describe(description) : field;
  }
  return shape;
}

/**
 * The input schema of a tool that sends `body` as the REST body. `describe` gives a
 * property a description worded for an agent instead of the REST one.
 */
export function toolInput<S extends JSONSchema>(body: S, describe: Readonly<Record<string, string>> = {}): z.ZodType<ToolArgs<S>> {
  return z.object(shapeOf(body as Schema, describe)) as unknown as z.ZodType<ToolArgs<S>>;
}
