import { readFile } from 'node:fs/promises';
import { checkPackageSize } from './check-package-size.js';
import type { PackageKind, ParseLimits } from './parse-limits.js';
import { passwordProtected } from './unreadable.js';

const COMPOUND_FILE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/**
 * Office saves a password-protected DOCX, PPTX or XLSX not as a zip but as an OLE compound file holding an
 * "EncryptedPackage" stream; the stream's name sits in the file's directory, in UTF-16.
 */
export function isEncryptedOfficeFile(bytes: Uint8Array): boolean {
  return isCompoundFile(bytes) && namesEncryptedPackage(bytes);
}

/** Whether these bytes (a compound file, or a slice of its directory) name the encrypted package stream. */
export function namesEncryptedPackage(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPTED_PACKAGE);
}

function isCompoundFile(bytes: Uint8Array): boolean {
  return COMPOUND_FILE_MAGIC.every((byte, i) => bytes[i] === byte);
}

/**
 * The whole file, refused with a readable error when it is an encrypted Office package or when its parts
 * would cost more to read than `limits` allow.
 */
export async function readOfficeFile(filePath: string, kind: PackageKind, limits: ParseLimits): Promise<Buffer> {
  const bytes = await readFile(filePath);
  if (isEncryptedOfficeFile(bytes)) throw passwordProtected(kind.toUpperCase());
  await checkPackageSize(bytes, kind, limits);
  return bytes;
}
