// C27: the notification email of a submission, as composed before the binding sends it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEmailAddress, notificationEmail } from '../../src/delivery/mail.ts';

const delivery = (
  data: Record<string, unknown>,
  extra: { projectName?: string; replyToField?: string | null } = {},
) => ({
  url: 'mailto:owner@example.com',
  projectId: 'prj_1',
  projectName: extra.projectName ?? 'Contact',
  submissionId: '0190aaaa-0000-7000-8000-000000000000',
  receivedAt: '2026-11-23T10:00:00.000Z',
  data: JSON.stringify(data),
  replyToField: extra.replyToField ?? null,
});

describe('C27: the notification email', () => {
  it('C27: every field in stored order as `name: value`; strings as they are, anything else as JSON', () => {
    const email = notificationEmail(
      delivery({ name: 'Ada', phone: 42, ok: false, tags: ['a'], empty: '' }),
      'forms@example.com',
    );
    expect(email).toMatchObject({
      from: 'forms@example.com',
      to: 'owner@example.com',
      subject: 'New submission: Contact',
    });
    expect(email.text).toContain('name: Ada\nphone: 42\nok: false\ntags: ["a"]\nempty: \n');
    expect(email.text).toContain(
      'Submission 0190aaaa-0000-7000-8000-000000000000, received 2026-11-23T10:00:00.000Z.',
    );
  });

  it('C27: a value over several lines cannot pass for another field: its later lines are indented', () => {
    const email = notificationEmail(
      delivery({ message: 'hi\nemail: forged@evil.example\r\nbye' }),
      'f@example.com',
    );
    expect(email.text).toContain('message: hi\n  email: forged@evil.example\n  bye\n');
  });

  it('C27: every Unicode line terminator in a value is a line break, indented like one', () => {
    for (const lineBreak of ['\n', '\r\n', '\r', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029']) {
      const email = notificationEmail(
        delivery({ message: `hi${lineBreak}email: forged@evil.example` }),
        'f@example.com',
      );
      expect(email.text).toContain('message: hi\n  email: forged@evil.example\n');
      expect(email.text).not.toMatch(/[\v\f\r\u0085\u2028\u2029]/);
    }
  });

  it('C27 (property): no line of the email starts with another field’s name, whatever a value holds', () => {
    const terminators = fc.constantFrom('\n', '\r\n', '\r', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029');
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), terminators)), (parts) => {
        const email = notificationEmail(delivery({ message: parts.join(''), other: 'x' }), 'f@example.com');
        const lines = email.text.split('\n');
        expect(lines.filter((l) => l.startsWith('other: '))).toEqual(['other: x']);
        expect(email.text).not.toMatch(/[\v\f\r\u0085\u2028\u2029]/);
      }),
    );
  });

  it('C27: Reply-To is the named field when it holds a valid address, and nothing otherwise', () => {
    const from = 'forms@example.com';
    expect(
      notificationEmail(delivery({ email: 'ada@example.com' }, { replyToField: 'email' }), from).replyTo,
    ).toBe('ada@example.com');
    for (const bad of [
      'not an address',
      'a@example.com\r\nBcc: x@example.com',
      'a@example.com, b@example.com',
      42,
      null,
    ]) {
      expect(notificationEmail(delivery({ email: bad }, { replyToField: 'email' }), from)).not.toHaveProperty(
        'replyTo',
      );
    }
    expect(notificationEmail(delivery({ email: 'ada@example.com' }), from)).not.toHaveProperty('replyTo');
    expect(notificationEmail(delivery({}, { replyToField: 'email' }), from)).not.toHaveProperty('replyTo');
  });

  it('C27: no header the email carries ever holds a line break, whatever the project and the submitter sent', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (projectName, value) => {
        const email = notificationEmail(
          delivery({ email: value }, { projectName, replyToField: 'email' }),
          'f@example.com',
        );
        for (const header of [email.subject, email.to, email.from, email.replyTo ?? '']) {
          expect(header).not.toMatch(/[\p{Cc}\p{Zl}\p{Zp}]/u);
        }
        if (email.replyTo !== undefined) expect(isEmailAddress(email.replyTo)).toBe(true);
      }),
    );
  });
});
