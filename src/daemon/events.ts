// How the daemon tells front ends that the catalogue changed after `svc update`, without
// importing them: src/mcp subscribes and turns each change into MCP notifications
// (a notifications/message log line, and list_changed for lists that changed).

export interface CatalogChange {
  /** One line for people, e.g. "svc update: petstore +1 endpoint, ~2 changed". */
  readonly message: string;
  /** Catalogue generation after the change. */
  readonly generation: number;
  /** Endpoints were added, removed or changed. */
  readonly endpointsChanged: boolean;
  /** Specs were added or removed (anything listing specs changed). */
  readonly specsChanged: boolean;
}

export type CatalogListener = (change: CatalogChange) => void;

export class CatalogEvents {
  readonly #listeners = new Set<CatalogListener>();

  /** Subscribe; returns the unsubscribe function (call it when the session closes). */
  onCatalogChanged(listener: CatalogListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(change: CatalogChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // One broken session must not stop the others from hearing about the change.
      }
    }
  }

  get listeners(): number {
    return this.#listeners.size;
  }
}
