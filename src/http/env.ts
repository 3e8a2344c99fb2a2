// The app's Hono environment: its bindings, and what a request's steps hand on to the next (its
// request id; once its key is checked, its project and key; a route's checked body). Every app and
// route of the worker is typed by it; types only.
import type { ResolvedProject } from '../projects/cache.ts';

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    project: ResolvedProject;
    keyHash: string;
    /** What `key list` shows of the request's key (C7): who made a change, in the audit log (C32). */
    keyPrefix: string;
    /** A route's JSON body, once its contract has checked it (src/http/contract.ts). */
    body: unknown;
  };
};
