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
// Every request and answer goes through the typed per-game SDK functions (`raidersApply`…)
// and their generated types (`RaidersState`, `RaidersAction`…); the
// generated zod schemas validate each body both ways.  One JSON line per game goes to
// stdout; a mismatch, an error status or a body that fails validation exits non-zero.
//
// `--forward-url URL`: instead, check forward compatibility: start a Raiders game on the
// real server, send its first legal action to `apply` at `URL` (a stub answering a real
// `apply` response with an event type and a field this client has never heard of) and
// print the event types the SDK parsed (and validated) from it.

import { createClient, createConfig } from './gen/client';
import type { Client } from './gen/client';
import {
  kozyabloApply,
  kozyabloBatch,
  kozyabloLegalActions,
  kozyabloNew,
  kozyabloReplay,
  kozyabloView,
  raidersApply,
  raidersBatch,
  raidersLegalActions,
  raidersNew,
  raidersReplay,
  raidersView,
  trembleApply,
  trembleBatch,
  trembleLegalActions,
  trembleNew,
  trembleReplay,
  trembleView,
} from './gen/sdk.gen';
import type {
  KozyabloAction,
  KozyabloApplyResponse,
  KozyabloLegalActionsResponse,
  KozyabloOptions,
  KozyabloState,
  RaidersAction,
  RaidersApplyResponse,
  RaidersLegalActionsResponse,
  RaidersNewResponse,
  RaidersOptions,
  RaidersState,
  TrembleAction,
  TrembleApplyResponse,
  TrembleLegalActionsResponse,
  TrembleOptions,
  TrembleState,
} from './gen/types.gen';

type GameId = 'raiders' | 'kozyablo' | 'tremble';
type Chance = 'server' | 'table';
type Outcome = { finished: boolean; winners: number[] };

// One game's typed operations: each method calls the generated SDK function of that game
// (raidersApply…) with its generated request type and returns its generated answer types.
interface GameOps<State extends { result?: unknown }, Action, Options> {
  options(chance: Chance): Options;
  start(client: Client, options: Options, seed: number): Promise<State>;
  legal(client: Client, state: State): Promise<Action[]>;
  apply(client: Client, state: State, action: Action): Promise<{ state: State; outcome: Outcome }>;
  replay(client: Client, options: Options, seed: number, actions: Action[]):
    Promise<{ state: State; outcome: Outcome; steps: number }>;
  // legal-actions from the `view` answer's object as it is (one <Game>View type for both)
  fromView(client: Client, state: State, seat: number): Promise<Action[]>;
  legalOf(client: Client, state: State, seat: number): Promise<Action[]>;
  // the typed batch on `state`: check and apply `action`, a listing with previews; the
  // items' statuses, the apply item's state, and the previews listed against the actions
  batch(client: Client, state: State, action: Action):
    Promise<{ statuses: number[]; applied: State | undefined; previews: number; actions: number }>;
}

const PLAYERS = 2; // the smallest table of every game: short games
const CHANCE_MODES: Chance[] = ['server', 'table'];
const MAX_STEPS = 2000;

const raiders: GameOps<RaidersState, RaidersAction, RaidersOptions> = {
  options: (chance) => ({ chance, turn_limit: 6 }),
  start: async (client, options, seed) =>
    ok(await raidersNew({ client, body: { players: PLAYERS, options, seed } }), 'raiders new').state,
  legal: async (client, state) =>
    ok(await raidersLegalActions({ client, body: { state } }), 'raiders legal-actions').actions,
  apply: async (client, state, action) =>
    ok(await raidersApply({ client, body: { state, action } }), 'raiders apply'),
  replay: async (client, options, seed, actions) => {
    const done = ok(await raidersReplay({ client, body: { setup: { players: PLAYERS, options, seed }, actions } }),
      'raiders replay');
    return { state: done.state, outcome: done.outcome, steps: done.events.length };
  },
  fromView: async (client, state, seat) => {
    const { view } = ok(await raidersView({ client, body: { state, player: seat } }), 'raiders view');
    return ok(await raidersLegalActions({ client, body: { view } }), 'raiders legal-actions from a view').actions;
  },
  legalOf: async (client, state, seat) =>
    ok(await raidersLegalActions({ client, body: { state, player: seat } }), 'raiders legal-actions of a seat').actions,
  batch: async (client, state, action) => {
    const { items } = ok(await raidersBatch({ client, body: { state, items: [
      { op: 'check', action }, { op: 'apply', action }, { op: 'legal-actions', preview: true },
    ] } }), 'raiders batch');
    // the body of a 200 item is its op's answer (a refused one's is a Problem)
    const listed = items[2].body as RaidersLegalActionsResponse;
    return {
      statuses: items.map((item) => item.status),
      applied: items[1].status === 200 ? (items[1].body as RaidersApplyResponse).state : undefined,
      previews: (listed.previews ?? []).length,
      actions: listed.actions.length,
    };
  },
};

