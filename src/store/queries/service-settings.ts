/**
 * @module store/queries/service-settings
 * Settings of the service as a whole, by name (migration 023).
 */
import type { ServiceSettingStore } from '../../domain/service-setting-ports.ts';
import type { QueryContext } from './db.ts';

export const serviceSettingQueries: ServiceSettingStore & ThisType<QueryContext> = {
  async readServiceSetting(name) {
    const row = await this.db.selectFrom('service_settings').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  },

  async writeServiceSetting(name, value, at) {
    await this.db
      .insertInto('service_settings')
      .values({ name, value, updated_at: at.getTime() })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: at.getTime() }))
      .execute();
  },
};
