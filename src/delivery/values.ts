// C38: a submission as the values a row, a page or a message carries: the project's fields in
// order, a file as the link to its submission (or its name), every text within a service's limit.
import type { DeliveryToSend } from '../store/deliveries.ts';

/** A field of the project, as a delivery knows it. */
export type FieldSpec = { name: string; type: string };

/** The project's fields in order (or, without them, the submission's own names). */
export function specsOf(d: Pick<DeliveryToSend, 'data' | 'fieldSpecs'>): FieldSpec[] {
  const specs = d.fieldSpecs === null ? [] : (JSON.parse(d.fieldSpecs) as FieldSpec[]);
  if (specs.length > 0) return specs;
  return Object.keys(JSON.parse(d.data) as Record<string, unknown>).map((name) => ({ name, type: 'string' }));
}

/**
 * The submission's values by the project's fields in order. A value kept of a field removed since
 * is left out: a sheet's columns follow the header, and Notion and Airtable refuse a name they do
 * not have.
 */
export function fieldsOf(d: Pick<DeliveryToSend, 'data' | 'fieldSpecs'>): [string, unknown][] {
  const data = JSON.parse(d.data) as Record<string, unknown>;
  return specsOf(d).map(({ name }): [string, unknown] => [name, data[name]]);
}

/** A file field's value: its metadata, stored with a `name`. */
export const isFile = (value: unknown): value is { name: string } =>
  typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';

/** C38: where a file is seen: the submission in the dashboard, when the worker knows its address. */
export function fileText(
  value: { name: string },
  d: Pick<DeliveryToSend, 'projectId' | 'submissionId'>,
  publicUrl: string | undefined,
): string {
  return publicUrl === undefined
    ? value.name
    : `${publicUrl}/admin/#/p/${encodeURIComponent(d.projectId)}/inbox/${encodeURIComponent(d.submissionId)}`;
}

/** A value as text: a string as it is, a file as fileText, anything else as JSON; absent, empty. */
export function textOf(
  value: unknown,
  d: Pick<DeliveryToSend, 'projectId' | 'submissionId'>,
  publicUrl: string | undefined,
): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (isFile(value)) return fileText(value, d, publicUrl);
  return JSON.stringify(value);
}

/**
 * At most `max` characters, counted as the services count them (UTF-16 units, so an emoji is two),
 * never cutting one in half.
 */
export function within(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}
