import postgres from 'postgres';

export type Sql = postgres.Sql;

export function createSql(url: string, max = 10): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    connection: { application_name: 'direct-taxi' },
  });
}