const kozyablo: GameOps<KozyabloState, KozyabloAction, KozyabloOptions> = {
  options: (chance) => ({ chance, turn_limit: 6 }),
  start: async (client, options, seed) =>
    ok(await kozyabloNew({ client, body: { players: PLAYERS, options, seed } }), 'kozyablo new').state,
  legal: async (client, state) =>
    ok(await kozyabloLegalActions({ client, body: { state } }), 'kozyablo legal-actions').actions,
  apply: async (client, state, action) =>
    ok(await kozyabloApply({ client, body: { state, action } }), 'kozyablo apply'),
  replay: async (client, options, seed, actions) => {
    const done = ok(await kozyabloReplay({ client, body: { setup: { players: PLAYERS, options, seed }, actions } }),
      'kozyablo replay');
    return { state: done.state, outcome: done.outcome, steps: done.events.length };
  },
  fromView: async (client, state, seat) => {
    const { view } = ok(await kozyabloView({ client, body: { state, player: seat } }), 'kozyablo view');
    return ok(await kozyabloLegalActions({ client, body: { view } }), 'kozyablo legal-actions from a view').actions;
  },
  legalOf: async (client, state, seat) =>
    ok(await kozyabloLegalActions({ client, body: { state, player: seat } }), 'kozyablo legal-actions of a seat').actions,
  batch: async (client, state, action) => {
    const { items } = ok(await kozyabloBatch({ client, body: { state, items: [
      { op: 'check', action }, { op: 'apply', action }, { op: 'legal-actions', preview: true },
    ] } }), 'kozyablo batch');
    // the body of a 200 item is its op's answer (a refused one's is a Problem)
    const listed = items[2].body as KozyabloLegalActionsResponse;
    return {
      statuses: items.map((item) => item.status),
      applied: items[1].status === 200 ? (items[1].body as KozyabloApplyResponse).state : undefined,
      previews: (listed.previews ?? []).length,
      actions: listed.actions.length,
    };
  },
};

const tremble: GameOps<TrembleState, TrembleAction, TrembleOptions> = {
  options: (chance) => ({ chance }),
  start: async (client, options, seed) =>
    ok(await trembleNew({ client, body: { players: PLAYERS, options, seed } }), 'tremble new').state,
  legal: async (client, state) =>
    ok(await trembleLegalActions({ client, body: { state } }), 'tremble legal-actions').actions,
  apply: async (client, state, action) =>
    ok(await trembleApply({ client, body: { state, action } }), 'tremble apply'),
  replay: async (client, options, seed, actions) => {
    const done = ok(await trembleReplay({ client, body: { setup: { players: PLAYERS, options, seed }, actions } }),
      'tremble replay');
    return { state: done.state, outcome: done.outcome, steps: done.events.length };
  },
  fromView: async (client, state, seat) => {
    const { view } = ok(await trembleView({ client, body: { state, player: seat } }), 'tremble view');
    return ok(await trembleLegalActions({ client, body: { view } }), 'tremble legal-actions from a view').actions;
  },
  legalOf: async (client, state, seat) =>
    ok(await trembleLegalActions({ client, body: { state, player: seat } }), 'tremble legal-actions of a seat').actions,
  batch: async (client, state, action) => {
    const { items } = ok(await trembleBatch({ client, body: { state, items: [
      { op: 'check', action }, { op: 'apply', action }, { op: 'legal-actions', preview: true },
    ] } }), 'tremble batch');
    // the body of a 200 item is its op's answer (a refused one's is a Problem)
    const listed = items[2].body as TrembleLegalActionsResponse;
    return {
      statuses: items.map((item) => item.status),
      applied: items[1].status === 200 ? (items[1].body as TrembleApplyResponse).state : undefined,
      previews: (listed.previews ?? []).length,
      actions: listed.actions.length,
    };
  },
};

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

