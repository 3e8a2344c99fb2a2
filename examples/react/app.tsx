// A contact form for `npm run dev`'s example project, in React, with @edge-forms/client: each field's
// problem is shown beside it, in the page's language (C43), and read out as it appears.
import { type Client, createClient } from '@edge-forms/client';
import { FieldError, fieldErrorId, useForm } from '@edge-forms/client/react';
import { type FormEvent, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** The example project's fields, as `npm run -s forms -- types example` writes them (its file left out). */
type Contact = {
  name?: string;
  email?: string;
  phone?: number;
  enquiry?: boolean;
  message?: string;
};

type Field = keyof Contact & string;

const LABELS: Record<Field, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  enquiry: 'This is a business enquiry',
  message: 'Message',
};

/** The page's language, else the browser's: the messages' (a language the catalogue lacks is English). */
const LANG = document.documentElement.lang || navigator.language;

/** The form's values as the project's types: a number for the phone, a boolean for the box; empty fields left out. */
function contactFrom(element: HTMLFormElement): Contact {
  const data = new FormData(element);
  const contact: Contact = { enquiry: data.has('enquiry') };
  for (const name of ['name', 'email', 'message'] as const) {
    const value = String(data.get(name) ?? '');
    if (value !== '') contact[name] = value;
  }
  const phone = String(data.get('phone') ?? '');
  if (phone !== '') contact.phone = Number(phone);
  return contact;
}

/** A control's id and name, and while it has a problem: invalid, and described by its FieldError. */
function control(errors: Partial<Record<Field, string>>, name: Field) {
  const invalid = errors[name] !== undefined;
  return {
    id: name,
    name,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? fieldErrorId(name) : undefined,
  };
}

function ContactForm({ client }: { client: Client<Contact> }) {
  const form = useForm(client, { lang: LANG, labels: LABELS });
  const sending = form.state === 'submitting';
  const status =
    form.state === 'succeeded'
      ? 'Thank you! We received your message.'
      : form.state === 'failed'
        ? form.message
        : '';
  const problem = (field: Field) => (
    <FieldError errors={form.fieldErrors} field={field} lang={LANG} label={LABELS[field]} />
  );

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    const result = await form.submit(contactFrom(element));
    if (result?.ok) element.reset();
  }

  return (
    <form noValidate onSubmit={send}>
      <label htmlFor="name">{LABELS.name}</label>
      <input {...control(form.errors, 'name')} autoComplete="name" />
      {problem('name')}

      <label htmlFor="email">{LABELS.email}</label>
      <input {...control(form.errors, 'email')} type="email" autoComplete="email" />
      {problem('email')}

      <label htmlFor="phone">{LABELS.phone}</label>
      <input {...control(form.errors, 'phone')} type="number" inputMode="numeric" autoComplete="tel" />
      {problem('phone')}

      <label className="choice">
        <input {...control(form.errors, 'enquiry')} type="checkbox" /> {LABELS.enquiry}
      </label>
      {problem('enquiry')}

      <label htmlFor="message">{LABELS.message}</label>
      <textarea {...control(form.errors, 'message')} rows={4} />
      {problem('message')}

      <button type="submit" disabled={sending}>
        {sending ? 'Sending…' : 'Send'}
      </button>
      {/* Always in the page, so that what appears in it is read out. */}
      <p role="status" className="status" data-state={form.state}>
        {status}
      </p>
    </form>
  );
}

// The worker and the project's publishable key: the address's ?endpoint= and ?key=, else the page's data-*.
const root = document.getElementById('contact');
if (!root) throw new Error('The page has no #contact element');
const query = new URLSearchParams(location.search);
const endpoint = query.get('endpoint') ?? root.dataset.endpoint ?? '';
const key = query.get('key') ?? root.dataset.key ?? '';

createRoot(root).render(
  <StrictMode>
    {key ? (
      <ContactForm client={createClient<Contact>({ endpoint, key })} />
    ) : (
      <p>
        Open this page with <code>?key=</code> and the publishable key that <code>npm run dev</code> prints.
      </p>
    )}
  </StrictMode>,
);
