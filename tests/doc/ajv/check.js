// SPDX-License-Identifier: MIT
// check.js - segc's JSON Schemas under ajv's strict mode (draft 2020-12).
//
//   node tests/doc/ajv/check.js SCHEMA [INSTANCE.json...]
//
// Compiles SCHEMA with every strict check on (unknown keywords, types that
// a keyword needs, required properties that are not defined, ...): one
// line `SCHEMA: not strict-mode clean: WHY` and exit 1 if it does not
// compile.  Then prints `FILE: valid` or `FILE: invalid` per instance, for
// tests/doc/schema.sh to compare with what Python's jsonschema said.
// ajv comes from the cache tests/deps.sh --install fills (NODE_PATH).
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020');

const [schemaPath, ...files] = process.argv.slice(2);
const ajv = new Ajv2020({strict: true, allErrors: true});
let validate;
try {
    validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
} catch (e) {
    console.log(`${schemaPath}: not strict-mode clean: ${e.message}`);
    process.exit(1);
}
for (const f of files)
    console.log(`${f}: ${validate(JSON.parse(fs.readFileSync(f, 'utf8'))) ? 'valid' : 'invalid'}`);
