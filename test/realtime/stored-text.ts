/**
 * @module test/realtime/stored-text
 * Which tables of a database hold `text` anywhere in a row (every column,
 * as text): how a test shows that something was never stored. Reads the
 * database beside the app, through its own connection (a SQLite file, or
 * PostgreSQL).
 */
import Database from 'better-sqlite3';
import pg from 'pg';

export async function tablesContaining(url: string, text: string): Promise<string[]> {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === ':memory:') throw new Error('an in-memory SQLite database cannot be read from beside the app: use a file');
    const db = new Database(path, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      return tables
        .filter(({ name }) => {
          const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as Array<{ name: string }>;
          if (columns.length === 0) return false;
          const where = columns.map((c) => `instr(CAST("${c.name}" AS TEXT), ?) > 0`).join(' OR ');
          return (db.prepare(`SELECT count(*) AS n FROM "${name}" WHERE ${where}`).get(...columns.map(() => text)) as { n: number }).n > 0;
        })
        .map((t) => t.name);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'");
    const found: string[] = [];
    for (const { table_name: name } of tables.rows) {
      const hit = await client.query(`SELECT 1 FROM "${name}" t WHERE strpos(t::text, $1) > 0 LIMIT 1`, [text]);
      if (hit.rowCount) found.push(name);
    }
    return found;
  } finally {
    await client.end();
  }
}
