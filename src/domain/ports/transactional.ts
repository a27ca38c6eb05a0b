/**
 * @module domain/ports/transactional
 * The unit of work every aggregate's port carries (see `transact` in
 * context.ts). Its transaction hands the work the same ports again
 * (`this`), so a command typed by one port stays within it inside its
 * transaction too; the store behind them is one, so a transaction over
 * one port is a transaction over all.
 */

export interface Transactional {
  /**
   * Runs `work` in one transaction. Inside a transaction, `tx.transaction`
   * runs its work in the same one. Never use the outer store inside
   * `work`: on SQLite it would wait for the transaction to end.
   */
  transaction<T>(work: (tx: this) => Promise<T>): Promise<T>;
}
