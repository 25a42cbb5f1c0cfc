/**
 * What changed between two OpenAPI 3.1 documents, as a client written against the older one feels it.
 * Written here because no npm differ fits: openapi-diff 0.24 (Atlassian; dependency bumps since 2020)
 * validates its input as Swagger 2 or OpenAPI 3.0 with swagger-parser 10.0, follows no recursive $ref
 * and knows no `deprecated`; @pb33f/openapi-changes downloads a Go binary when installed; api-smart-diff
 * says it reads 3.1 but would be a new dependency for what the rules below cover in a few hundred lines.
 *
 * BREAKING: an operation, a success status, a response media type or header, a response property gone; a
 * response value that may now be null or absent, or of another type; a response enum value gone; a
 * request parameter or property newly required, gone, no longer accepting a type, null or an enum value
 * it accepted. DANGEROUS: a response enum with new values (or no enum any more), an undeclared request
 * property now ignored. Whatever the older document marked `deprecated: true` (an operation, a parameter,
 * a property) may go: clients were told. Constraints (lengths, patterns, formats, bounds), security
 * schemes, descriptions and examples are not compared.
 */
import type { ContractChange } from './change.ts';

/** The parts of an OpenAPI 3.1 document the comparison reads. */
export interface OpenApiDocument {
  paths?: Record<string, Partial<Record<Method, Operation>>>;
}
type Method = (typeof methods)[number];
interface Referable {
  $ref?: string;
}
interface Operation {
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses?: Record<string, Response>;
}
interface Parameter extends Referable {
  in: string;
  name: string;
  required?: boolean;
  deprecated?: boolean;
  schema?: Schema;
}
interface RequestBody extends Referable {
  required?: boolean;
  content?: Record<string, { schema?: Schema }>;
}
interface Response extends Referable {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Schema }>;
}
interface Schema extends Referable {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  deprecated?: boolean;
}
type Direction = 'request' | 'response';

interface Shape {
  schema: Schema;
  /** The JSON types it takes (null aside); undefined: any. */
  types?: Set<string>;
  nullable: boolean;
  enum?: unknown[];
  /** Alternatives of an `anyOf` that are neither null nor enum values: matched by type. */
  alternatives?: Shape[];
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const isSuccess = (status: string) => /^2\d\d$/.test(status);
/** `/v1/bookings/{bookingId}` and `/v1/bookings/{id}` are one address to a client. */
const route = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

export function openapiChanges(older: OpenApiDocument, newer: OpenApiDocument): ContractChange[] {
  const changes: ContractChange[] = [];
  const newOperations = new Map<string, { path: string; operation: Operation }>();
  for (const [path, item] of Object.entries(newer.paths ?? {})) {
    for (const method of methods) {
      const operation = item[method];
      if (operation) newOperations.set(`${method} ${route(path)}`, { path, operation });
    }
  }
  for (const [path, item] of Object.entries(older.paths ?? {})) {
    for (const method of methods) {
      const before = item[method];
      if (!before) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const after = newOperations.get(`${method} ${route(path)}`);
      const report = (criticality: ContractChange['criticality'], message: string) => {
        const change = { criticality, path: name, message: `${name}: ${message}` };
        if (!changes.some((c) => c.message === change.message)) changes.push(change);
      };
      if (!after) {
        if (!before.deprecated) report('BREAKING', 'the operation was removed');
        continue;
      }
      new OperationDiff(older, newer, report).compare({ path, operation: before }, after);
    }
  }
  return changes;
}

class OperationDiff {
  constructor(
    private readonly older: OpenApiDocument,
    private readonly newer: OpenApiDocument,
    private readonly report: (criticality: ContractChange['criticality'], message: string) => void,
  ) {}

  compare(old: { path: string; operation: Operation }, next: { path: string; operation: Operation }): void {
    const [before, after] = [old.operation, next.operation];
    this.parameters(old.path, before.parameters ?? [], next.path, after.parameters ?? []);
    const body = (document: OpenApiDocument, operation: Operation) => operation.requestBody && this.deref(document, operation.requestBody);
    this.requestBody(body(this.older, before), body(this.newer, after));
    for (const [status, response] of Object.entries(before.responses ?? {})) {
      if (!isSuccess(status)) continue;
      const next = after.responses?.[status];
      if (!next) this.report('BREAKING', `no longer answers ${status}`);
      else this.response(status, this.deref(this.older, response), this.deref(this.newer, next));
    }
  }

