// Compiles every schema of an OpenAPI 3.1 document with Ajv (package.json), as a JavaScript
// client's validator would: JSON Schema 2020-12 (Ajv2020), regular expressions in unicode mode
// (`u`, Ajv's default: `\-` outside a class, or an escape JavaScript does not know, is an error
// there though Python's `re` takes it), every schema checked against the meta-schema.
//
//     node contract/compile_schemas.mjs DOCUMENT.json   # a JSON document (tests/http converts YAML)
//
// Compiled: each `components.schemas` entry, and each `schema` of a parameter, header, request
// body or response (in `paths` and the other components); the `example` beside a schema is
// validated with it (what Redocly's `no-invalid-media-type-examples` means to check).  Prints
// {compiled, failed: [{pointer, error}], examples, invalid: [{pointer, errors}]} as JSON; exits
// 1 when any schema does not compile or any example does not validate.
import { readFileSync } from 'node:fs'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

const [file] = process.argv.slice(2)
if (!file) {
  console.error('usage: node contract/compile_schemas.mjs DOCUMENT.json')
  process.exit(2)
}
const doc = JSON.parse(readFileSync(file, 'utf8'))
const ROOT = 'urn:referee:openapi'

// `#/components/schemas/X` → `urn:referee:openapi#/$defs/X`: the components as one schema resource
const retarget = (node) => {
  if (Array.isArray(node)) return node.map(retarget)
  if (node === null || typeof node !== 'object') return node
  const out = {}
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')
      ? `${ROOT}#/$defs/${v.slice('#/components/schemas/'.length)}`
      : retarget(v)
  }
  return out
}

// strict: an unknown keyword or format is an error; strictTypes/strictRequired are style
// (a `required` under `not`/`if`, `properties` without `type`), which 2020-12 allows
const ajv = new Ajv2020({
  strict: true, strictTypes: false, strictRequired: false, strictTuples: false,
  allErrors: false, unicodeRegExp: true, validateSchema: true,
})
addFormats(ajv)
// the OpenAPI 3.1 base vocabulary's annotations (they do not validate)
for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example']) ajv.addKeyword(keyword)

const pointer = (path) => '#/' + path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
const failed = []
let compiled = 0
const invalid = []
let examples = 0
const tryCompile = (where, schema, example) => {
  compiled += 1
  let validate
  try {
    validate = ajv.compile(schema)
  } catch (e) {
    failed.push({ pointer: where, error: String(e.message || e) })
    return
  }
  if (example === undefined) return
  examples += 1
  if (!validate(example)) invalid.push({ pointer: where.replace(/schema$/, 'example'), errors: validate.errors })
}

const schemas = doc.components?.schemas ?? {}
try {
  ajv.addSchema({ $id: ROOT, $defs: retarget(schemas) })
} catch (e) {
  failed.push({ pointer: '#/components/schemas', error: String(e.message || e) })
}
for (const name of Object.keys(schemas)) {
  tryCompile(pointer(['components', 'schemas', name]), { $ref: `${ROOT}#/$defs/${name}` })
}

// every `schema` of a parameter, header or media type outside components.schemas; examples are
// data (a property of theirs may be called `schema`), so they are not walked
const walk = (node, path) => {
  if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, i]))
  if (node === null || typeof node !== 'object') return
  for (const [k, v] of Object.entries(node)) {
    if (k === 'example' || k === 'examples') continue
    if (k === 'schema' && v !== null && typeof v === 'object') tryCompile(pointer([...path, k]), retarget(v), node.example)
    else walk(v, [...path, k])
  }
}
walk(doc.paths ?? {}, ['paths'])
for (const [section, entries] of Object.entries(doc.components ?? {})) {
  if (section !== 'schemas') walk(entries, ['components', section])
}

console.log(JSON.stringify({ compiled, failed, examples, invalid }, null, 1))
process.exit(failed.length || invalid.length ? 1 : 0)
