// What the tests of the generated module (C43) share: a site's project in a temporary directory
// with the module in it, type-checked under the strictest settings a site may use, and linted with
// the project's own Biome rules.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/** A site's project holding the module as `types.ts`; `remove()` when done. */
export function siteWith(module: string) {
  const dir = mkdtempSync(join(tmpdir(), 'forms-types-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(dir, 'types.ts'), module);
  /** The strictest settings a site's project may have; the spec's types where a library reads them. */
  function tsconfig(name: string, file: string, types: string[] = []): string {
    const path = join(dir, `tsconfig.${name}.json`);
    const options = {
      target: 'es2022',
      lib: ['es2022', 'dom'],
      module: 'nodenext',
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noImplicitReturns: true,
      noImplicitOverride: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noFallthroughCasesInSwitch: true,
      noPropertyAccessFromIndexSignature: true,
      verbatimModuleSyntax: true,
      erasableSyntaxOnly: true,
      isolatedModules: true,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: false,
      types,
      typeRoots: [join(ROOT, 'node_modules/@types')],
      paths: { '@standard-schema/spec': [join(ROOT, 'node_modules/@standard-schema/spec/dist/index.d.ts')] },
    };
    writeFileSync(path, JSON.stringify({ compilerOptions: options, files: [file] }, null, 2));
    return path;
  }

  /**
   * `npm exec -- tsc --noEmit --pretty -p <config>` on a consumer: its exit status and what tsc
   * printed, without colours (`--pretty` shows the property each error's expected type comes from).
   */
  function typeCheck(
    name: string,
    consumer: string,
    types: string[] = [],
  ): Promise<{ code: number; output: string }> {
    writeFileSync(join(dir, `${name}.ts`), consumer);
    const config = tsconfig(name, `${name}.ts`, types);
    return new Promise((resolve, reject) => {
      const child = spawn('npm', ['exec', '--', 'tsc', '--noEmit', '--pretty', '-p', config], { cwd: ROOT });
      let output = '';
      child.stdout.on('data', (d) => {
        output += d;
      });
      child.stderr.on('data', (d) => {
        output += d;
      });
      child.on('error', reject);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes
      const plain = () => output.replace(/\x1b\[[0-9;]*m/g, '');
      child.on('close', (code) => resolve({ code: code ?? -1, output: plain() }));
    });
  }

  return { dir, typeCheck, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The project's own lint (Biome) on a module: what it reports, and its exit status. */
export function lintModule(module: string): { output: string; status: number | null } {
  const probe = mkdtempSync(join(ROOT, 'test/node/.exhaustive-'));
  try {
    writeFileSync(join(probe, 'types.ts'), module);
    const lint = spawnSync('npx', ['biome', 'lint', '--vcs-use-ignore-file=false', join(probe, 'types.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    return { output: `${lint.stdout}${lint.stderr}`, status: lint.status };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
