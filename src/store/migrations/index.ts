/**
 * @module store/migrations/index
 * The ordered list of schema migrations, handed to Kysely's `Migrator`
 * through a static provider: file-system discovery does not work reliably
 * under tsx, and an explicit list makes the order reviewable.
 * Names sort in application order; never rename or edit an applied one.
 */
import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './001_initial.ts';
import { presence } from './002_presence.ts';
import { usage } from './003_usage.ts';
import { members } from './004_members.ts';
import { waiting } from './008_waiting.ts';
import { keyUsage } from './009_key_usage.ts';
import { sso } from './010_sso.ts';
import { webhooks } from './013_webhooks.ts';
import { meetingAdmin } from './014_meeting_admin.ts';
import { lists } from './015_lists.ts';
import { sfuPlacements } from './016_sfu_placements.ts';
import { organizationChanges } from './017_organization_changes.ts';
import { allowedOrigins } from './018_allowed_origins.ts';
import { titlesAndReadiness } from './019_titles_and_readiness.ts';
import { slugReservations } from './020_slug_reservations.ts';
import { waitingPresence } from './021_waiting_presence.ts';
import { serviceSettings } from './023_service_settings.ts';
import { presenceResume } from './024_presence_resume.ts';
import { meetingChat } from './025_meeting_chat.ts';

const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_presence': presence,
  '003_usage': usage,
  '004_members': members,
  '008_waiting': waiting,
  '009_key_usage': keyUsage,
  '010_sso': sso,
  '013_webhooks': webhooks,
  '014_meeting_admin': meetingAdmin,
  '015_lists': lists,
  '016_sfu_placements': sfuPlacements,
  '017_organization_changes': organizationChanges,
  '018_allowed_origins': allowedOrigins,
  '019_titles_and_readiness': titlesAndReadiness,
  '020_slug_reservations': slugReservations,
  '021_waiting_presence': waitingPresence,
  '023_service_settings': serviceSettings,
  '024_presence_resume': presenceResume,
  '025_meeting_chat': meetingChat,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
