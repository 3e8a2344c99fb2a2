// C45: random conditions for the property tests that hold a judge of conditions to the worker's
// (the generated validator's, the widget's): on a field before it, of that field's type.
import fc from 'fast-check';
import type { Condition } from '../../src/fields/conditions.ts';
import type { FieldDef } from '../../src/fields/validation.ts';

/** What a condition compares with: a text field's values (else its choices), and numbers. */
export type Drawn = { texts: readonly string[]; numbers: fc.Arbitrary<number> };

/** A condition on one field: equals or one of its values (a boolean's, a choice's, a number's), or filled; a file's filled only. */
export function leafOn(on: FieldDef, drawn: Drawn): fc.Arbitrary<Condition> {
  const filled = fc.boolean().map((f): Condition => ({ field: on.name, filled: f }));
  const of = <T extends string | number | boolean>(values: fc.Arbitrary<T>) =>
    fc.oneof(
      values.map((v): Condition => ({ field: on.name, equals: v })),
      fc
        .uniqueArray(values, { minLength: 1, maxLength: 3 })
        .map((vs): Condition => ({ field: on.name, oneOf: vs })),
      filled,
    );
  switch (on.type) {
    case 'boolean':
      return fc.oneof(
        fc.boolean().map((v): Condition => ({ field: on.name, equals: v })),
        filled,
      );
    case 'string':
      return of(fc.constantFrom(...(on.rules?.oneOf ?? drawn.texts)));
    case 'integer':
    case 'number':
      return of(drawn.numbers);
    case 'file':
      return filled;
  }
}

/** A condition over the fields before one: a leaf, or not, all or any of two. */
export function conditionOver(earlier: readonly FieldDef[], drawn: Drawn): fc.Arbitrary<Condition> {
  const leaf = fc.constantFrom(...earlier).chain((on) => leafOn(on, drawn));
  return fc.oneof(
    { arbitrary: leaf, weight: 3 },
    leaf.map((c): Condition => ({ not: c })),
    fc.tuple(leaf, leaf).map(([a, b]): Condition => ({ all: [a, b] })),
    fc.tuple(leaf, leaf).map(([a, b]): Condition => ({ any: [a, b] })),
  );
}
