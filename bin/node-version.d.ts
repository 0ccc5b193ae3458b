// Types of bin/node-version.js (plain JavaScript so that a too-old Node can run it).
export function parseMinimum(range: string): [number, number, number];
export function minimumNode(): [number, number, number];
export function satisfies(version: string, minimum: readonly number[]): boolean;
export function nodeProblem(version?: string, minimum?: readonly number[]): string | undefined;
