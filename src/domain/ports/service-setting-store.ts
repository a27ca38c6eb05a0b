/**
 * @module domain/ports/service-setting-store
 * Facts about the service as a whole, shared by every process on the
 * database (see domain/public-url.ts); part of `Store`, outside any
 * aggregate.
 */

export interface ServiceSettingStore {
  readServiceSetting(name: string): Promise<string | undefined>;
  /** Sets `name`, replacing any earlier value. */
  writeServiceSetting(name: string, value: string, at: Date): Promise<void>;
}
