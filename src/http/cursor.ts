// C24, C34: a listing's cursor, the same for the key-scoped submissions API and the management API.
import { UUID } from '../lib/ids.ts';
import type { Order } from '../store/inbox.ts';
import { invalidParameter } from './replies.ts';

// Cursors are opaque to clients: the order and the last id of the page, in base64url.
export function encodeCursor(order: Order, id: string): string {
  return btoa(`${order}:${id}`).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

export function decodeCursor(cursor: string, order: Order): string {
  let text = '';
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    // falls through to the refusal below
  }
  const [cursorOrder, id = ''] = text.split(':');
  if (cursorOrder !== order || !UUID.test(id)) {
    throw invalidParameter(
      'cursor',
      'is not a cursor of this listing (use nextCursor as given, with the same order)',
    );
  }
  return id;
}
