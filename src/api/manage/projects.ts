// C32: projects over HTTP (made, listed, shown, changed, moved, deleted, their JSON Schema and, C43,
// their TypeScript module): each route calls the operation the tool calls (src/ops), as the caller.
// Their fields, origins and keys are fields.ts.
import * as v from 'valibot';
import type { UnknownFieldPolicy } from '../../fields/catalogue.ts';
import { generateModule } from '../../fields/generate.ts';
import { fieldFromJson } from '../../fields/spec.ts';
import { moveProject } from '../../ops/move.ts';
import { updateProject } from '../../ops/project-settings.ts';
import {
  createProject,
  deleteProject,
  listProjects,
  projectSchema,
  showProject,
} from '../../ops/projects.ts';
import { type ManageRoutes, plural } from './define.ts';
import { NewProjectCheck, ProjectPatchCheck } from './schemas.ts';
import { MANAGE_ROUTES } from './table.ts';
import { ProjectSchema, ProjectSummarySchema } from './views.ts';

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
    {
      name: 'email',
      type: 'string',
      required: true,
      rules: { format: 'email' },
      label: { en: 'Your email', de: 'Ihre E-Mail-Adresse' },
    },
    { name: 'message', type: 'string', required: false },
  ],
  page: {
    enabled: false,
    languages: ['en', 'de'],
    title: { en: 'Write to us', de: 'Schreiben Sie uns' },
    intro: {},
    thanks: {},
    accent: '#1f5fbf',
    theme: 'auto',
    logo: null,
  },
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

export const projectMember = { project: ProjectSchema };

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
    // Each field is checked by the field grammar (C28, C44), in the sentence the tool prints.
    validate: NewProjectCheck,
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
    description:
      '`page` (C44): the hosted page\'s members given replace those members; the others stay (`{"page": {"enabled": true}}` turns it on alone).',
    access: 'project',
    // The page's settings are checked by the operation, in the sentence the tool prints (C44).
    validate: ProjectPatchCheck,
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
    ...MANAGE_ROUTES.getProjectTypes,
    tag: 'Projects',
    summary: "The project's fields as a TypeScript module (C43), as `forms types` prints it",
    access: 'project',
    reply: {
      status: 200,
      description:
        'A self-contained module: the `Submission` type, the JSON Schema as `fields`, and `schema`, a Standard Schema v1 validator that judges as the worker does.',
      members: { module: v.string() },
      example: {
        message: 'TypeScript module',
        module: 'export type Submission = {\n  email: string;\n};\n…',
      },
    },
    handler: async ({ m, params }) => {
      const p = await showProject(m, params.projectId);
      const options = { project: p.id, honeypot: p.honeypot, language: p.page.languages[0] };
      return {
        message: 'TypeScript module',
        data: { module: generateModule(p.fields, p.unknownFields as UnknownFieldPolicy, options) },
      };
    },
  });
}
