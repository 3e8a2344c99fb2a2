// What the screens share of the session, and how they move between screens.
import type { Project, Session } from './server-types.ts';

export type { Session };

/** What every project screen is given. */
export type ScreenProps = { projectId: string; session: Session };

/** What a settings screen is given: the project as read, whether the operator sees it, and a read again. */
export type JobProps = { project: Project; operator: boolean; reload: () => void };

/** The fragment of a project's screen, and of one item on it (the inbox's submission). */
export const screenPath = (projectId: string, tab: string, item?: string) =>
  `#/p/${encodeURIComponent(projectId)}/${tab}${item === undefined ? '' : `/${encodeURIComponent(item)}`}`;

/** Moves to another screen (the URL's fragment: never a secret). */
export const go = (path: string) => {
  location.hash = path;
};
