// oidc-provider ships no type declarations; the tests use a small part of it (see oidc.ts).
declare module 'oidc-provider' {
  const Provider: new (issuer: string, configuration: Record<string, unknown>) => {
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): void;
  };
  export default Provider;
}
