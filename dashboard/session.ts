// What the screens share of the session, and how they move between screens.
export type Session = { actor: string; projectId: string | null; expiresAt: string; csrfToken: string };

/** What every project screen is given. */
export type ScreenProps = { projectId: string; session: Session };

/** Moves to another screen (the URL's fragment: never a secret). */
export const go = (path: string) => {
  location.hash = path;
};
