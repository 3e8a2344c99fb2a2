// C32: the management API, under /api/v1: sessions, projects with their fields, origins, keys and
// hosted page (C44), delivery targets and deliveries, and the inbox. Each route calls one
// operation of src/ops.
import type { HonoBase } from 'hono/hono-base';
import type { AppEnv } from '../../http/env.ts';
import { consentRoutes } from './consent.ts';
import { ManageRoutes } from './define.ts';
import { deliveryRoutes } from './deliveries.ts';
import { fieldRoutes } from './fields.ts';
import { pageRoutes } from './hosted-page.ts';
import { inboxRoutes } from './inbox.ts';
import { integrationRoutes } from './integrations.ts';
import { placeRoutes } from './places.ts';
import type { ManageEnv } from './principal.ts';
import { projectRoutes } from './projects.ts';
import { sessionRoutes } from './session.ts';
import { targetRoutes } from './targets.ts';

export function manageRoutes(app: HonoBase<AppEnv>): void {
  const routes = new ManageRoutes(app as unknown as HonoBase<ManageEnv>);
  sessionRoutes(routes);
  projectRoutes(routes);
  fieldRoutes(routes);
  pageRoutes(routes);
  targetRoutes(routes);
  deliveryRoutes(routes);
  integrationRoutes(routes);
  inboxRoutes(routes);
  placeRoutes(routes);
  routes.close();
  consentRoutes(app);
}
