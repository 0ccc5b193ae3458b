// Small hand-made specs for catalogue tests: plain objects satisfying the model types.
import { Loaded } from '../../src/catalog/loaded.ts';
import type { SearchBudget } from '../../src/catalog/rank-many.ts';
import { SpecState } from '../../src/catalog/spec-state.ts';
import { TermHolders } from '../../src/catalog/term-holders.ts';
import type { Endpoint, HttpMethod, ImportedSpec, Parameter, SchemaResolver } from '../../src/model/index.ts';
import { endpointId } from '../../src/model/index.ts';

/** Catalogue tests never resolve schemas; a resolver that hands nodes back unchanged is enough. */
const resolver: SchemaResolver = {
  resolve: (link) => link.node,
  shallow: (link) => link,
};

export interface EndpointInput {
  method: HttpMethod;
  path: string;
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  deprecated?: boolean;
  params?: string[];
}

export function endpoint(spec: string, collection: string, input: EndpointInput): Endpoint {
  const parameters: Parameter[] = (input.params ?? []).map((name) => ({
    name,
    in: input.path.includes(`{${name}}`) ? 'path' : 'query',
    required: input.path.includes(`{${name}}`),
    type: 'string',
  }));
  return {
    id: endpointId(spec, input.method, input.path),
    spec,
    collection,
    method: input.method,
    path: input.path,
    ...(input.summary !== undefined ? { summary: input.summary } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.operationId !== undefined ? { operationId: input.operationId } : {}),
    tags: input.tags ?? [],
    deprecated: input.deprecated ?? false,
    parameters,
    responses: [{ status: '200', label: 'OK' }],
    servers: [],
    source: { file: `/specs/${spec}.yaml`, pointer: `/paths/${input.path.replaceAll('/', '~1')}/${input.method.toLowerCase()}` },
  };
}

export function spec(name: string, inputs: EndpointInput[], options: { collection?: string; title?: string } = {}): ImportedSpec {
  const collection = options.collection ?? 'default';
  return {
    name,
    collection,
    file: `/specs/${name}.yaml`,
    format: 'openapi-3.0',
    ...(options.title !== undefined ? { title: options.title } : {}),
    endpoints: inputs.map((i) => endpoint(name, collection, i)),
    webhooks: 0,
    skipped: [],
    warnings: [],
    servers: [{ url: 'https://api.example.test' }],
    securitySchemes: {},
    files: [`/specs/${name}.yaml`],
    hash: `hash-${name}`,
    schemas: resolver,
    importedAt: 0,
    importMs: 0,
  };
}

/** A small REST API in the GitHub style, with summaries and tags. */
export function petsSpec(name = 'pets', collection = 'default'): ImportedSpec {
  return spec(
    name,
    [
      { method: 'GET', path: '/pets', summary: 'List pets', operationId: 'listPets', tags: ['pets'], params: ['limit'] },
      { method: 'POST', path: '/pets', summary: 'Create a pet', operationId: 'createPet', tags: ['pets'] },
      { method: 'GET', path: '/pets/{petId}', summary: 'Get a pet', operationId: 'getPet', tags: ['pets'], params: ['petId'] },
      { method: 'PATCH', path: '/pets/{petId}', summary: 'Update a pet', operationId: 'updatePet', tags: ['pets'], params: ['petId'] },
      { method: 'DELETE', path: '/pets/{petId}', summary: 'Delete a pet', operationId: 'deletePet', tags: ['pets'], params: ['petId'] },
      { method: 'GET', path: '/pets/{petId}/photos', summary: 'List photos of a pet', operationId: 'listPetPhotos', tags: ['pets', 'photos'], params: ['petId'] },
      { method: 'GET', path: '/owners', summary: 'List owners', operationId: 'listOwners', tags: ['owners'] },
      { method: 'GET', path: '/owners/{ownerId}', summary: 'Get an owner', operationId: 'getOwner', tags: ['owners'], params: ['ownerId'] },
      { method: 'GET', path: '/store/inventory', summary: 'Inventory counts by status (old)', operationId: 'getInventoryOld', tags: ['store'], deprecated: true },
    ],
    { collection, title: 'Pet Store' },
  );
}

/**
 * The documents (ascending) whose summary terms hold a term, by a pass over every document: the
 * reference for `namedDocuments`' summary look-up, which svc answers from the index's postings.
 */
export function summaryScan(byDoc: readonly ({ readonly doc: number } | undefined)[], summaryOf: (doc: number) => readonly string[] | undefined): (term: string) => number[] | undefined {
  return (term) => {
    let docs: number[] | undefined;
    for (const entry of byDoc) if (entry && summaryOf(entry.doc)?.includes(term)) (docs ??= []).push(entry.doc);
    return docs;
  };
}

/** A search budget that never stops a ranking: every index, no time or postings bound (pruning on). */
export const OPEN_BUDGET: SearchBudget = { maxIndexesSearched: Infinity, prune: true, budgetMs: Infinity, budgetPostings: Infinity };

/** The ranking's view of `specs` (states, word statistics, ranker), with `budget` over the open one. */
export function loadedCatalogue(specs: readonly ImportedSpec[], budget: Partial<SearchBudget> = {}): Loaded {
  const states = specs.map((s) => new SpecState(s));
  const terms = new TermHolders();
  terms.add(states);
  return new Loaded(states, terms, { ...OPEN_BUDGET, ...budget });
}

/** Whether a spec's index is loaded (searched, or loaded ahead): unloaded, its image is still the function that builds it. */
export const indexLoaded = (state: SpecState): boolean => typeof state.index.image().mini !== 'function';
