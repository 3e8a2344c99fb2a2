// What the dashboard reads from the management API: the server's own views, by type only (nothing
// of the server is bundled), so a screen cannot drift from what the API returns.

import type * as v from 'valibot';
import type { SessionSchema } from '../src/api/manage/views.ts';
import type { ChannelChoices } from '../src/delivery/channels/index.ts';
import type { FileMetadata } from '../src/fields/file.ts';
import type { listDeliveries } from '../src/ops/deliveries.ts';
import type { DraftView } from '../src/ops/drafts.ts';
import type { PageInput } from '../src/ops/hosted-page.ts';
import type { SubmissionView } from '../src/ops/inbox.ts';
import type { IntegrationView } from '../src/ops/integrations.ts';
import type { PlaceView } from '../src/ops/places.ts';
import type { PageView, ProjectView } from '../src/ops/project-view.ts';
import type { listProjects } from '../src/ops/projects.ts';
import type { DayReport, ProjectStats } from '../src/ops/stats.ts';
import type { WebhookView } from '../src/ops/targets.ts';
import type { AuditEntry } from '../src/store/audit.ts';

export type Project = ProjectView;
/** C44: a project's hosted page, as the project's view shows it. */
export type PageSettings = PageView;
/** C44: the page's members to change (`PATCH /projects/:id {"page": …}`): each given replaces that member. */
export type PageChanges = PageInput;
/** A project as the list of projects shows it. */
export type ProjectSummary = Awaited<ReturnType<typeof listProjects>>[number];
/** C41: a place's database, as the operator sees it. */
export type Place = PlaceView;
export type Webhook = WebhookView;
/** C38: a built-in integration, as listed (its secret by its last four characters). */
export type Integration = IntegrationView;
/** C33: what the dashboard offers of each delivery kind (`/admin/channels.json`, built from the channels). */
export type Channels = ChannelChoices;
export type Confirmation = NonNullable<ProjectView['confirmation']>;
export type Submission = SubmissionView;
/** C46: a draft of a hosted page in steps, as `…/submissions?partial=only` lists it: never a submission. */
export type Draft = DraftView;
export type FileMeta = FileMetadata;
export type Delivery = Awaited<ReturnType<typeof listDeliveries>>[number];
export type Day = DayReport;
/** C40: a project's stats, with its form analytics. */
export type Stats = ProjectStats;
export type Entry = AuditEntry;
/** A session, as its reply's schema declares it. */
export type Session = v.InferOutput<typeof SessionSchema>;
