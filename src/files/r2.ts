// C30: a submission's files in R2, under `<project>/<submission>/<field>`: written before the
// submission's D1 write (so that no stored submission names a missing file), deleted with it.
import type { UploadedFile } from '../fields/file.ts';
import { scheduleUploadCleanup } from '../store/intake.ts';

export const submissionPrefix = (projectId: string, submissionId: string) => `${projectId}/${submissionId}/`;
export const fileKey = (projectId: string, submissionId: string, field: string) =>
  `${submissionPrefix(projectId, submissionId)}${encodeURIComponent(field)}`;

/** One file of a submission into R2, typed as judged, checked by R2 against its SHA-256. */
function putFile(
  bucket: R2Bucket,
  projectId: string,
  submissionId: string,
  [field, file]: readonly [string, UploadedFile],
) {
  return bucket.put(fileKey(projectId, submissionId, field), file.bytes, {
    httpMetadata: { contentType: file.type },
    sha256: file.sha256,
  });
}

/**
 * How long an upload's files wait for their submission's write before the sweep deletes them: far
 * longer than any write is given (a write is presumed lost after 30 s).
 */
export const UPLOAD_GRACE_MS = 60 * 60_000;

/**
 * Writes the files of one submission; on any failure removes what was written, and throws. Before
 * any is written, D1 is told to delete them in UPLOAD_GRACE_MS unless the submission is stored by
 * then: nothing is left in R2 by a worker that stops between the upload and the write.
 */
export async function putFiles(
  d1: D1Database,
  bucket: R2Bucket,
  projectId: string,
  submissionId: string,
  files: readonly (readonly [string, UploadedFile])[],
): Promise<void> {
  const now = new Date();
  await scheduleUploadCleanup(
    d1,
    submissionPrefix(projectId, submissionId),
    now,
    new Date(now.getTime() + UPLOAD_GRACE_MS),
  );
  try {
    await Promise.all(files.map((entry) => putFile(bucket, projectId, submissionId, entry)));
  } catch (error) {
    await deleteFiles(bucket, projectId, submissionId, files).catch(() => {});
    throw error;
  }
}

/**
 * C18, C30: the files of a stored submission that R2 does not hold, put again (from a retry of the
 * same submission: the same bytes, by their SHA-256). Returns how many were put.
 */
export async function restoreFiles(
  bucket: R2Bucket,
  projectId: string,
  submissionId: string,
  files: readonly (readonly [string, UploadedFile])[],
): Promise<number> {
  const missing: (readonly [string, UploadedFile])[] = [];
  await Promise.all(
    files.map(async (entry) => {
      if ((await bucket.head(fileKey(projectId, submissionId, entry[0]))) === null) missing.push(entry);
    }),
  );
  await Promise.all(missing.map((entry) => putFile(bucket, projectId, submissionId, entry)));
  return missing.length;
}

/** Removes the files of a submission that was not stored (their keys are known: no listing). */
export function deleteFiles(
  bucket: R2Bucket,
  projectId: string,
  submissionId: string,
  files: readonly (readonly [string, unknown])[],
): Promise<void> {
  return bucket.delete(files.map(([field]) => fileKey(projectId, submissionId, field)));
}
