// Load saved states of every served rules version into the TypeScript client's types.
//
// tests/clients/test_generated_clients.py compiles this file with play.ts and runs it:
//
//     node out/states.js --base-url http://127.0.0.1:8000 --states states.json
//
// `states.json` is a list of `{game, rules_version, state}`. Each state is validated by the
// generated zod schema of its game's state (`zRaidersState`…) and then held, as it is, in
// the generated type (`RaidersState`…), as the SDK does with an answer: zod's parse output
// would drop the keys of the open objects it does not list (a pending entry's `city`), and
// a state goes back exactly as it came.  It is sent as that type to the typed
// `legal-actions` (`raidersLegalActions`…, which validates the request with zod too).
// One JSON line per state goes to stdout.

import { readFileSync } from 'node:fs';
import { createClient, createConfig } from './gen/client';
import type { Client } from './gen/client';
import { kozyabloLegalActions, raidersLegalActions, trembleLegalActions } from './gen/sdk.gen';
import type { KozyabloState, RaidersState, TrembleState } from './gen/types.gen';
import { zKozyabloState, zRaidersState, zTrembleState } from './gen/zod.gen';

type Saved = { game: 'raiders' | 'kozyablo' | 'tremble'; rules_version: string; state: unknown };
type Loaded = { ok: true; status: () => Promise<number> } | { ok: false; error: string };

function load(client: Client, saved: Saved): Loaded {
  const answered = async (call: Promise<{ response: Response }>) => (await call).response.status;
  if (saved.game === 'raiders') {
    const parsed = zRaidersState.safeParse(saved.state);
    if (!parsed.success) return { ok: false, error: parsed.error.message };
    const state = saved.state as RaidersState;
    return { ok: true, status: () => answered(raidersLegalActions({ client, body: { state } })) };
  }
  if (saved.game === 'kozyablo') {
    const parsed = zKozyabloState.safeParse(saved.state);
    if (!parsed.success) return { ok: false, error: parsed.error.message };
    const state = saved.state as KozyabloState;
    return { ok: true, status: () => answered(kozyabloLegalActions({ client, body: { state } })) };
  }
  const parsed = zTrembleState.safeParse(saved.state);
  if (!parsed.success) return { ok: false, error: parsed.error.message };
  const state = saved.state as TrembleState;
  return { ok: true, status: () => answered(trembleLegalActions({ client, body: { state } })) };
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string): string => {
    const at = argv.indexOf(name);
    if (at < 0 || argv[at + 1] === undefined) throw new Error(`${name} is required`);
    return argv[at + 1];
  };
  const client = createClient(createConfig({ baseUrl: arg('--base-url') }));
  const saved = JSON.parse(readFileSync(arg('--states'), 'utf-8')) as Saved[];
  for (const one of saved) {
    const head = { game: one.game, rules_version: one.rules_version };
    const loaded = load(client, one);
    if (!loaded.ok) {
      console.log(JSON.stringify({ ...head, loaded: false, error: loaded.error.slice(0, 2000) }));
      continue;
    }
    const status = await loaded.status();
    console.log(JSON.stringify({ ...head, loaded: true, status }));
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack ?? error.message : error);
  process.exit(1);
});