  /** Path parameters are matched by their place in the path (a renamed one is the same), headers by name in any case. */
  private parameters(oldPath: string, before: Parameter[], newPath: string, after: Parameter[]): void {
    [before, after] = [before.map((p) => this.deref(this.older, p)), after.map((p) => this.deref(this.newer, p))];
    const placeholders = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const keyIn = (path: string) => (p: Parameter) =>
      p.in === 'path' ? `path #${placeholders(path).indexOf(p.name)}` : `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
    const [oldKey, newKey] = [keyIn(oldPath), keyIn(newPath)];
    const old = new Map(before.map((p) => [oldKey(p), p]));
    for (const p of after) {
      const was = old.get(newKey(p));
      const where = `${p.in} parameter ${p.name}`;
      if (p.required && !was?.required) this.report('BREAKING', `the ${where} is newly required`);
      if (was) this.schema(where, this.shape(this.older, was.schema ?? {}), this.shape(this.newer, p.schema ?? {}), 'request', new Set());
    }
    const kept = new Set(after.map(newKey));
    for (const p of before) {
      if (!kept.has(oldKey(p)) && !p.deprecated) this.report('BREAKING', `the ${p.in} parameter ${p.name} was removed`);
    }
  }

  private requestBody(before: RequestBody | undefined, after: RequestBody | undefined): void {
    if (after?.required && !before?.required) this.report('BREAKING', 'a request body is newly required');
    for (const [type, media] of Object.entries(before?.content ?? {})) {
      const next = after?.content?.[type];
      if (!next) this.report('BREAKING', `the request body no longer takes ${type}`);
      else
        this.schema(
          'request body',
          this.shape(this.older, media.schema ?? {}),
          this.shape(this.newer, next.schema ?? {}),
          'request',
          new Set(),
        );
    }
  }

  private response(status: string, before: Response, after: Response): void {
    for (const header of Object.keys(before.headers ?? {})) {
      if (!after.headers?.[header]) this.report('BREAKING', `the ${status} answer lost its ${header} header`);
    }
    for (const [type, media] of Object.entries(before.content ?? {})) {
      const next = after.content?.[type];
      const where = `${status} answer`;
      if (!next) this.report('BREAKING', `the ${where} is no longer ${type}`);
      else this.schema(where, this.shape(this.older, media.schema ?? {}), this.shape(this.newer, next.schema ?? {}), 'response', new Set());
    }
  }

  /** `seen` holds the pairs of references already being compared on this walk: schemas may be recursive. */
  private schema(where: string, before: Shape, after: Shape, direction: Direction, seen: Set<string>): void {
    const pair = `${before.schema.$ref ?? ''}|${after.schema.$ref ?? ''}`;
    if (pair !== '|') {
      if (seen.has(pair)) return;
      seen = new Set(seen).add(pair);
    }
    const request = direction === 'request';
    if (request ? before.nullable && !after.nullable : after.nullable && !before.nullable) {
      this.report('BREAKING', request ? `${where} no longer accepts null` : `${where} may now be null`);
    }
    const lost = request ? uncovered(before.types, after.types) : uncovered(after.types, before.types);
    if (lost.length > 0) {
      const [from, to] = [typesOf(before), typesOf(after)];
      this.report('BREAKING', `${where} changed type from ${from} to ${to}`);
      return;
    }
    this.enums(where, before.enum, after.enum, direction);
    if (before.alternatives || after.alternatives) {
      this.alternatives(where, before, after, direction, seen);
      return;
    }
    if (before.types?.has('array') || after.types?.has('array')) {
      const items = (s: Shape, doc: OpenApiDocument) => this.shape(doc, s.schema.items ?? {});
      this.schema(`${where}[]`, items(before, this.older), items(after, this.newer), direction, seen);
    }
    if (before.schema.properties || after.schema.properties) this.properties(where, before.schema, after.schema, direction, seen);
  }

  private enums(where: string, before: unknown[] | undefined, after: unknown[] | undefined, direction: Direction): void {
    const list = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');
    if (direction === 'request') {
      if (!after) return;
      const refused = before ? before.filter((v) => !after.some((a) => a === v)) : undefined;
      if (!refused) this.report('BREAKING', `${where} now accepts only ${list(after)}`);
      else if (refused.length > 0) this.report('BREAKING', `${where} no longer accepts ${list(refused)}`);
      return;
    }
    if (!before) return;
    if (!after) {
      this.report('DANGEROUS', `${where} may now be other values than ${list(before)}`);
      return;
    }
    const removed = before.filter((v) => !after.some((a) => a === v));
    const added = after.filter((v) => !before.some((b) => b === v));
    if (removed.length > 0) this.report('BREAKING', `${where} lost the enum values ${list(removed)}`);
    if (added.length > 0) this.report('DANGEROUS', `${where} has new enum values ${list(added)}`);
  }

  /** An anyOf of several types (a string, or a list of strings): each alternative compared with its own kind. */
  private alternatives(where: string, before: Shape, after: Shape, direction: Direction, seen: Set<string>): void {
    const [from, to] = direction === 'request' ? [before, after] : [after, before];
    const kinds = (s: Shape) => s.alternatives ?? [s];
    for (const alternative of kinds(from)) {
      const type = [...(alternative.types ?? [])][0];
      const match = kinds(to).find((a) => type === undefined || a.types === undefined || a.types.has(type));
      if (!match) continue; // The types were compared above; reaching here means an open schema on one side.
      if (direction === 'request') this.schema(where, alternative, match, direction, seen);
      else this.schema(where, match, alternative, direction, seen);
    }
  }

  private properties(where: string, before: Schema, after: Schema, direction: Direction, seen: Set<string>): void {
    const [was, is] = [before.properties ?? {}, after.properties ?? {}];
    const required = (s: Schema) => new Set<string>(s.required ?? []);
    const [wasRequired, isRequired] = [required(before), required(after)];
    const at = (name: string) => (where === 'request body' || where.endsWith('answer') ? `${where} ${name}` : `${where}.${name}`);
    for (const [name, old] of Object.entries(was)) {
      const deprecated = Boolean(this.deref(this.older, old).deprecated || old.deprecated);
      const next = is[name];
      if (!next) {
        if (deprecated) continue;
        if (direction === 'response') this.report('BREAKING', `${at(name)} was removed`);
        else if (after.additionalProperties === false) this.report('BREAKING', `${at(name)} is no longer accepted`);
        else this.report('DANGEROUS', `${at(name)} is no longer read`);
        continue;
      }
      if (direction === 'response' && wasRequired.has(name) && !isRequired.has(name) && !deprecated) {
        this.report('BREAKING', `${at(name)} may now be absent`);
      }
      this.schema(at(name), this.shape(this.older, old), this.shape(this.newer, next), direction, seen);
    }
    if (direction === 'request') {
      for (const name of isRequired) {
        if (!wasRequired.has(name)) this.report('BREAKING', `${at(name)} is newly required`);
      }
    }
  }

  /** The object a local reference (`#/components/schemas/Booking`) points at. */
  private deref<T extends Referable>(document: OpenApiDocument, value: T): T {
    let current = value;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
      const target = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>(
          (node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')],
          document,
        );
      if (!target) throw new Error(`Unresolved reference ${current.$ref}`);
      current = target as T;
    }
    return current;
  }

  /** A schema read as a client sees it: references followed, null and enum alternatives folded in. */
  private shape(document: OpenApiDocument, schema: Schema): Shape {
    const resolved = this.deref(document, schema);
    const own = { ...resolved, $ref: schema.$ref ?? resolved.$ref };
    let nullable = false;
    let types: Set<string> | undefined;
    if (own.type !== undefined) {
      const list: string[] = Array.isArray(own.type) ? own.type : [own.type];
      nullable = list.includes('null');
      types = new Set(list.filter((t) => t !== 'null'));
    }
    let values: unknown[] | undefined = own.enum ?? ('const' in own ? [own.const] : undefined);
    if (values?.includes(null)) {
      nullable = true;
      values = values.filter((v) => v !== null);
    }
    if (!types && values) types = new Set(values.map(jsonType));
    const shape: Shape = { schema: own, types, nullable, enum: values };
    const branches = own.anyOf ?? own.oneOf;
    if (!Array.isArray(branches)) return shape;
    const parts = branches.map((b) => this.shape(document, b));
    const real = parts.filter((p) => !(p.types?.size === 0 && p.nullable));
    shape.nullable ||= parts.some((p) => p.nullable);
    if (real.length === 1) return { ...real[0]!, nullable: shape.nullable || real[0]!.nullable };
    if (real.length > 1 && real.every((p) => p.enum)) {
      return { ...shape, types: union(real.map((p) => p.types)), enum: real.flatMap((p) => p.enum!) };
    }
    return { ...shape, types: union(real.map((p) => p.types)), alternatives: real };
  }
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value === 'object' ? 'object' : typeof value;
}

function union(sets: Array<Set<string> | undefined>): Set<string> | undefined {
  if (sets.some((s) => s === undefined)) return undefined;
  return new Set(sets.flatMap((s) => [...s!]));
}

/** The types of `narrow` that `wide` does not take (an integer is a number). Undefined is any type. */
function uncovered(narrow: Set<string> | undefined, wide: Set<string> | undefined): string[] {
  if (!wide) return [];
  if (!narrow) return ['any'];
  return [...narrow].filter((t) => !wide.has(t) && !(t === 'integer' && wide.has('number')));
}

function typesOf(shape: Shape): string {
  return shape.types ? [...shape.types].sort().join(' | ') || 'null' : 'any';
}
