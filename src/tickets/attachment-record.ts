import type { Ctx } from '../context.ts';
import { readRecord } from '../store/parse-record.ts';
import { type Attachment, AttachmentSchema } from './ticket.ts';

/** Stored attachments (`ticketCards`) through their schema; one that fails is logged and left out. */
export function readAttachments(ctx: Partial<Pick<Ctx, 'log'>>, raws: string[], key: string): Attachment[] {
  return raws.flatMap((raw) => {
    const r = readRecord(ctx, AttachmentSchema, raw, key);
    return r.ok ? [r.value] : [];
  });
}
