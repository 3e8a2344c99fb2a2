// R2's objects many at a time, by prefix, for the jobs that are never a form post's: the sweep's
// deletions (C30), and a move's copy of a project's files to another place's bucket, each copy
// checked, or its copies deleted again when it fails (C41).
import type { R2Bucket } from '@cloudflare/workers-types';

/** Every object of a project in a bucket lies under this prefix (`<project>/<submission>/<field>`). */
export const projectPrefix = (projectId: string) => `${projectId}/`;

/** Removes every object under these prefixes. */
export async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix, ...(cursor === undefined ? {} : { cursor }) });
    if (listed.objects.length > 0) await bucket.delete(listed.objects.map((o) => o.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor !== undefined);
}

/** The files of the project in a bucket: every object under `<project>/`. */
async function objectsOf(bucket: R2Bucket, projectId: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({
      prefix: projectPrefix(projectId),
      ...(cursor === undefined ? {} : { cursor }),
    });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return keys;
}

/**
 * Copies each file of the project, then checks that the copy has the same bytes (its size and MD5
 * as R2 reports them). Returns how many were copied.
 */
export async function copyProjectFiles(from: R2Bucket, to: R2Bucket, projectId: string): Promise<number> {
  const keys = await objectsOf(from, projectId);
  for (const key of keys) {
    const object = await from.get(key);
    if (object === null) continue; // deleted since the listing: a submission erased meanwhile
    const bytes = await object.arrayBuffer();
    await to.put(key, bytes, {
      httpMetadata: object.httpMetadata ?? {},
      customMetadata: object.customMetadata ?? {},
    });
    // R2's etag of a whole upload is the MD5 of its bytes: the same etag, the same bytes.
    const copy = await to.head(key);
    if (copy === null || copy.size !== object.size || copy.etag !== object.etag) {
      throw new Error(`the copy of the file '${key}' differs`);
    }
  }
  return keys.length;
}

/** Every file of the project in a bucket deleted: a failed move's copies in the place it did not reach. */
export function deleteProjectFiles(bucket: R2Bucket, projectId: string): Promise<void> {
  return deletePrefix(bucket, projectPrefix(projectId));
}
