// C33: the dashboard at /admin/: static assets (built by `npm run build:assets`), speaking only to
// the management API. Signed in by a session cookie; behind Cloudflare Access, by Access itself.
// Screens are chosen by the URL's fragment (`#/p/<project>/inbox`), which holds no secret.
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, currentSession, startSession } from './api.ts';
import { AuditScreen } from './screens/audit.tsx';
import { DeliveriesScreen } from './screens/deliveries.tsx';
import { EmbedScreen } from './screens/embed.tsx';
import { InboxScreen } from './screens/inbox.tsx';
import { PageScreen } from './screens/page.tsx';
import { ProjectsScreen } from './screens/projects.tsx';
import { jobOf, SettingsScreen } from './screens/settings.tsx';
import { SignIn } from './screens/signin.tsx';
import { StatsScreen } from './screens/stats.tsx';
import { ConfirmDialog, Notes, useLoad } from './ui.tsx';
import './style.css';

import { go, type Session, screenPath } from './session.ts';

const TABS = ['inbox', 'deliveries', 'settings', 'embed', 'page', 'stats', 'audit'] as const;
type Tab = (typeof TABS)[number];
type Route = { projectId?: string; tab: Tab; item?: string };

function routeOf(hash: string): Route {
  const [, p, projectId, tab, item] = hash.replace(/^#/, '').split('/');
  if (p !== 'p' || projectId === undefined || projectId === '') return { tab: 'inbox' };
  return {
    projectId: decodeURIComponent(projectId),
    tab: (TABS as readonly string[]).includes(tab ?? '') ? (tab as Tab) : 'inbox',
    ...(item ? { item: decodeURIComponent(item) } : {}),
  };
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const changed = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

const LABELS: Record<Tab, string> = {
  inbox: 'Inbox',
  deliveries: 'Deliveries',
  settings: 'Settings',
  embed: 'Embed',
  page: 'Page',
  stats: 'Stats',
  audit: 'Audit',
};

function ProjectNav({ session, route }: { session: Session; route: Route & { projectId: string } }) {
  const projects = useLoad(
    () => api<{ projects: { id: string; name: string }[] }>('GET', '/projects'),
    [route.projectId],
  );
  const name = projects.data?.projects.find((p) => p.id === route.projectId)?.name ?? route.projectId;
  const tabs = useRef<HTMLUListElement>(null);
  // On a narrow screen the tabs scroll sideways: the current one is brought into view.
  useEffect(() => {
    tabs.current?.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [route.tab]);
  return (
    <nav aria-label="Project">
      {session.projectId === null && <a href="#/">All projects</a>}
      <span class="project-name">{name}</span>
      <ul class="tabs" ref={tabs}>
        {TABS.map((tab) => (
          <li key={tab}>
            <a href={screenPath(route.projectId, tab)} aria-current={route.tab === tab ? 'page' : undefined}>
              {LABELS[tab]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Screen({ session, route }: { session: Session; route: Route }) {
  // A secret key's session has one project: it opens on it.
  const projectId = route.projectId ?? session.projectId ?? undefined;
  if (projectId === undefined) return <ProjectsScreen session={session} />;
  const props = { projectId, session };
  switch (route.tab) {
    case 'deliveries':
      return <DeliveriesScreen {...props} />;
    case 'settings':
      return <SettingsScreen {...props} job={route.item} />;
    case 'embed':
      return <EmbedScreen {...props} />;
    case 'page':
      return <PageScreen {...props} />;
    case 'stats':
      return <StatsScreen {...props} />;
    case 'audit':
      return <AuditScreen {...props} />;
    default:
      return <InboxScreen {...props} item={route.item} />;
  }
}

/**
 * Where a sign-in lands, when the address names no screen (`/admin/`, not `#/`, the list asked
 * for): the operator with one project, in its inbox; a secret key's session opens on its project.
 */
async function land(session: Session): Promise<void> {
  if (location.hash !== '' || session.projectId !== null) return;
  const { projects } = await api<{ projects: { id: string }[] }>('GET', '/projects').catch(() => ({
    projects: [],
  }));
  const [only] = projects;
  if (projects.length === 1 && only && location.hash === '') go(screenPath(only.id, 'inbox'));
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const route = useRoute();
  // The CSRF token and the way out are in place before any screen's first request.
  // The landing is chosen before the first screen shows: no list of projects flashes by.
  const signedIn = async (s: Session | null) => {
    if (s) {
      startSession(s.csrfToken, () => setSession(null));
      await land(s);
    }
    setSession(s);
  };
  useEffect(() => {
    currentSession().then(signedIn, () => setSession(null));
  }, []);
  useEffect(() => {
    const screen =
      route.tab === 'settings' ? `${jobOf(route.item).label} · ${LABELS.settings}` : LABELS[route.tab];
    document.title = route.projectId ? `${screen} · edge-forms` : 'edge-forms';
  }, [route]);
  if (session === undefined) return <p class="loading">Loading…</p>;
  const signOut = async () => {
    await api('DELETE', '/session').catch(() => {});
    setSession(null);
  };
  const projectId = route.projectId ?? session?.projectId ?? undefined;
  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header>
        <a class="brand" href="#/">
          edge-forms
        </a>
        {session && projectId !== undefined && (
          <ProjectNav session={session} route={{ ...route, projectId }} />
        )}
        {session && (
          <div class="who">
            <span>{session.actor}</span>
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {session ? <Screen session={session} route={route} /> : <SignIn onSignedIn={signedIn} />}
      </main>
      <Notes />
      <ConfirmDialog />
    </>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
