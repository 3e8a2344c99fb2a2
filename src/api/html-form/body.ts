// C29, C30: an HTML form's body, read within its limits: urlencoded text up to MAX_BODY_BYTES;
// multipart streamed part by part, its text parts within MAX_BODY_BYTES in all, each file within
// the largest size a file field of the project takes, and all files within MAX_UPLOAD_BYTES. The
// parser stops at the first byte over a limit: nothing is buffered past it. The multipart parser is
// loaded with the first multipart body (docs/layout.md): a urlencoded form post never evaluates it.
import { declaredLength, readWithin } from '../../http/body.ts';
import { ApiError } from '../../http/envelope.ts';
import { bodyBrokenOff, malformedForm, tooLarge } from '../../http/replies.ts';
import type { FormEntry } from './convert.ts';

export type FormLimits = {
  /** All text together (the whole body, when urlencoded). */
  textBytes: number;
  /** One file. */
  fileBytes: number;
  /** All files together. */
  totalFileBytes: number;
};

/** A file over `fileBytes` (the part's field is not known to the parser), or all files over theirs. */
export class FileTooLarge extends Error {
  readonly limit: 'file' | 'total';
  constructor(limit: 'file' | 'total') {
    super(`file ${limit} limit`);
    this.limit = limit;
  }
}

export async function readForm(
  request: Request,
  kind: 'urlencoded' | 'multipart',
  limits: FormLimits,
): Promise<FormEntry[]> {
  if (kind === 'urlencoded') {
    const text = new TextDecoder().decode(await readWithin(request, limits.textBytes));
    return [...new URLSearchParams(text)].map(([name, value]) => ({ name, value }));
  }
  // Generous for the parts' headers and boundaries; the parts themselves are counted exactly below.
  if (declaredLength(request) > limits.textBytes + limits.totalFileBytes + 1024 * 1024) {
    throw tooLarge(limits.textBytes + limits.totalFileBytes);
  }
  const { MaxFileSizeExceededError, MaxTotalSizeExceededError, MultipartParseError, parseMultipartRequest } =
    await import('@remix-run/multipart-parser');
  const entries: FormEntry[] = [];
  let textBytes = 0;
  let fileBytes = 0;
  try {
    for await (const part of parseMultipartRequest(request, {
      // A text part is a part too: the parser's limit is the larger of the two, checked below.
      maxFileSize: Math.max(limits.fileBytes, limits.textBytes),
      maxTotalSize: limits.textBytes + limits.totalFileBytes,
      maxParts: 1000,
    })) {
      const name = part.name;
      if (name === undefined) continue;
      if (part.isFile) {
        if (part.size > limits.fileBytes) throw new FileTooLarge('file');
        fileBytes += part.size;
        if (fileBytes > limits.totalFileBytes) throw new FileTooLarge('total');
        entries.push({ name, filename: part.filename ?? '', bytes: part.bytes });
      } else {
        textBytes += part.size;
        if (textBytes > limits.textBytes) throw tooLarge(limits.textBytes);
        entries.push({ name, value: part.text });
      }
    }
  } catch (error) {
    if (error instanceof ApiError || error instanceof FileTooLarge) throw error;
    if (error instanceof MaxFileSizeExceededError) throw new FileTooLarge('file');
    if (error instanceof MaxTotalSizeExceededError) throw new FileTooLarge('total');
    if (error instanceof MultipartParseError || error instanceof TypeError) throw malformedForm();
    throw bodyBrokenOff();
  }
  return entries;
}
