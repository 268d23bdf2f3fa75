type Doc = Record<string, any>;
type Json = Record<string, any>;

/** Inlines `#/components/...` references, so a schema compiles on its own. */
export function deref(doc: Doc, node: unknown): any {
  if (Array.isArray(node)) return node.map((n) => deref(doc, n));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string')
    return deref(
      doc,
      ref
        .slice(2)
        .split('/')
        .reduce<any>((n, k) => n[k], doc),
    );
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(doc, v)]));
}

/**
 * Closes every object schema (additionalProperties: false). Documented responses and events are
 * open, since v1 may add fields; closed, they prove the server sends no field the reference does
 * not describe.
 */
export function closed(schema: any): any {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === 'enum' || k === 'const' ? v : closed(v)]),
  );
  if (schema.properties && schema.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}
