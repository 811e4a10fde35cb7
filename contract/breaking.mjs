// The breaking changes between two OpenAPI documents, with api-smart-diff (package.json).
//
//     node contract/breaking.mjs BEFORE.json AFTER.json   # JSON documents (tests/compat converts YAML)
//
// Prints a JSON list of the breaking changes a client of BEFORE would meet in AFTER, one per
// distinct change: {path, action, description} with `path` under `paths` (the operations'
// parameters, request and answer schemas, $refs resolved).  `components` alone are skipped:
// a schema no operation uses breaks no client, and a used one is reported under its operations.
// `info` is skipped too (the version is judged by tests/compat, not by the diff).
import { readFileSync } from 'node:fs'
import { apiCompare } from 'api-smart-diff'

const [beforeFile, afterFile] = process.argv.slice(2)
if (!beforeFile || !afterFile) {
  console.error('usage: node contract/breaking.mjs BEFORE.json AFTER.json')
  process.exit(2)
}
const before = JSON.parse(readFileSync(beforeFile, 'utf8'))
const after = JSON.parse(readFileSync(afterFile, 'utf8'))
const { diffs } = apiCompare(before, after)
const seen = new Set()
const breaking = []
for (const d of diffs) {
  if (d.type !== 'breaking' || d.path[0] !== 'paths') continue
  const entry = { path: d.path.join('/'), action: d.action, description: d.description || '' }
  const key = `${entry.action} ${entry.path}`
  if (seen.has(key)) continue
  seen.add(key)
  breaking.push(entry)
}
process.stdout.write(JSON.stringify(breaking, null, 1) + '\n')
