// `node --import ./test/fakes/record-module-loads.mjs script.js`: records every module the ES loader loads (see module-load-hooks.mjs).
import { register } from 'node:module';

register('./module-load-hooks.mjs', import.meta.url);
