export * from './endpoint.ts';
export * from './diagnostic.ts';
export * from './errors.ts';
export * from './spec.ts';
export * from './safe-text.ts';
