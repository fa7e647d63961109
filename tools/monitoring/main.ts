// `npm run dashboards`: writes the dashboards of dashboards.ts into manifests/components/monitoring/dashboards/.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dashboards } from './dashboards.ts';

const dir = fileURLToPath(new URL('../../manifests/components/monitoring/dashboards/', import.meta.url));
await mkdir(dir, { recursive: true });
for (const [file, board] of Object.entries(dashboards()))
  await writeFile(`${dir}${file}`, `${JSON.stringify(board, null, 2)}\n`);
console.info(`wrote ${Object.keys(dashboards()).length} dashboards to ${dir}`);
