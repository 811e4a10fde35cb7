// Play every game with the client @hey-api/openapi-ts generated from openapi.yaml.
//
// tests/clients/test_generated_clients.py copies this file next to the generated
// client (`./gen`, with zod validators on every request and response), compiles both
// with `tsc` (strict) and runs the output with node:
//
//     node out/play.js --base-url http://127.0.0.1:8000 --seed 7
//
// For every game and both chance modes it starts a game, plays it to the end by picking
// seeded random actions among those `legal-actions` lists (the chance seat's outcomes too,
// in `chance: table` games), applies each one, then sends the setup and the recorded
// actions to `replay` and checks that the replay ends in the same state and outcome.
// Every request and answer goes through the generated SDK functions and types; the
// generated zod schemas validate each body both ways.  One JSON line per game goes to
// stdout; a mismatch, an error status or a body that fails validation exits non-zero.
//
// `--forward-url URL`: instead, check forward compatibility: start a Raiders game on the
// real server, send its first legal action to `apply` at `URL` (a stub answering a real
// `apply` response with an event type and a field this client has never heard of) and
// print the event types the SDK parsed (and validated) from it.

import { createClient, createConfig } from './gen/client';
import {
  postV1GamesByGameApply,
  postV1GamesByGameLegalActions,
  postV1GamesByGameNew,
  postV1GamesByGameReplay,
} from './gen/sdk.gen';
import type {
  Action,
  ApplyResponse,
  GameState,
  LegalActionsResponse,
  NewResponse,
  Outcome,
  ReplayResponse,
} from './gen/types.gen';

type GameId = 'raiders' | 'kozyablo' | 'tremble';
type Chance = 'server' | 'table';

// Short games: the smallest table, and a turn limit where the game has one.
const GAMES: Record<GameId, { players: number; options: Record<string, unknown> }> = {
  raiders: { players: 2, options: { turn_limit: 6 } },
  kozyablo: { players: 2, options: { turn_limit: 6 } },
  tremble: { players: 2, options: {} },
};
const CHANCE_MODES: Chance[] = ['server', 'table'];
const MAX_STEPS = 2000;

// mulberry32: a small seeded generator, so a failing game can be played again.
function rngFrom(text: string): () => number {
  let a = 0;
  for (const ch of text) a = (Math.imul(a, 31) + ch.charCodeAt(0)) | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// The parsed body of a 200 answer, or an error saying what came back.
function ok<T>(result: { data?: T; error?: unknown; response?: Response }, what: string): T {
  if (result.data === undefined || result.error !== undefined) {
    const status = result.response ? result.response.status : 'no response';
    throw new Error(`${what}: HTTP ${status}: ${String(JSON.stringify(result.error)).slice(0, 400)}`);
  }
  return result.data;
}

async function play(baseUrl: string, game: GameId, chance: Chance, seed: number) {
  const client = createClient(createConfig({ baseUrl }));
  const config = GAMES[game];
  const options = { ...config.options, chance };
  const random = rngFrom(`${game}/${chance}/${seed}`);

  const started: NewResponse = ok(
    await postV1GamesByGameNew({ client, path: { game }, body: { players: config.players, options, seed } }),
    `${game} new`,
  );
  let state: GameState = started.state;
  let outcome: Outcome | undefined;
  const actions: Action[] = [];
  for (let step = 0; state.result == null; step++) {
    if (step >= MAX_STEPS) throw new Error(`${game}/${chance}: unfinished after ${MAX_STEPS} actions`);
    const listed: LegalActionsResponse = ok(
      await postV1GamesByGameLegalActions({ client, path: { game }, body: { state } }),
      `${game} legal-actions at step ${step}`,
    );
    if (listed.actions.length === 0) throw new Error(`${game}/${chance}: nothing to do at step ${step}`);
    const action: Action = listed.actions[Math.floor(random() * listed.actions.length)];
    const applied: ApplyResponse = ok(
      await postV1GamesByGameApply({ client, path: { game }, body: { state, action } }),
      `${game} apply at step ${step}`,
    );
    state = applied.state;
    outcome = applied.outcome;
    actions.push(action);
  }
  if (!outcome?.finished) throw new Error(`${game}/${chance}: a result but no finished outcome`);

  const replayed: ReplayResponse = ok(
    await postV1GamesByGameReplay({
      client,
      path: { game },
      body: { setup: { players: config.players, options, seed }, actions },
    }),
    `${game} replay`,
  );
  if (!same(replayed.state, state)) throw new Error(`${game}/${chance}: the replay ends in another state`);
  if (!same(replayed.outcome, outcome)) throw new Error(`${game}/${chance}: the replay has another outcome`);
  if (replayed.events.length !== actions.length + 1) {
    throw new Error(`${game}/${chance}: ${replayed.events.length} replay steps for ${actions.length} actions`);
  }
  return { client: 'typescript', game, chance, actions: actions.length, state_game: state.game, winners: outcome.winners };
}

async function parseFutureApply(baseUrl: string, stubUrl: string, seed: number) {
  const client = createClient(createConfig({ baseUrl }));
  const stub = createClient(createConfig({ baseUrl: stubUrl }));
  const game = 'raiders';
  const started: NewResponse = ok(
    await postV1GamesByGameNew({ client, path: { game }, body: { players: 2, options: { chance: 'server' }, seed } }),
    'raiders new',
  );
  const listed: LegalActionsResponse = ok(
    await postV1GamesByGameLegalActions({ client, path: { game }, body: { state: started.state } }),
    'raiders legal-actions',
  );
  const applied: ApplyResponse = ok(
    await postV1GamesByGameApply({ client: stub, path: { game }, body: { state: started.state, action: listed.actions[0] } }),
    'raiders apply from a later version',
  );
  return {
    client: 'typescript',
    state_game: applied.state.game,
    event_types: applied.events.map((event) => event.type),
  };
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string, fallback?: string): string => {
    const at = argv.indexOf(name);
    const value = at >= 0 ? argv[at + 1] : fallback;
    if (value === undefined) throw new Error(`${name} is required`);
    return value;
  };
  const baseUrl = arg('--base-url');
  const seed = Number(arg('--seed', '7'));
  const forwardUrl = arg('--forward-url', '');
  if (forwardUrl) {
    console.log(JSON.stringify(await parseFutureApply(baseUrl, forwardUrl, seed)));
    return;
  }
  for (const game of Object.keys(GAMES) as GameId[]) {
    for (const chance of CHANCE_MODES) {
      console.log(JSON.stringify(await play(baseUrl, game, chance, seed)));
    }
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack ?? error.message : error);
  process.exit(1);
});
