/**
 * @module domain/ports/aggregates
 * The storage ports, one per aggregate, as that aggregate's commands
 * receive them (`DomainContext<MeetingPorts>`, …): a command's signature
 * says which storage it may touch, and a command that runs another
 * aggregate's command names both ports. Each port joins its aggregate's
 * store interfaces (the files beside this one) with `Transactional`, the
 * unit of work. `Store` is all of them together: what `src/store/`
 * implements, and what the composition root hands out.
 */
import type { PlacementStore } from '../sfu/placement-store.ts';
import type { HostingStore } from './hosting-store.ts';
import type { LiveStore } from './live-store.ts';
import type { MemberStore } from './member-store.ts';
import type { SsoStore } from './sso-store.ts';
import type { ApiKeyStore, UsageStore } from './key-store.ts';
import type { MeetingStore, RoomStore } from './meeting-store.ts';
import type { OrganizationChangeStore, OrganizationStore } from './organization-store.ts';
import type { ServiceSettingStore } from './service-setting-store.ts';
import type { SpaceStore } from './space-store.ts';
import type { WaitingStore } from './waiting-store.ts';
import type { WebhookStore } from './webhook-store.ts';

/** A unit of work over the whole store (see `transact`): its writes commit together or not at all. */
export interface Transactional {
  /**
   * Runs `work` in one transaction. Inside a transaction, `tx.transaction`
   * runs its work in the same one. Never use the outer store inside
   * `work`: on SQLite it would wait for the transaction to end.
   */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
}

/** Meetings and rooms: created, read, listed, closed, deleted (meetings.ts, rooms.ts, lifecycle.ts). */
export interface MeetingPorts extends MeetingStore, RoomStore, Transactional {}

/** Places and presence: who is where, meeting-place deadlines, and where the SFU holds each place (places.ts, joining.ts, presence.ts, sfu/). */
export interface PlacePorts extends PlacementStore, Transactional {
  /** Presence and meeting-place deadlines (see live-store.ts). */
  readonly live: LiveStore;
}

/** Waiting lists: boards and queues, their members, entries and consoles (spaces.ts, waiting/). */
export interface WaitingListPorts extends SpaceStore, WaitingStore, Transactional {}

/** Organizations, their members, sign-in (passwords, links, sessions, single sign-on) and their record of changes (organizations.ts, member-links.ts, sign-in.ts, sso.ts, organization-changes.ts). */
export interface MemberPorts extends OrganizationStore, MemberStore, SsoStore, OrganizationChangeStore, Transactional {}

/** API keys and their usage totals and quotas (keys.ts, usage.ts, usage-history.ts). */
export interface KeyPorts extends ApiKeyStore, UsageStore, Transactional {}

/** Webhook endpoints and the outbox of deliveries (webhooks/). */
export interface WebhookPorts extends WebhookStore, Transactional {}

/** A meeting's host at work: the lock, knocks, removals (hosting.ts, meeting-control.ts). */
export interface MeetingAdminPorts extends HostingStore, Transactional {}

/** The service's own settings, outside any aggregate (public-url.ts). */
export interface ServiceSettingPorts extends ServiceSettingStore, Transactional {}

/** Every aggregate's port together, and the service's own settings: what `src/store/` implements. */
export interface Store extends MeetingPorts, PlacePorts, WaitingListPorts, MemberPorts, KeyPorts, WebhookPorts, MeetingAdminPorts, ServiceSettingPorts {}
