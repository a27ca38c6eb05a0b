#!/usr/bin/env node
// The operator's `foyer` command. Foyer runs its TypeScript through tsx, so
// there is no build step between a checkout and a working CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
