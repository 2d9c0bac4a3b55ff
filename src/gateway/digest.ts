/**
 * A file's digest computed while it streams past, so that a large report can be written to disk
 * and verified without being held in memory: `node:crypto`'s incremental hash where the runtime
 * has one (found at run time, as the core's signer does, so nothing here imports a `node:`
 * module), else the chunks kept and hashed with Web Crypto at the end.
 */
import { fileDigest, type ShaType } from '../core/signature.ts';

export interface StreamingDigest {
  update(chunk: Uint8Array): void;
  /** Lowercase hex, as the core's `fileDigest` writes it. */
  hex(): Promise<string>;
}

interface NodeHash {
  update(data: Uint8Array): NodeHash;
  digest(encoding: 'hex'): string;
}

function nodeHash(sha: ShaType): NodeHash | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const crypto = runtime?.getBuiltinModule?.('node:crypto') as { createHash?: (algorithm: string) => NodeHash } | undefined;
    return crypto?.createHash?.(sha);
  } catch {
    return undefined;
  }
}

export function streamingDigest(sha: ShaType): StreamingDigest {
  const hash = nodeHash(sha);
  if (hash) {
    return {
      update: (chunk) => void hash.update(chunk),
      hex: async () => hash.digest('hex'),
    };
  }
  const chunks: Uint8Array[] = [];
  return {
    update: (chunk) => void chunks.push(chunk),
    async hex() {
      const whole = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
      let offset = 0;
      for (const chunk of chunks) {
        whole.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return fileDigest(whole, sha);
    },
  };
}
