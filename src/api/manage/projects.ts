// C32: projects, their fields, origins and keys over HTTP: each route calls the operation the tool
// calls (src/ops), as the caller.
import * as v from 'valibot';
import { fieldFromJson } from '../../fields/spec.ts';
import { addOrigin, defineField, removeField, removeOrigin } from '../../ops/fields.ts';
import { createKey, listKeys, revokeKey } from '../../ops/keys.ts';
import { moveProject } from '../../ops/move.ts';
import {
  createProject,
  deleteProject,
  listProjects,
  projectSchema,
  showProject,
  updateProject,
} from '../../ops/projects.ts';
import { displayPrefix } from '../../projects/keys.ts';
import { type ManageRoutes, plural } from './define.ts';
import { MANAGE_ROUTES } from './table.ts';
import { KeySchema, ProjectSchema, ProjectSummarySchema } from './views.ts';

export const PROJECT_EXAMPLE = {
  id: 'p_k3jd8s2mq0zx',
  name: 'Contact form',
  place: 'default',
  unknownFields: 'reject',
  honeypot: null,
  turnstile: false,
  retentionDays: null,
  replyToField: null,
  formId: 'f_qrier7fewop7',
  thankYouUrl: null,
  confirmation: null,
  createdAt: '2026-11-22T08:00:00.000Z',
  fields: [
    { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
    { name: 'message', type: 'string', required: false },
  ],
  origins: ['https://example.com'],
  keys: [
    {
      prefix: 'edgeform_pk_9Xk2LmQa',
      kind: 'publishable',
      createdAt: '2026-11-22T08:00:00.000Z',
      revokedAt: null,
      lastUsedAt: '2026-11-22T09:12:00.000Z',
    },
  ],
};

const projectMember = { project: ProjectSchema };

export function projectRoutes(routes: ManageRoutes): void {
  routes.add({
    ...MANAGE_ROUTES.listProjects,
    tag: 'Projects',
    summary: 'Every project the caller may manage, with its numbers (a secret key: its own)',
    access: 'any',
    reply: {
      status: 200,
      description: 'The projects.',
      members: { projects: v.array(ProjectSummarySchema) },
      example: {
        message: '1 project',
        projects: [
          {
            id: PROJECT_EXAMPLE.id,
            name: PROJECT_EXAMPLE.name,
            place: PROJECT_EXAMPLE.place,
            createdAt: PROJECT_EXAMPLE.createdAt,
            fields: 2,
            keys: 1,
            submissions: 12,
            unread: 3,
            lastReceivedAt: '2026-11-22T09:12:00.000Z',
          },
        ],
      },
    },
    handler: async ({ m, principal }) => {
      const all = await listProjects(m);
      const projects =
        principal.projectId === undefined ? all : all.filter((p) => p.id === principal.projectId);
      return { message: plural(projects.length, 'project'), data: { projects } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.createProject,
    tag: 'Projects',
    summary: 'Creates a project with its fields; the reply holds its first publishable key, shown once',
    access: 'operator',
    reply: {
      status: 201,
      description: 'Created. `apiKey` is shown this once: only its hash is stored (C7).',
      members: {
        projectId: v.string(),
        apiKey: v.string(),
        formId: v.string(),
        name: v.string(),
        fields: v.array(v.unknown()),
        origins: v.array(v.string()),
        unknownFields: v.string(),
        honeypot: v.nullable(v.string()),
        turnstile: v.boolean(),
        thankYouUrl: v.nullable(v.string()),
        retentionDays: v.nullable(v.number()),
        place: v.string(),
      },
      example: {
        message: 'Project created',
        place: 'default',
        projectId: PROJECT_EXAMPLE.id,
        apiKey: 'edgeform_pk_9Xk2LmQa…',
        formId: PROJECT_EXAMPLE.formId,
        name: PROJECT_EXAMPLE.name,
        fields: PROJECT_EXAMPLE.fields,
        origins: PROJECT_EXAMPLE.origins,
        unknownFields: 'reject',
        honeypot: null,
        turnstile: false,
        thankYouUrl: null,
        retentionDays: null,
      },
    },
    handler: async ({ m, body }) => {
      const fields = body.fields.map(({ name, ...def }) => fieldFromJson(name, def));
      const created = await createProject(m, { ...body, fields });
      return { status: 201, message: 'Project created', data: created };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.getProject,
    tag: 'Projects',
    summary: 'Everything about a project: fields with rules, origins, settings, form address, keys',
    access: 'project',
    reply: {
      status: 200,
      description: 'The project. Never a key, nor the Turnstile secret.',
      members: projectMember,
      example: { message: 'Project found', project: PROJECT_EXAMPLE },
    },
    handler: async ({ m, params }) => ({
      message: 'Project found',
      data: { project: await showProject(m, params.projectId) },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.updateProject,
    tag: 'Projects',
    summary: 'Changes settings; null clears one (the Turnstile secret is write-only)',
    access: 'project',
    reply: {
      status: 200,
      description: 'The project after.',
      members: projectMember,
      example: { message: 'Project updated', project: PROJECT_EXAMPLE },
    },
    handler: async ({ m, params, body }) => ({
      message: 'Project updated',
      data: { project: await updateProject(m, params.projectId, body) },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.moveProject,
    tag: 'Projects',
    summary: 'Moves a project to another place (C41): copied, verified, switched, then deleted where it was',
    description:
      'Submissions arriving meanwhile get 503 with Retry-After; its keys and form address keep working.',
    access: 'operator',
    // C41: a move finds the project's place itself, and takes up a move that stopped midway.
    findsPlace: true,
    reply: {
      status: 200,
      description: 'Moved: the rows copied in each table, the files, and the project where it lives now.',
      members: {
        from: v.string(),
        to: v.string(),
        rows: v.record(v.string(), v.number()),
        files: v.number(),
        project: ProjectSchema,
      },
      example: {
        message: "Project moved to 'eu'",
        from: 'default',
        to: 'eu',
        rows: { projects: 1, submissions: 12 },
        files: 0,
        project: { ...PROJECT_EXAMPLE, place: 'eu' },
      },
    },
    handler: async ({ m, params, body }) => {
      const moved = await moveProject(m, params.projectId, body.to);
      return { message: `Project moved to '${moved.to}'`, data: moved };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.deleteProject,
    tag: 'Projects',
    summary: 'Deletes a project with all its data and files (the operator only)',
    access: 'operator',
    reply: {
      status: 200,
      description: 'Deleted: the project as it was.',
      members: projectMember,
      example: { message: 'Project deleted', project: PROJECT_EXAMPLE },
    },
    handler: async ({ m, params }) => ({
      message: 'Project deleted',
      data: { project: await deleteProject(m, params.projectId) },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.getProjectSchema,
    tag: 'Projects',
    summary: "The project's submission as JSON Schema (C28)",
    access: 'project',
    reply: {
      status: 200,
      description: 'A JSON Schema (2020-12).',
      members: { schema: v.record(v.string(), v.unknown()) },
      example: { message: 'Schema', schema: { type: 'object' } },
    },
    handler: async ({ m, params }) => ({
      message: 'Schema',
      data: { schema: await projectSchema(m, params.projectId) },
    }),
  });

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
