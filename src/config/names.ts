// Spec and collection names: they end up inside endpoint ids (`spec:METHOD:/path`), so they must not hold `:`.
import { basename, extname } from 'node:path';

/** What an explicit `name:` / `collection:` may look like. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Lower-cases and replaces every run of characters outside `[a-z0-9_-]` with `-`. */
export function safeName(text: string): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 64)
    .replace(/[-_]+$/g, '');
  return cleaned || 'spec';
}

/** Default spec name: the file name without its extension, made safe (`Pet Store.v2.yaml` -> `pet-store-v2`). */
export function defaultSpecName(file: string): string {
  return safeName(basename(file, extname(file)));
}
