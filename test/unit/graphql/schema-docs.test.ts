import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadTypeDefs } from '../../../src/graphql/server.ts';

/** The SDL is the contract a frontend developer reads in Sandbox: every type, field and argument says what it is. */
describe('schema documentation', () => {
  const schema = buildSchema(loadTypeDefs());
  const types = Object.values(schema.getTypeMap()).filter(
    (t) => !t.name.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(t.name),
  );

  it('documents every type', () => {
    expect(types.filter((t) => !t.description?.trim()).map((t) => t.name)).toEqual([]);
  });

  it('documents every field, input field and argument', () => {
    const missing: string[] = [];
    for (const type of types) {
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description?.trim()) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) {
            if (!arg.description?.trim() && !argumentSelfExplained(arg.name)) missing.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
      if (isEnumType(type) && type.getValues().length === 0) missing.push(type.name);
    }
    expect(missing).toEqual([]);
  });
});

/** Relay paging arguments mean the same everywhere and are documented on PageInfo. */
function argumentSelfExplained(name: string): boolean {
  return name === 'first' || name === 'after';
}
