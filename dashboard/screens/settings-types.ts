// What the settings screens read of a project, its webhooks and its confirmation: the server's own
// views (the management API returns them), by type only: nothing of the server is bundled.
import type { ProjectView } from '../../src/ops/projects.ts';
import type { WebhookView } from '../../src/ops/targets.ts';

export type Project = ProjectView;
export type Webhook = WebhookView;
export type Confirmation = NonNullable<ProjectView['confirmation']>;
