// Every table, one module per area; drizzle-kit reads them all through this file
// (drizzle.config.ts), and the code imports them from here.
export {
  FIELD_TYPES,
  type FieldType,
  UNKNOWN_FIELD_POLICIES,
  type UnknownFieldPolicy,
} from '../src/fields/catalogue.ts';
export * from './analytics.ts';
export * from './delivery.ts';
export * from './drafts.ts';
export * from './manage.ts';
export * from './places.ts';
export * from './projects.ts';
export * from './spam.ts';
export * from './submissions.ts';
