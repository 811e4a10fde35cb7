// The types of game-words.js, which the service writes from the games' declarations
// (service/http/console.py, game_words): for tsc only, never served.
type Label = { en: string; ru: string };
type Words = Record<string, Record<string, Label>>;
export const WORDS: Record<string, Words>;
export const COMMON: Words;
