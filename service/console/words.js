// The games' words in English and Russian: action, decision and event types, option
// names and choices, action fields and their word values, score breakdown keys, a view's
// zones.  Each game declares its own (service/games/<game>/words.py), the words of what
// they all share are service/games/words.py's; the service writes both into
// game-words.js.  A key missing shows as itself (an id), and the Russian test catches it.
import { COMMON, WORDS } from "/console/game-words.js";

// The word for `key` of `kind` in `lang`: the game's own, else the shared one; with no
// game, the shared one, else the first game's (registry order) that has one.  Undefined
// when none has it.
/**
 * @param {string} kind
 * @param {string} key
 * @param {string} lang
 * @param {string} [game]
 * @returns {string | undefined}
 */
export function word(kind, key, lang, game = "") {
  const tables = game ? [WORDS[game] || {}, COMMON] : [COMMON, ...Object.values(WORDS)];
  const label = tables.map((words) => words[kind] && words[kind][key]).find(Boolean);
  if (!label) return undefined;
  return lang === "ru" ? label.ru : label.en;
}
