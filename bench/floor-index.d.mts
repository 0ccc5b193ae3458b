/** See floor-index.mjs. */
export function parseAndIndex(text: string): number;