async function play<State extends { result?: unknown }, Action, Options>(
  client: Client, game: GameId, ops: GameOps<State, Action, Options>, chance: Chance, seed: number,
) {
  const random = rngFrom(`${game}/${chance}/${seed}`);
  const options = ops.options(chance);
  let state = await ops.start(client, options, seed);
  let outcome: Outcome | undefined;
  const actions: Action[] = [];
  let fromView = 0;
  let batched = 0;
  for (let step = 0; state.result == null; step++) {
    if (step >= MAX_STEPS) throw new Error(`${game}/${chance}: unfinished after ${MAX_STEPS} actions`);
    const listed = await ops.legal(client, state);
    if (listed.length === 0) throw new Error(`${game}/${chance}: nothing to do at step ${step}`);
    const seat = (listed[0] as { player?: unknown }).player;
    if (fromView === 0 && typeof seat === 'number') {
      const mine = await ops.fromView(client, state, seat);
      if (!same(mine, await ops.legalOf(client, state, seat))) {
        throw new Error(`${game}/${chance}: the view's legal actions differ from the state's`);
      }
      fromView = mine.length;
    }
    const action = listed[Math.floor(random() * listed.length)];
    const before = state;
    ({ state, outcome } = await ops.apply(client, state, action));
    if (step % 10 === 0) {
      const got = await ops.batch(client, before, action);
      if (!same(got.statuses, [200, 200, 200]) || !same(got.applied, state) || got.previews !== got.actions) {
        throw new Error(`${game}/${chance}: the batch differs from the single calls: ${JSON.stringify(got.statuses)}`);
      }
      batched += got.statuses.length;
    }
    actions.push(action);
  }
  if (!outcome?.finished) throw new Error(`${game}/${chance}: a result but no finished outcome`);

  const replayed = await ops.replay(client, options, seed, actions);
  if (!same(replayed.state, state)) throw new Error(`${game}/${chance}: the replay ends in another state`);
  if (!same(replayed.outcome, outcome)) throw new Error(`${game}/${chance}: the replay has another outcome`);
  if (replayed.steps !== actions.length + 1) {
    throw new Error(`${game}/${chance}: ${replayed.steps} replay steps for ${actions.length} actions`);
  }
  return { client: 'typescript', game, chance, actions: actions.length, winners: outcome.winners, from_view: fromView, batched };
}

async function parseFutureApply(client: Client, stub: Client, seed: number) {
  const started: RaidersNewResponse = ok(
    await raidersNew({ client, body: { players: PLAYERS, options: { chance: 'server' }, seed } }),
    'raiders new',
  );
  const listed: RaidersLegalActionsResponse = ok(
    await raidersLegalActions({ client, body: { state: started.state } }),
    'raiders legal-actions',
  );
  const applied: RaidersApplyResponse = ok(
    await raidersApply({ client: stub, body: { state: started.state, action: listed.actions[0] } }),
    'raiders apply from a later version',
  );
  return {
    client: 'typescript',
    state_game: applied.state.game,
    event_types: applied.events.map((event) => event.type),
    answer_fields: Object.keys(applied).sort(),
    last_event_fields: Object.keys(applied.events[applied.events.length - 1]).sort(),
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
  const client = createClient(createConfig({ baseUrl }));
  if (forwardUrl) {
    const stub = createClient(createConfig({ baseUrl: forwardUrl }));
    console.log(JSON.stringify(await parseFutureApply(client, stub, seed)));
    return;
  }
  for (const chance of CHANCE_MODES) {
    console.log(JSON.stringify(await play(client, 'raiders', raiders, chance, seed)));
    console.log(JSON.stringify(await play(client, 'kozyablo', kozyablo, chance, seed)));
    console.log(JSON.stringify(await play(client, 'tremble', tremble, chance, seed)));
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack ?? error.message : error);
  process.exit(1);
});
