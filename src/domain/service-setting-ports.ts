/**
 * @module domain/service-setting-ports
 * Facts about the service as a whole, shared by every process on the
 * database (see public-url.ts); outside any aggregate.
 */
import type { Transactional } from './ports/transactional.ts';

export interface ServiceSettingStore {
  readServiceSetting(name: string): Promise<string | undefined>;
  /** Sets `name`, replacing any earlier value. */
  writeServiceSetting(name: string, value: string, at: Date): Promise<void>;
}

/** The service's own settings (public-url.ts). */
export interface ServiceSettingPorts extends ServiceSettingStore, Transactional {}
