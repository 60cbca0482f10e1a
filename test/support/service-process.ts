import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/hosts/node/file-assets.ts';

const ENTRY = join(PROJECT_ROOT, 'dist/hosts/node/main.js');
const NODE_FLAGS = ['--enable-source-maps'];

/** The built service started as `npm start` starts it, in a child process. */
export class ServiceProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  /**
   * Resolves once the process has ended and all it wrote has been read ('close', not 'exit':
   * at 'exit' its last lines may still be on their way), so stdout and stderr are whole then.
   */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [...NODE_FLAGS, ENTRY, ...args], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => resolve({ code, signal })),
    );
  }

  /** Resolves with the first match of `pattern` in stdout, or rejects if the process ends first. */
  async waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    for (;;) {
      const match = this.stdout.match(pattern);
      if (match) return match;
      const ended = await Promise.race([
        this.exited.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 20)),
      ]);
      if (ended && !this.stdout.match(pattern)) {
        throw new Error(`exited before ${pattern}; stdout: ${this.stdout} stderr: ${this.stderr}`);
      }
    }
  }

  /** The URL the service says it listens on. */
  async url(): Promise<string> {
    return (await this.waitFor(/listening on (http:\/\/[^\s"]+)/))[1]!;
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** A config folder holding `prod.yaml` as given, or the shipped one with `edit` applied. */
export function configDir(
  prodYaml: string | ((shipped: string) => string),
  prefix = 'todo-config-',
): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const shipped = readFileSync(join(PROJECT_ROOT, 'config/prod.yaml'), 'utf8');
  writeFileSync(
    join(dir, 'prod.yaml'),
    typeof prodYaml === 'string' ? prodYaml : prodYaml(shipped),
  );
  return dir;
}
