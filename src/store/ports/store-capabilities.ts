/** What differs between the adapters, as flags rather than dialect checks outside `store/`. */
export interface StoreCapabilities {
  readonly dialect: 'sqlite' | 'postgres';
}
