import type { ReadOptionsBody } from '../http/wire/read-options.js';
import type { ParsedArgs } from './args.js';
import { UsageError } from './args.js';

/**
 * `pith read` flags for the read options (issue 17), as the request body names them, so the
 * local engine and a remote server get the same thing: `--target <css>`, `--remove <css>`
 * (a selector list `a, b` takes several), `--format markdown|html|text`, `--links`,
 * `--images`, `--whole-page` (main_content: false), `--link-mode`, `--image-mode`,
 * `--no-clean-urls` (clean_urls: false: URLs exactly as found).
 */

/** Flags of read that take no value (see BOOLEAN_FLAGS of client-commands.ts). */
export const READ_BOOLEAN_FLAGS = ['links', 'images', 'whole-page', 'no-clean-urls'];

const FORMATS = ['markdown', 'html', 'text'] as const;
const LINK_MODES = ['inline', 'references', 'text'] as const;
const IMAGE_MODES = ['keep', 'alt', 'drop'] as const;

function choice<T extends string>(args: ParsedArgs, flag: string, allowed: readonly T[]): T | undefined {
  const value = args.options.get(flag);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} takes ${allowed.join('|')}`);
  }
  return value as T;
}

function selector(args: ParsedArgs, flag: string): string | undefined {
  const value = args.options.get(flag);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${flag} takes a CSS selector`);
  return value;
}

export function readOptionsBodyOf(args: ParsedArgs): ReadOptionsBody {
  const body: ReadOptionsBody = {};
  const target = selector(args, 'target');
  const remove = selector(args, 'remove');
  const format = choice(args, 'format', FORMATS);
  const linkMode = choice(args, 'link-mode', LINK_MODES);
  const imageMode = choice(args, 'image-mode', IMAGE_MODES);
  if (target) body.target_selector = target;
  if (remove) body.remove_selector = remove;
  if (format) body.format = format;
  if (linkMode) body.link_mode = linkMode;
  if (imageMode) body.image_mode = imageMode;
  if (args.options.has('links')) body.links = true;
  if (args.options.has('images')) body.images = true;
  if (args.options.has('whole-page')) body.main_content = false;
  if (args.options.has('no-clean-urls')) body.clean_urls = false;
  return body;
}

/** The content, then the links list when it was asked for (text output of `pith read`). */
export function readOutputText(content: string, links: ReadonlyArray<{ url: string; text: string }> | undefined): string {
  const body = content.endsWith('\n') ? content : `${content}\n`;
  if (!links) return body;
  return `${body}\n${links.map((l) => `- ${l.url}${l.text ? `  ${l.text}` : ''}`).join('\n')}\n`;
}
