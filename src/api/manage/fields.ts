// C32: a project's fields, origins and keys over HTTP (the routes tagged so): each route calls the
// operation the tool calls (src/ops), as the caller.
import * as v from 'valibot';
import { fieldFromJson } from '../../fields/spec.ts';
import { addOrigin, defineField, removeField, removeOrigin } from '../../ops/fields.ts';
import { createKey, listKeys, revokeKey } from '../../ops/keys.ts';
import { showProject } from '../../ops/projects.ts';
import { displayPrefix } from '../../projects/keys.ts';
import { type ManageRoutes, plural } from './define.ts';
import { PROJECT_EXAMPLE, projectMember } from './projects.ts';
import { MANAGE_ROUTES } from './table.ts';
import { KeySchema, ProjectSchema } from './views.ts';

export function fieldRoutes(routes: ManageRoutes): void {
  routes.add({
    ...MANAGE_ROUTES.defineField,
    tag: 'Fields, origins and keys',
    summary: 'Defines or replaces one field, checked exactly as the tool checks a field spec (C28, C30)',
    description:
      '`If-None-Match: *` adds only (409 if the field exists); `If-Match: *` replaces only (404 if it does not).',
    access: 'project',
    validate: v.unknown(),
    reply: {
      status: 200,
      description: 'Defined: whether it was added (else replaced), and the project after.',
      members: { added: v.boolean(), project: ProjectSchema },
      example: { message: 'Field defined', added: true, project: PROJECT_EXAMPLE },
    },
    handler: async ({ c, m, params, body }) => {
      const def = fieldFromJson(params.name, body);
      const mode =
        c.req.header('If-None-Match') === '*'
          ? 'add'
          : c.req.header('If-Match') === '*'
            ? 'replace'
            : 'either';
      const { added } = await defineField(m, params.projectId, def, mode);
      return {
        message: added ? 'Field added' : 'Field replaced',
        data: { added, project: await showProject(m, params.projectId) },
      };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.removeField,
    tag: 'Fields, origins and keys',
    summary: 'Removes a field; stored submissions keep their values of it',
    access: 'project',
    reply: {
      status: 200,
      description: 'Removed: the project after.',
      members: projectMember,
      example: { message: 'Field removed', project: PROJECT_EXAMPLE },
    },
    handler: async ({ m, params }) => {
      await removeField(m, params.projectId, params.name);
      return { message: 'Field removed', data: { project: await showProject(m, params.projectId) } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.addOrigin,
    tag: 'Fields, origins and keys',
    summary: 'Allows an origin (C15)',
    access: 'project',
    reply: {
      status: 201,
      description: 'Allowed, normalised.',
      members: { origin: v.string() },
      example: { message: 'Origin allowed', origin: 'https://example.com' },
    },
    handler: async ({ m, params, body }) => ({
      status: 201,
      message: 'Origin allowed',
      data: { origin: await addOrigin(m, params.projectId, body.origin) },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.removeOrigin,
    tag: 'Fields, origins and keys',
    summary: 'Removes an allowed origin (percent-encoded in the path)',
    access: 'project',
    reply: {
      status: 200,
      description: 'Removed.',
      members: { origin: v.string() },
      example: { message: 'Origin removed', origin: 'https://example.com' },
    },
    handler: async ({ m, params }) => ({
      message: 'Origin removed',
      data: { origin: await removeOrigin(m, params.projectId, params.origin) },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.listKeys,
    tag: 'Fields, origins and keys',
    summary: "The project's keys: prefix, kind, created, revoked (never a key)",
    access: 'project',
    reply: {
      status: 200,
      description: 'The keys.',
      members: { keys: v.array(KeySchema) },
      example: { message: '1 key', keys: PROJECT_EXAMPLE.keys },
    },
    handler: async ({ m, params }) => {
      const keys = await listKeys(m, params.projectId);
      return { message: plural(keys.length, 'key'), data: { keys } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.createKey,
    tag: 'Fields, origins and keys',
    summary: 'Makes a key, shown this once (C7, C23)',
    access: 'project',
    reply: {
      status: 201,
      description: 'The key, shown this once: only its hash is stored.',
      members: { key: v.string(), prefix: v.string(), kind: v.string() },
      example: {
        message: 'Key created',
        key: 'edgeform_sk_…',
        prefix: 'edgeform_sk_4hT0pWz1',
        kind: 'secret',
      },
    },
    handler: async ({ m, params, body }) => {
      const key = await createKey(m, params.projectId, body.kind);
      return {
        status: 201,
        message: 'Key created',
        data: { key, prefix: displayPrefix(key), kind: body.kind },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.revokeKey,
    tag: 'Fields, origins and keys',
    summary: 'Revokes a key by its prefix (never the whole key: a URL is logged)',
    access: 'project',
    reply: {
      status: 200,
      description: 'Revoked.',
      members: { revoked: v.string() },
      example: { message: 'Key revoked', revoked: 'edgeform_pk_9Xk2LmQa' },
    },
    handler: async ({ m, params }) => ({
      message: 'Key revoked',
      data: { revoked: await revokeKey(m, params.projectId, params.prefix) },
    }),
  });
}
