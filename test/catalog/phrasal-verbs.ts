// The phrasal verbs a query may start with and the intent each implies, as the tests expect them
// (written out here, not read from src/catalog/query.ts, so that a change there shows as a failure).
export const PHRASAL_INTENTS: readonly (readonly [phrase: string, intent: string])[] = [
  ['set up', 'create'], ['sign up', 'create'], ['back up', 'create'],
  ['turn on', 'update'], ['turn off', 'update'], ['switch on', 'update'], ['switch off', 'update'],
  ['roll back', 'update'], ['hang up', 'update'], ['shut down', 'update'],
  ['clean up', 'delete'], ['take down', 'delete'],
  ['look up', 'get'], ['find out', 'get'], ['check on', 'get'],
];
