import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from './chat-message.ts';

const dir = fileURLToPath(new URL('../../prompts/loop/', import.meta.url));
const read = async (name: string) => (await readFile(`${dir}${name}.md`, 'utf8')).trim();

/** The host's words around a tool result's picture (issue 28), Markdown in `prompts/loop/`. */
const TEXTS = { picture: await read('picture'), elided: await read('picture-elided') };

const fill = (text: string, size: { width: number; height: number }) =>
  text.replace('{width}', String(size.width)).replace('{height}', String(size.height));

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/** The line that introduces a picture sent after its result (Chat Completions). */
export const pictureCaption = (image: NonNullable<ToolMessage['image']>): string =>
  fill(TEXTS.picture, image);

/** What the model reads where an elided picture was; undefined for a result without one. */
export const elidedPictureNote = (m: ToolMessage): string | undefined =>
  m.image_elided ? fill(TEXTS.elided, m.image_elided) : undefined;

/** A picture as a data URL. */
export const dataUrl = (image: NonNullable<ToolMessage['image']>): string =>
  `data:${image.media_type};base64,${image.data}`;
