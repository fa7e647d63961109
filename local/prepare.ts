// npm's `prepare` script (run by `npm ci` and `npm install`): `npm start`'s bundle is made at install, as an image
// carries its bundle from its build, so a first start does not make it (ADR 44). It never fails an install.
import { prepareBundle } from './launch.ts';

console.error(`[lifecycle] ${await prepareBundle('local/main.ts')}`);
