// C32, C33: signing in: the operator token (from `.dev.vars` under `npm run dev`) or a project's
// secret key, sent once to make a session. The field is cleared; the credential is kept nowhere.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { Session } from '../session.ts';
import { messageOf } from '../ui.tsx';

export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [credential, setCredential] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { session } = await api<{ session: Session }>('POST', '/session', undefined, {
        Authorization: `Bearer ${credential.trim()}`,
      });
      setCredential('');
      onSignedIn(session);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="signin" onSubmit={submit}>
      <h1>Sign in</h1>
      <label>
        Operator token or secret key
        <input
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={credential}
          required
          onInput={(e) => setCredential(e.currentTarget.value)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby="signin-help"
        />
      </label>
      <p id="signin-help" class="help">
        The operator token manages every project: under <code>npm run dev</code> it is{' '}
        <code>ADMIN_TOKEN</code> in <code>.dev.vars</code>. A project's secret key (<code>edgeform_sk_…</code>
        ) manages that project only.
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}
