/**
 * Turns the JSON-schema subset our OpenAPI document uses into TypeScript type text, so a
 * test can compile the SDK's hand-written types against what the server documents.
 */
type Schema = Record<string, unknown>;

export interface OperationTypes {
  /** e.g. `POST /v1/read` */
  key: string;
  request: string | null;
  response: string | null;
}

export function schemaToTs(schema: unknown, doc: Schema, depth = 0): string {
  if (depth > 20) return 'unknown';
  if (!schema || typeof schema !== 'object') return 'unknown';
  const s = schema as Schema;
  if (typeof s.$ref === 'string') return schemaToTs(resolveRef(doc, s.$ref), doc, depth + 1);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ') || 'never';
  if ('const' in s) return JSON.stringify(s.const);
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key])) return (s[key] as unknown[]).map((x) => `(${schemaToTs(x, doc, depth + 1)})`).join(' | ');
  }
  if (Array.isArray(s.allOf)) return (s.allOf as unknown[]).map((x) => `(${schemaToTs(x, doc, depth + 1)})`).join(' & ');
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  if (types.length === 0) return s.properties ? objectToTs(s, doc, depth) : 'unknown';
  return types.map((t) => primitiveToTs(t, s, doc, depth)).join(' | ');
}

function primitiveToTs(type: string, s: Schema, doc: Schema, depth: number): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${s.items ? schemaToTs(s.items, doc, depth + 1) : 'unknown'}>`;
    case 'object':
      return objectToTs(s, doc, depth);
    default:
      return 'unknown';
  }
}

function objectToTs(s: Schema, doc: Schema, depth: number): string {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set((s.required ?? []) as string[]);
  const entries = Object.entries(props).map(
    ([name, sub]) => `${JSON.stringify(name)}${required.has(name) ? '' : '?'}: ${schemaToTs(sub, doc, depth + 1)}`,
  );
  const extra = s.additionalProperties;
  if (entries.length === 0) {
    if (extra && typeof extra === 'object') return `Record<string, ${schemaToTs(extra, doc, depth + 1)}>`;
    return 'Record<string, unknown>';
  }
  return `{ ${entries.join('; ')} }`;
}

function resolveRef(doc: Schema, ref: string): unknown {
  if (!ref.startsWith('#/')) return {};
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) node = (node as Schema | undefined)?.[part];
  return node;
}

/** Request-body and 200-response types of every `/v1` operation of the document. */
export function operationTypes(doc: Schema): OperationTypes[] {
  const out: OperationTypes[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries(ops)) {
      const body = (op.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
      const responses = op.responses as Record<string, Schema>;
      const ok = (responses['200'] ?? responses['201'])?.content as Record<string, Schema> | undefined;
      out.push({
        key: `${method.toUpperCase()} ${path}`,
        request: body?.['application/json']?.schema ? schemaToTs(body['application/json'].schema, doc) : null,
        response: ok?.['application/json']?.schema ? schemaToTs(ok['application/json'].schema, doc) : null,
      });
    }
  }
  return out;
}
